import { errorResponse } from "./responses";

// An address whose path holds a malformed percent-encoding (`/people/%ZZ`, a lone `%`, bytes that
// are not UTF-8) cannot name a page or a record: it is answered 400 saying so, before a page
// decodes it (which threw, and was a bare 500).

/** What is wrong with the percent-encoding of `path`, or undefined when it decodes. */
export function percentEncodingProblem(path: string): string | undefined {
  try {
    decodeURIComponent(path);
    return undefined;
  } catch {
    const bad = /%(?![0-9A-Fa-f]{2})[\s\S]{0,2}/.exec(path);
    return bad
      ? `'${bad[0]}' is not a percent-encoding (a '%' and two hex digits; a '%' itself is written %25)`
      : "its percent-encoded bytes are not UTF-8";
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The 400 of such an address: JSON under /api/, else a page that says what is wrong. */
export function badAddressResponse(path: string, problem: string): Response {
  const message = `the address ${path} cannot be read: ${problem}`;
  if (path.startsWith("/api/")) return errorResponse("invalid_input", 400, message);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad address</title></head><body><main><h1>Bad address</h1><p>${escapeHtml(message)}.</p><p><a href="/">Back to the plan</a></p></main></body></html>`;
  return new Response(html, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
