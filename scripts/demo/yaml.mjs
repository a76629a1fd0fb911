// The demo's YAML writer: what the bundled demo's records are written with.

// A small YAML writer: block mappings and sequences, plain scalars where they read back as the
// same text, double-quoted (JSON) scalars everywhere else.

const RESERVED = /^(?:true|false|yes|no|on|off|null|y|n|~)$/i;
const STAMP_OR_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}Z)?$/;

function scalar(value) {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const s = String(value);
  if (STAMP_OR_DATE.test(s)) return s;
  const plain =
    s !== "" &&
    /^[A-Za-z_./]/.test(s) &&
    !/^\.[0-9]/.test(s) &&
    s === s.trim() &&
    !RESERVED.test(s) &&
    !/[\n\t"\\]/.test(s) &&
    !s.includes(": ") &&
    !s.includes(" #") &&
    !s.endsWith(":") &&
    /^[\x20-\x7e]*$/.test(s);
  return plain ? s : JSON.stringify(s);
}

export function emit(record) {
  const lines = [];
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        lines.push(`${key}: []`);
        continue;
      }
      lines.push(`${key}:`);
      for (const item of value) {
        if (item !== null && typeof item === "object") {
          const entries = Object.entries(item).filter(([, v]) => v !== undefined);
          entries.forEach(([k, v], i) => lines.push(`${i === 0 ? "  - " : "    "}${k}: ${scalar(v)}`));
        } else {
          lines.push(`  - ${scalar(item)}`);
        }
      }
    } else {
      lines.push(`${key}: ${scalar(value)}`);
    }
  }
  return lines.join("\n") + "\n";
}
