import { describe, expect, it } from "vitest";
import { pageText } from "./page-text";

describe("record text for a page's HTML", () => {
  it("shows each NUL as U+FFFD, in strings, lists and keys, and keeps everything else", () => {
    expect(pageText({ title: "a\u0000b", scope: ["\u0000"], n: 2, none: null, "k\u0000": "\u001b[31m" })).toEqual({
      title: "a\uFFFDb",
      scope: ["\uFFFD"],
      n: 2,
      none: null,
      "k\uFFFD": "\u001b[31m",
    });
  });
});

describe("record text for a page's HTML, in a record file's values", () => {
  it("keeps a YAML mapping a Map and any other object as it is", () => {
    const when = new Date(0);
    const shown = pageText([["evidence", [new Map([["covers", "t\u0000"]])]], ["at", when]] as const);
    expect(shown[0][1][0]).toBeInstanceOf(Map);
    expect([...shown[0][1][0].entries()]).toEqual([["covers", "t\uFFFD"]]);
    expect(shown[1][1]).toBe(when);
  });
});
