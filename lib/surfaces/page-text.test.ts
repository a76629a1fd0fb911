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
