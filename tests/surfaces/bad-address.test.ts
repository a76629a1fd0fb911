import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";

// A page address with a malformed percent-encoding, through the proxy every request passes first:
// a 400 page that says what is wrong (it was a bare 500 when the page decoded it), JSON under /api/.

const ask = (path: string) => proxy(new NextRequest(`http://127.0.0.1:3400${path}`, { headers: { host: "127.0.0.1:3400" } }));

describe("a malformed percent-encoding in the address", () => {
  it("is a 400 page naming the bad sequence, for a person's page, an issue and a milestone", async () => {
    for (const path of ["/people/%ZZ", "/issues/BK-%2", "/milestones/%"]) {
      const r = await ask(path);
      expect(r.status, path).toBe(400);
      expect(r.headers.get("content-type")).toMatch(/^text\/html/);
      const page = await r.text();
      expect(page).toContain(`the address ${path} cannot be read`);
      expect(page).toMatch(/is not a percent-encoding \(a &#39;%&#39; and two hex digits/);
    }
  });

  it("names bytes that are not UTF-8, and answers JSON under /api/", async () => {
    const page = await ask("/people/%E9");
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("its percent-encoded bytes are not UTF-8");
    const api = await ask("/api/v1/plan/record%ZZ");
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ error: { code: "invalid_input", message: expect.stringContaining("'%ZZ' is not a percent-encoding") } });
  });

  it("lets a well-formed address through to its page", async () => {
    const r = await ask("/people/%C3%A9lise");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-middleware-next")).toBe("1");
  });
});
