import { describe, expect, it } from "vitest";
import { MentionMatcher, isMentioned } from "./mention";

// docs/code-links.md, "Where an id is looked for".

describe("an issue is mentioned in a text when its id occurs in it", () => {
  it.each([
    ["bk-020-ics-feed", "a branch name in lower case"],
    ["feature/BK-020", "after a slash"],
    ["BK-020", "the whole text"],
    ["Fix the feed (BK-020)", "in parentheses"],
    ["Refs: BK-020\n", "a trailer"],
    ["Merge branch 'bk-020-ics-feed'", "a merge commit's message"],
    ["bk-020_feed", "followed by an underscore"],
    ["BK-020.", "followed by a full stop that ends the sentence"],
    ["BK-020...", "followed by dots and no letter or digit"],
    ["BK-020./x", "followed by a dot and a slash"],
    ["x-BK-020", "after a hyphen"],
    ["éBK-020", "after a letter that is not ASCII"],
    ["bK-020", "in mixed case"],
  ])("%s mentions BK-020 (%s)", (text) => {
    expect(isMentioned(text, "BK-020")).toBe(true);
  });

  it.each([
    ["BK-0200", "followed by a digit"],
    ["XBK-020", "after a letter"],
    ["9BK-020", "after a digit"],
    ["BK-020.1", "followed by a dot and a digit"],
    ["BK-020.x", "followed by a dot and a letter"],
    ["BK-020a", "followed by a letter"],
    ["BK-02", "a shorter text"],
    ["BK 020", "a space for the hyphen"],
    ["", "an empty text"],
  ])("%s does not mention BK-020 (%s)", (text) => {
    expect(isMentioned(text, "BK-020")).toBe(false);
  });

  it("an id that is a prefix of another is told apart from it, and both may be mentioned in one text", () => {
    const m = new MentionMatcher(["BK-02", "BK-020", "BK-020-x", "I1"]);
    expect(m.find("BK-020")).toEqual(["BK-020"]);
    expect(m.find("BK-02 and then BK-020")).toEqual(["BK-02", "BK-020"]);
    // "BK-020-x" holds BK-020 (a hyphen follows it) and BK-020-x itself.
    expect(m.find("work on bk-020-x")).toEqual(["BK-020", "BK-020-x"]);
    expect(m.find("I10 I1")).toEqual(["I1"]);
  });

  it("each id once, in the order of its first mention; ids that differ only in case are both found", () => {
    const m = new MentionMatcher(["A-1", "B-2", "a-1"]);
    expect(m.find("B-2, A-1, b-2, a-1")).toEqual(["B-2", "A-1", "a-1"]);
  });

  it("ids with characters a pattern would read (dots, plus, brackets) are matched literally", () => {
    const m = new MentionMatcher(["v1.2", "c++", "[x]"]);
    expect(m.find("release v1.2 today")).toEqual(["v1.2"]);
    expect(m.find("v1x2")).toEqual([]);
    expect(m.find("port to c++ and [x]")).toEqual(["c++", "[x]"]);
  });

  it("no ids, or an empty id, mention nothing", () => {
    expect(new MentionMatcher([]).find("BK-020")).toEqual([]);
    expect(new MentionMatcher([""]).find("anything")).toEqual([]);
  });
});
