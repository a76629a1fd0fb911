import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "./args";

describe("parseArgs", () => {
  const accepted = { repo: "value", json: "flag", "allowed-host": "values" } as const;

  it("takes options and words in any order, with --name value and --name=value", () => {
    const a = parseArgs(["I0001", "--repo=/x", "--json", "extra"], accepted);
    expect(a.words).toEqual(["I0001", "extra"]);
    expect(a.options.get("repo")).toBe("/x");
    expect(a.options.get("json")).toBe("true");
  });

  it("keeps every value of a repeatable option, in order", () => {
    const a = parseArgs(["--allowed-host", "a.example", "--allowed-host=b.example"], accepted);
    expect(a.lists.get("allowed-host")).toEqual(["a.example", "b.example"]);
  });

  it("refuses a single-valued option or a flag given twice", () => {
    expect(() => parseArgs(["--repo", "a", "--repo", "b"], accepted)).toThrow(/--repo is given 2 times; give it once/);
    expect(() => parseArgs(["--json", "--json"], accepted)).toThrow(/--json is given 2 times/);
  });

  it("names the accepted options when one is unknown", () => {
    expect(() => parseArgs(["--nope"], accepted)).toThrow(UsageError);
    expect(() => parseArgs(["--nope"], accepted)).toThrow(/unknown option '--nope'; this command accepts --repo <repo>, --json, --allowed-host <allowed-host>…/);
    expect(() => parseArgs(["-x"], accepted)).toThrow(/unknown option '-x'/);
  });

  it("says when a value is missing or a flag is given one", () => {
    expect(() => parseArgs(["--repo"], accepted)).toThrow(/--repo needs a value/);
    expect(() => parseArgs(["--repo", "--json"], accepted)).toThrow(/--repo needs a value/);
    expect(() => parseArgs(["--json=yes"], accepted)).toThrow(/--json takes no value/);
  });

  it("reads a negative number, a lone dash and everything after -- as words", () => {
    expect(parseArgs(["-5", "-", "--", "--json"], accepted).words).toEqual(["-5", "-", "--json"]);
  });
});

describe("parseArgs: a negative number as an option's value", () => {
  it("is the value as given, never the escaped word", () => {
    const accepted = { limit: "value" } as const;
    expect(parseArgs(["--limit", "-5"], accepted).options.get("limit")).toBe("-5");
    expect(parseArgs(["--limit=-5"], accepted).options.get("limit")).toBe("-5");
    expect(parseArgs(["--limit", "-"], accepted).options.get("limit")).toBe("-");
  });
});
