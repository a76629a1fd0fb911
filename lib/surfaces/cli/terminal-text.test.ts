import { describe, expect, it } from "vitest";
import { escapeField, escapeFields, escapeForTerminal } from "./terminal-text";

describe("record text for the terminal", () => {
  it("escapes ESC, NUL, DEL, C1 and the bidirectional overrides, and keeps a text's own lines", () => {
    expect(escapeForTerminal("a\u001b[2Jb\u0000c\u007fd\u009be\u202ef\ng\th")).toBe("a\\x1b[2Jb\\x00c\\x7fd\\x9be\\u202ef\ng\th");
  });

  it("escapes newlines, returns and tabs inside one field, so a value keeps its line and its column", () => {
    expect(escapeField("one\ntwo\r\tthree")).toBe("one\\ntwo\\r\\tthree");
  });

  it("leaves printable text, accents and emoji as they are", () => {
    expect(escapeField("Zoë — 日本 🚀 \\x1b")).toBe("Zoë — 日本 🚀 \\x1b");
  });

  it("escapes every string of an answer, keys included, and keeps numbers, booleans and null", () => {
    expect(escapeFields({ title: "a\u001bb", n: 3, ok: true, none: null, list: ["x\ny"], "k\u0000": { deep: "\u0085" } })).toEqual({
      title: "a\\x1bb",
      n: 3,
      ok: true,
      none: null,
      list: ["x\\ny"],
      "k\\x00": { deep: "\\x85" },
    });
  });
});
