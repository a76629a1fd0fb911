import { describe, expect, it } from "vitest";
import { floatText, formatFloat, integerText } from "./scalars";
import { parseYaml, type YamlMap } from "./yaml";

/** The text a plain scalar reads as, through the record parser (§1.2). */
function read(scalarText: string): string | null {
  const result = parseYaml(`v: ${scalarText}\n`);
  if (!result.ok) throw new Error(`does not parse: ${result.problem.reason}`);
  return (result.value as YamlMap).get("v") as string | null;
}

describe("§1.2 integers read as their decimal text (YAML 1.2 core schema)", () => {
  it("hexadecimal 0x1A → 26", () => {
    expect(integerText("0x1A")).toBe("26");
    expect(read("0x1A")).toBe("26");
    expect(read("0xff")).toBe("255");
  });

  it("octal 0o17 → 15", () => {
    expect(integerText("0o17")).toBe("15");
    expect(read("0o17")).toBe("15");
  });

  it("signed decimals: +12 → 12, -12 → -12, -0 → 0, +0 → 0", () => {
    expect(read("+12")).toBe("12");
    expect(read("-12")).toBe("-12");
    expect(read("-0")).toBe("0");
    expect(read("+0")).toBe("0");
  });

  it("plain decimals stay as written: 0, 7, 100", () => {
    expect(read("0")).toBe("0");
    expect(read("7")).toBe("7");
    expect(read("100")).toBe("100");
  });

  it("leading zeros are decimal: 010 → 10, -007 → -7, +010 → 10, 00 → 0, -00 → 0", () => {
    expect(integerText("010")).toBe("10");
    expect(read("010")).toBe("10");
    expect(read("-007")).toBe("-7");
    expect(read("+010")).toBe("10");
    expect(read("00")).toBe("0");
    expect(read("-00")).toBe("0");
    expect(read("0009")).toBe("9");
  });

  it("a decimal integer of any length is exact: 40 digits stay 40 digits", () => {
    const digits = "1234567890123456789012345678901234567890";
    expect(read(digits)).toBe(digits);
    expect(read(`-00${digits}`)).toBe(`-${digits}`);
  });

  it("signed hex and octal and binary are YAML 1.1 forms: -0x1A, +0o17, 0b101 stay text", () => {
    expect(integerText("-0x1A")).toBeUndefined();
    expect(read("-0x1A")).toBe("-0x1A");
    expect(read("+0x1A")).toBe("+0x1A");
    expect(read("+0o17")).toBe("+0o17");
    expect(read("-0o17")).toBe("-0o17");
    expect(read("0b101")).toBe("0b101");
    expect(read("-0b101")).toBe("-0b101");
  });

  it("YAML 1.1 octal and sexagesimal: 0o only with its prefix, 1:20 and 190:20:30 stay text", () => {
    expect(read("1:20")).toBe("1:20");
    expect(read("190:20:30")).toBe("190:20:30");
    expect(read("190:20:30.15")).toBe("190:20:30.15");
  });

  it("not numbers: 0x, 0o, 1_000, 0x_1A, 0x1G stay strings", () => {
    expect(read("0x")).toBe("0x");
    expect(read("0o")).toBe("0o");
    expect(read("1_000")).toBe("1_000");
    expect(read("1_000.5")).toBe("1_000.5");
    expect(read("0x_1A")).toBe("0x_1A");
    expect(read("0x1G")).toBe("0x1G");
  });

  it("hex and octal beyond 2^128 - 1 stay text", () => {
    expect(read(`0x${"f".repeat(32)}`)).toBe(((1n << 128n) - 1n).toString());
    expect(read(`0x1${"0".repeat(32)}`)).toBe(`0x1${"0".repeat(32)}`);
  });
});

