import { describe, expect, it } from "vitest";
import { floatText, formatFloat, integerText } from "./scalars";
import { parseYaml, type YamlMap } from "./yaml";

/** The text a plain scalar reads as, through the record parser (§1.2). */
function read(scalarText: string): string | null {
  const result = parseYaml(`v: ${scalarText}\n`);
  if (!result.ok) throw new Error(`does not parse: ${result.problem.reason}`);
  return (result.value as YamlMap).get("v") as string | null;
}

describe("§1.2 integers read as their decimal text (serde_yaml)", () => {
  it("hexadecimal 0x1A → 26", () => {
    expect(integerText("0x1A")).toBe("26");
    expect(read("0x1A")).toBe("26");
    expect(read("0xff")).toBe("255");
  });

  it("octal 0o17 → 15 and binary 0b101 → 5", () => {
    expect(read("0o17")).toBe("15");
    expect(read("0b101")).toBe("5");
  });

  it("signed decimals: +12 → 12, -12 → -12, -0 → 0", () => {
    expect(read("+12")).toBe("12");
    expect(read("-12")).toBe("-12");
    expect(read("-0")).toBe("0");
  });

  it("negative hexadecimal -0x1A → -26", () => {
    expect(read("-0x1A")).toBe("-26");
  });

  it("plain decimals stay as written: 0, 7, 100", () => {
    expect(read("0")).toBe("0");
    expect(read("7")).toBe("7");
    expect(read("100")).toBe("100");
  });

  it("a leading zero keeps digits a string: 012 stays 012, -012 stays -012", () => {
    expect(integerText("012")).toBeUndefined();
    expect(floatText("012")).toBeUndefined();
    expect(read("012")).toBe("012");
    expect(read("-012")).toBe("-012");
    expect(read("00")).toBe("00");
  });

  it("not numbers: 0x, 1_000, 0x1G stay strings", () => {
    expect(read("0x")).toBe("0x");
    expect(read("1_000")).toBe("1_000");
    expect(read("0x1G")).toBe("0x1G");
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

  it("5. → 5.0, .5 → 0.5, -.5 → -0.5, +1.25 → 1.25, 00.5 → 0.5", () => {
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

  it("infinities and NaN in YAML spelling: .inf, -.inf, .nan", () => {
    expect(read(".inf")).toBe(".inf");
    expect(read(".Inf")).toBe(".inf");
    expect(read("+.inf")).toBe(".inf");
    expect(read("-.INF")).toBe("-.inf");
    expect(read(".NaN")).toBe(".nan");
  });

  it("Rust-only spellings and overflow stay strings: inf, nan, infinity, 1e400", () => {
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
  it("true/false (any YAML 1.2 case) read as 'true'/'false'; yes/no/on stay strings", () => {
    expect(read("true")).toBe("true");
    expect(read("True")).toBe("true");
    expect(read("FALSE")).toBe("false");
    expect(read("yes")).toBe("yes");
    expect(read("no")).toBe("no");
    expect(read("on")).toBe("on");
  });

  it("null, ~ and an empty value read as null", () => {
    expect(read("null")).toBeNull();
    expect(read("~")).toBeNull();
    expect(read("")).toBeNull();
  });

  it("timestamps and dates are text, unchanged", () => {
    expect(read("2026-09-20T10:00:00Z")).toBe("2026-09-20T10:00:00Z");
    expect(read("2026-09-11")).toBe("2026-09-11");
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
