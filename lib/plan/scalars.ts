// A plain YAML scalar's text, typed strictly by the YAML 1.2 core schema (spec §1.2): integers
// become decimal text, floats their shortest round-trip form (ryu), booleans `true`/`false`.
// Everything here returns `undefined` when the scalar is not of that kind, so the caller falls through.

const DECIMAL = /^[-+]?[0-9]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const OCTAL = /^0o[0-7]+$/;
// The core schema's float: [-+]? ( . [0-9]+ | [0-9]+ ( . [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
// Infinities and NaN have no decimal text: they read as written.
const NOT_FINITE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

const U128_MAX = (1n << 128n) - 1n;

/**
 * Decimal text of a plain integer scalar, or undefined when the scalar is not a core-schema
 * integer. `[-+]?[0-9]+` is decimal whatever its leading zeros (`010` → `10`, `-007` → `-7`) and
 * of any length; only unsigned `0o` / `0x` are octal / hex (up to 2^128 - 1, text beyond).
 * Signed `-0x1A`, `+0o17` and binary `0b101` are YAML 1.1 forms: not integers.
 */
export function integerText(text: string): string | undefined {
  const c = text.charCodeAt(0);
  // Fast path: the overwhelmingly common small decimal without a leading zero.
  if (c >= 49 && c <= 57 && text.length < 16 && DECIMAL.test(text)) return text;
  if (DECIMAL.test(text)) {
    const negative = c === 45;
    const digits = c === 43 || c === 45 ? text.slice(1) : text;
    let start = 0;
    while (start < digits.length - 1 && digits.charCodeAt(start) === 48) start++;
    const magnitude = digits.slice(start);
    return negative && magnitude !== "0" ? `-${magnitude}` : magnitude;
  }
  if (c === 48 && (HEX.test(text) || OCTAL.test(text))) {
    const value = BigInt(text);
    return value <= U128_MAX ? value.toString() : undefined;
  }
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

/**
 * Text of a plain float scalar, or undefined when the core schema does not read it as a float.
 * A finite float is its shortest round-trip text; `.inf`, `-.inf` and `.nan` (any case the
 * schema allows) and a float beyond the double range have no decimal text and read as written.
 */
export function floatText(text: string): string | undefined {
  if (NOT_FINITE.test(text)) return text;
  if (!FLOAT.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? formatFloat(value) : text;
}
