import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as planFeedGet } from "@/app/feed.atom/route";
import { GET as personFeedGet } from "@/app/people/[handle]/feed.atom/route";
import { planCli } from "../support/cli-in-process";
import { cleanup, copyRepo } from "../surfaces/helpers";

// The Atom feeds of the demo, through their route handlers: well-formed XML that a parser the
// project did not write reads, with what RFC 4287 requires of a feed and of each entry; the same
// bytes from a second clone of the same history; one person's feed; text escaped.

let repo: string;
const savedRepo = process.env.COCKPIT_REPO;
const gitIn = (dir: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=Feed Tests", "-c", "user.email=feed@cockpit.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: dir, stdio: "pipe" });

beforeAll(() => {
  repo = copyRepo("cockpit-feed-");
  writeFileSync(join(repo, ".gitignore"), ".ai/local/\n");
  gitIn(repo, "init", "-q", "-b", "main");
  gitIn(repo, "add", "-A");
  gitIn(repo, "commit", "-qm", "the demo plan");
});
afterEach(() => {
  if (savedRepo === undefined) delete process.env.COCKPIT_REPO;
  else process.env.COCKPIT_REPO = savedRepo;
});
afterAll(cleanup);

const { json } = planCli(() => repo);

async function feedOf(dir: string, handle?: string): Promise<{ status: number; type: string | null; text: string }> {
  process.env.COCKPIT_REPO = dir;
  const request = new Request(`http://127.0.0.1:3000${handle ? `/people/${encodeURIComponent(handle)}/feed.atom` : "/feed.atom"}`);
  const response = handle ? await personFeedGet(request, { params: Promise.resolve({ handle: encodeURIComponent(handle) }) }) : await planFeedGet(request);
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

interface AtomEntry {
  id: string;
  title: string;
  updated: string;
  link: { "@_href": string; "@_rel": string };
  summary: { "#text": string; "@_type": string };
  author?: { name: string };
}

/** The feed read by a real XML parser, with what RFC 4287 requires checked. */
function readAtom(xml: string): { feed: Record<string, unknown>; entries: AtomEntry[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "entry" || name === "link" }).parse(xml) as { feed: Record<string, unknown> & { entry?: AtomEntry[] } };
  const feed = parsed.feed;
  expect(feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
  for (const required of ["id", "title", "updated", "author"]) expect(feed[required], `feed/${required}`).toBeDefined();
  expect((feed.link as { "@_rel": string }[]).map((l) => l["@_rel"])).toContain("self");
  const entries = (feed.entry ?? []).map((e) => ({ ...e, link: (e.link as unknown as AtomEntry["link"][])[0] }));
  for (const e of entries) {
    expect(e.id).toMatch(/^tag:cockpit,2026:/);
    expect(String(e.title).length).toBeGreaterThan(0);
    expect(e.updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  }
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  const times = entries.map((e) => e.updated);
  expect([...times].sort().reverse()).toEqual(times);
  return { feed, entries };
}

describe("Atom feeds", () => {
  it("the plan's feed: valid Atom of the moves and what became READY, the same from a second clone; asks and answers join it", async () => {
    const first = await feedOf(repo);
    expect(first.status).toBe(200);
    expect(first.type).toBe("application/atom+xml; charset=utf-8");
    const { feed, entries } = readAtom(first.text);
    expect(feed.title).toBe("Harbor Bookings: the plan");
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.some((e) => / done: /.test(e.title))).toBe(true);
    expect(entries.some((e) => / started: /.test(e.title))).toBe(true);
    expect(entries.find((e) => /^BK-\d+ is READY/.test(e.title))?.link["@_href"]).toMatch(/^http:\/\/127\.0\.0\.1:3000\/issues\/BK-\d+$/);

    const clone = join(mkdtempSync(join(tmpdir(), "cockpit-feed-clone-")), "clone");
    execFileSync("git", ["clone", "-q", repo, clone], { stdio: "pipe" });
    expect((await feedOf(clone)).text).toBe(first.text);

    const asked = await json<{ id: string }>("ask", "BK-021", "--question", "Load test from <eu> & \"us\"?", "--kind", "choose", "--option", "eu", "--option", "us", "--as", "tom");
    await json("answer", asked.id, "--choice", "eu", "--as", "lead");
    const after = readAtom((await feedOf(repo)).text);
    const titles = after.entries.map((e) => e.title);
    expect(titles).toContain('tom asks on BK-021: Load test from <eu> & "us"?');
    expect(titles).toContain("lead answered tom on BK-021: eu");
    expect((await feedOf(repo)).text).toContain("Load test from &lt;eu&gt; &amp; &quot;us&quot;?");
  });

  it("one person's feed: what they own and were asked; nobody of that name is 404", async () => {
    const tom = await feedOf(repo, "tom");
    expect(tom.status).toBe(200);
    const { feed, entries } = readAtom(tom.text);
    expect(feed.title).toBe("Harbor Bookings: tom");
    expect((feed.link as { "@_rel": string; "@_href": string }[]).find((l) => l["@_rel"] === "self")!["@_href"]).toBe("http://127.0.0.1:3000/people/tom/feed.atom");
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e.author?.name === "tom" || /tom|BK-021/.test(e.title)).toBe(true);
    const nobody = await feedOf(repo, "no-such-person");
    expect(nobody.status).toBe(404);
    expect(JSON.parse(nobody.text)).toMatchObject({ error: { code: "not_found" } });
  });
});
