import { describe, expect, it } from "vitest";
import { RecordEditError, editRecordText } from "./record-edit";

const ORDER = ["id", "title", "priority", "depends_on", "scope", "validation", "risk", "evidence"];
const SRC = `id: I0001 # the id
title: "Hello"
# lead comment
depends_on: [I0002, I0003]
scope:
  - a
  - b   # tail

risk: plain text here
evidence:
  - covers: x
    type: test
`;

describe("editRecordText", () => {
  it("sets a scalar in its own quoting, keeping its trailing comment", () => {
    expect(editRecordText(SRC, { op: "set", field: "title", value: "Hi: there" }, ORDER)).toBe(SRC.replace('"Hello"', '"Hi: there"'));
    expect(editRecordText(SRC, { op: "set", field: "id", value: "I0009" }, ORDER)).toBe(SRC.replace("I0001 #", "I0009 #"));
  });

  it("quotes a plain scalar whose new value would read as something else", () => {
    expect(editRecordText(SRC, { op: "set", field: "risk", value: "null" }, ORDER)).toBe(SRC.replace("plain text here", '"null"'));
    expect(editRecordText(SRC, { op: "set", field: "risk", value: "a # b" }, ORDER)).toContain('risk: "a # b"\n');
  });

  it("inserts a missing key after the last key that precedes it in the schema's order", () => {
    expect(editRecordText(SRC, { op: "set", field: "priority", value: "p1" }, ORDER)).toBe(SRC.replace('"Hello"\n', '"Hello"\npriority: p1\n'));
    expect(editRecordText(SRC, { op: "add", field: "validation", value: "npm test" }, ORDER)).toBe(
      SRC.replace("# tail\n", "# tail\nvalidation:\n  - npm test\n"),
    );
  });

  it("adds to and removes from flow lists", () => {
    expect(editRecordText(SRC, { op: "add", field: "depends_on", value: "I0004" }, ORDER)).toBe(SRC.replace("I0003]", "I0003, I0004]"));
    expect(editRecordText(SRC, { op: "remove", field: "depends_on", value: "I0002" }, ORDER)).toBe(SRC.replace("[I0002, I0003]", "[I0003]"));
    expect(editRecordText(SRC, { op: "remove", field: "depends_on", value: "I0003" }, ORDER)).toBe(SRC.replace("[I0002, I0003]", "[I0002]"));
    const empty = SRC.replace("[I0002, I0003]", "[]");
    expect(editRecordText(empty, { op: "add", field: "depends_on", value: "I0004" }, ORDER)).toBe(SRC.replace("[I0002, I0003]", "[I0004]"));
  });

  it("adds to and removes from block lists, keeping the blank line after them", () => {
    expect(editRecordText(SRC, { op: "add", field: "scope", value: "c d" }, ORDER)).toBe(SRC.replace("# tail\n", "# tail\n  - c d\n"));
    expect(editRecordText(SRC, { op: "remove", field: "scope", value: "a" }, ORDER)).toBe(SRC.replace("  - a\n", ""));
    const one = editRecordText(SRC, { op: "remove", field: "scope", value: "a" }, ORDER);
    expect(editRecordText(one, { op: "remove", field: "scope", value: "b" }, ORDER)).toBe(SRC.replace("scope:\n  - a\n  - b   # tail\n", "scope: []\n"));
  });

  it("removes a key and only its lines", () => {
    expect(editRecordText(SRC, { op: "unset", field: "risk" }, ORDER)).toBe(SRC.replace("risk: plain text here\n", ""));
    expect(editRecordText(SRC, { op: "unset", field: "depends_on" }, ORDER)).toBe(SRC.replace("depends_on: [I0002, I0003]\n", ""));
  });

  it("keeps a missing final newline missing", () => {
    const text = "id: I1\ntitle: x\nscope:\n  - a";
    expect(editRecordText(text, { op: "add", field: "scope", value: "b" }, ORDER)).toBe("id: I1\ntitle: x\nscope:\n  - a\n  - b");
    expect(editRecordText(text, { op: "unset", field: "scope" }, ORDER)).toBe("id: I1\ntitle: x");
    expect(editRecordText(text, { op: "set", field: "risk", value: "r" }, ORDER)).toBe("id: I1\ntitle: x\nscope:\n  - a\nrisk: r");
  });

  it("refuses what it cannot do in place, naming the field", () => {
    expect(() => editRecordText(SRC, { op: "remove", field: "scope", value: "zz" }, ORDER)).toThrow("'zz' is not in scope (it holds a, b)");
    expect(() => editRecordText(SRC, { op: "set", field: "scope", value: "x" }, ORDER)).toThrow(RecordEditError);
    expect(() => editRecordText(SRC, { op: "add", field: "risk", value: "x" }, ORDER)).toThrow(/single value, not a list/);
    expect(() => editRecordText("id: [", { op: "set", field: "title", value: "x" })).toThrow(/does not parse/);
  });
});