describe("§1.2 floats read as Rust's shortest round-trip text (ryu)", () => {
  it("1.0 → 1.0 and 1.50 → 1.5", () => {
    expect(floatText("1.0")).toBe("1.0");
    expect(read("1.0")).toBe("1.0");
    expect(read("1.50")).toBe("1.5");
  });

  it("1e3 → 1000.0", () => {
    expect(floatText("1e3")).toBe("1000.0");
    expect(read("1e3")).toBe("1000.0");
    expect(read("1E3")).toBe("1000.0");
  });

  it("5. → 5.0, .5 → 0.5, -.5 → -0.5, +1.25 → 1.25, 00.5 → 0.5, 010.5 → 10.5, -0.0 → -0.0", () => {
    expect(read("010.5")).toBe("10.5");
    expect(read("-0.0")).toBe("-0.0");
    expect(read("5.")).toBe("5.0");
    expect(read(".5")).toBe("0.5");
    expect(read("-.5")).toBe("-0.5");
    expect(read("+1.25")).toBe("1.25");
    expect(read("00.5")).toBe("0.5");
  });

  it("exponent form beyond 16 integer digits and below 1e-5", () => {
    expect(read("1e15")).toBe("1000000000000000.0");
    expect(read("1e16")).toBe("1e16");
    expect(read("1.5e17")).toBe("1.5e17");
    expect(read("1e-5")).toBe("0.00001");
    expect(read("1e-6")).toBe("1e-6");
    expect(read("1.5e-7")).toBe("1.5e-7");
    expect(read("0.001234")).toBe("0.001234");
  });

  it("infinities and NaN, in any case the schema allows, read as written: .Inf, +.inf, -.INF, .NaN", () => {
    expect(read(".inf")).toBe(".inf");
    expect(read(".Inf")).toBe(".Inf");
    expect(read("+.inf")).toBe("+.inf");
    expect(read("-.INF")).toBe("-.INF");
    expect(read(".nan")).toBe(".nan");
    expect(read(".NaN")).toBe(".NaN");
    expect(read(".NAN")).toBe(".NAN");
    expect(floatText(".NaN")).toBe(".NaN");
  });

  it("other spellings and overflow stay as written: inf, nan, infinity, .iNf, -.nan, 1e400", () => {
    expect(read(".iNf")).toBe(".iNf");
    expect(read("-.nan")).toBe("-.nan");
    expect(read("inf")).toBe("inf");
    expect(read("nan")).toBe("nan");
    expect(read("infinity")).toBe("infinity");
    expect(read("1e400")).toBe("1e400");
  });

  it("formatFloat follows ryu's format_finite", () => {
    expect(formatFloat(0)).toBe("0.0");
    expect(formatFloat(-0)).toBe("-0.0");
    expect(formatFloat(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(formatFloat(123.456)).toBe("123.456");
    expect(formatFloat(1e21)).toBe("1e21");
    expect(formatFloat(-2.5e-10)).toBe("-2.5e-10");
  });
});

describe("§1.2 other scalars", () => {
  it("true/false (true, True, TRUE) read as 'true'/'false'; YAML 1.1's yes/no/on/off/y/n and TrUe stay strings", () => {
    expect(read("true")).toBe("true");
    expect(read("True")).toBe("true");
    expect(read("FALSE")).toBe("false");
    for (const word of ["yes", "Yes", "YES", "no", "No", "on", "On", "off", "OFF", "y", "Y", "n", "N", "TrUe"]) {
      expect(read(word), word).toBe(word);
    }
  });

  it("null, Null, NULL, ~ and an empty value read as null; nULL stays a string", () => {
    expect(read("null")).toBeNull();
    expect(read("Null")).toBeNull();
    expect(read("NULL")).toBeNull();
    expect(read("~")).toBeNull();
    expect(read("")).toBeNull();
    expect(read("nULL")).toBe("nULL");
  });

  it("timestamps and dates are text, unchanged (YAML 1.1's timestamp type is not in the core schema)", () => {
    expect(read("2026-09-20T10:00:00Z")).toBe("2026-09-20T10:00:00Z");
    expect(read("2026-09-11")).toBe("2026-09-11");
    expect(read("2001-12-14t21:59:43.10-05:00")).toBe("2001-12-14t21:59:43.10-05:00");
    expect(read("2001-12-14 21:59:43.10 -5")).toBe("2001-12-14 21:59:43.10 -5");
  });

  it("YAML 1.1's value key = is a string", () => {
    expect(read("=")).toBe("=");
  });

  it("<< is an ordinary key, not YAML 1.1's merge: the mapping keeps it and gains no keys", () => {
    const result = parseYaml("base: &b {k: 1}\nv:\n  <<: *b\n  j: 2\n");
    if (!result.ok) throw new Error(result.problem.reason);
    const v = (result.value as YamlMap).get("v") as YamlMap;
    expect([...v.keys()]).toEqual(["<<", "j"]);
    expect(v.has("k")).toBe(false);
  });

  it("quoted scalars are strings as written (no number reformatting)", () => {
    expect(read('"1.0"')).toBe("1.0");
    expect(read("'012'")).toBe("012");
    expect(read('"0x1A"')).toBe("0x1A");
    expect(read('"true"')).toBe("true");
  });

  it("a versions-like plain scalar 0.6 reads as the float text 0.6", () => {
    expect(read("0.6")).toBe("0.6");
    expect(read("0.10")).toBe("0.1");
  });
});
