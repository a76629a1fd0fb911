// A plain YAML scalar's text as the reference reader (serde_yaml 0.9 over YAML 1.2 core) yields it:
// integers become decimal text, floats their shortest round-trip form (ryu), booleans `true`/`false`.
// Everything here returns `undefined` when the scalar is not of that kind, so the caller falls through.

const DECIMAL = /^[0-9]+$/;
const HEX = /^[0-9a-fA-F]+$/;
const OCTAL = /^[0-7]+$/;
const BINARY = /^[01]+$/;
// Rust's f64 grammar: (Digit+ | Digit+ '.' Digit* | Digit* '.' Digit+) Exp?, sign handled by the caller.
const RUST_FLOAT = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

const U128_MAX = (1n << 128n) - 1n;
const I128_MIN = -(1n << 127n);

/** `0123` and `-0123` are strings in YAML 1.2, never numbers. */
function isDigitsButNotNumber(text: string): boolean {
  const body = text[0] === "-" || text[0] === "+" ? text.slice(1) : text;
  return body.length > 1 && body[0] === "0" && DECIMAL.test(body.slice(1));
}

function parseRadix(digits: string, radix: 2 | 8 | 16, pattern: RegExp): bigint | undefined {
  if (!pattern.test(digits)) return undefined;
  const prefix = radix === 16 ? "0x" : radix === 8 ? "0o" : "0b";
  return BigInt(prefix + digits);
}

function parseUnsigned(text: string): bigint | undefined {
  const body = text[0] === "+" ? text.slice(1) : text;
  if (body.startsWith("0x")) {
    const v = parseRadix(body.slice(2), 16, HEX);
    if (v !== undefined) return v;
  }
  if (body.startsWith("0o")) {
    const v = parseRadix(body.slice(2), 8, OCTAL);
    if (v !== undefined) return v;
  }
  if (body.startsWith("0b")) {
    const v = parseRadix(body.slice(2), 2, BINARY);
    if (v !== undefined) return v;
  }
  if (body[0] === "+" || body[0] === "-") return undefined;
  if (isDigitsButNotNumber(text) || !DECIMAL.test(body)) return undefined;
  return BigInt(body);
}

function parseNegative(text: string): bigint | undefined {
  if (text[0] !== "-") return undefined;
  const body = text.slice(1);
  for (const [prefix, radix, pattern] of [["0x", 16, HEX], ["0o", 8, OCTAL], ["0b", 2, BINARY]] as const) {
    if (body.startsWith(prefix)) {
      const v = parseRadix(body.slice(2), radix, pattern);
      if (v !== undefined) return -v;
    }
  }
  if (isDigitsButNotNumber(text) || !DECIMAL.test(body)) return undefined;
  return -BigInt(body);
}

/** Decimal text of a plain integer scalar, or undefined when the scalar is not an integer. */
export function integerText(text: string): string | undefined {
  const c = text.charCodeAt(0);
  // Fast path: the overwhelmingly common small decimal.
  if (c >= 48 && c <= 57 && text.length < 16 && DECIMAL.test(text)) {
    return text.length > 1 && c === 48 ? undefined : String(Number(text));
  }
  const u = parseUnsigned(text);
  if (u !== undefined && u <= U128_MAX) return u.toString();
  const n = parseNegative(text);
  if (n !== undefined && n >= I128_MIN) return n.toString();
  return undefined;
}

/**
 * Rust's `ryu::Buffer::format_finite`: the shortest round-trip digits, printed in plain notation
 * when the decimal exponent is small and in `1.5e30` form otherwise, always with a `.` or an `e`.
 */
export function formatFloat(value: number): string {
  if (Number.isNaN(value)) return ".nan";
  if (value === Infinity) return ".inf";
  if (value === -Infinity) return "-.inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  // toExponential() without an argument gives the shortest digits that round-trip.
  const [mant, expText] = Math.abs(value).toExponential().split("e");
  const digits = mant.replace(".", "");
  const length = digits.length;
  const kk = Number(expText) + 1; // 10^(kk-1) <= v < 10^kk
  const k = kk - length;
  let body: string;
  if (k >= 0 && kk <= 16) {
    body = digits + "0".repeat(k) + ".0";
  } else if (kk > 0 && kk <= 16) {
    body = digits.slice(0, kk) + "." + digits.slice(kk);
  } else if (kk > -5 && kk <= 0) {
    body = "0." + "0".repeat(-kk) + digits;
  } else if (length === 1) {
    body = digits + "e" + (kk - 1);
  } else {
    body = digits[0] + "." + digits.slice(1) + "e" + (kk - 1);
  }
  return sign + body;
}

/** Float text of a plain scalar, or undefined when serde_yaml would keep it a string. */
export function floatText(text: string): string | undefined {
  if (isDigitsButNotNumber(text)) return undefined;
  let body = text;
  if (body[0] === "+") {
    body = body.slice(1);
    if (body[0] === "+" || body[0] === "-") return undefined;
  }
  if (body === ".inf" || body === ".Inf" || body === ".INF") return ".inf";
  if (text === "-.inf" || text === "-.Inf" || text === "-.INF") return "-.inf";
  if (text === ".nan" || text === ".NaN" || text === ".NAN") return ".nan";
  if (!RUST_FLOAT.test(body)) return undefined;
  const value = Number(body);
  if (!Number.isFinite(value)) return undefined;
  return formatFloat(value);
}
