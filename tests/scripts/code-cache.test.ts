import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt } from "../support/processes";

// bin/cockpit keeps V8's compiled code of a bundle beside it. The process is the subject here (how
// the command loads its bundle), so the command runs as one, from a copy of bin/ and dist/.

const ROOT = join(__dirname, "..", "..");
let install: string;
let repo: string;

beforeAll(() => {
  ensureCliBuilt();
  install = mkdtempSync(join(tmpdir(), "cockpit-code-cache-"));
  mkdirSync(join(install, "dist"));
  cpSync(join(ROOT, "bin"), join(install, "bin"), { recursive: true });
  cpSync(join(ROOT, "dist", "cli.js"), join(install, "dist", "cli.js"));
  cpSync(join(ROOT, "package.json"), join(install, "package.json"));
  repo = join(install, "demo");
  cpSync(join(ROOT, "examples", "demo"), repo, { recursive: true });
});
afterAll(() => rmSync(install, { recursive: true, force: true }));

const cacheFile = () => join(install, "dist", "cli.js.v8cache");
const run = (...args: string[]) =>
  spawnSync(process.execPath, [join(install, "bin", "cockpit"), ...args], { encoding: "utf8", env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") }, timeout: 60_000 });
const digestOf = (file: string) => createHash("sha1").update(readFileSync(file)).digest();

describe("the command's compiled-code cache", () => {
  it("is written by a first run, opens with the bundle's digest, and is kept while it is believed", () => {
    const first = run("plan", "next", "--json", "--repo", repo);
    expect(first.status).toBe(0);
    expect(existsSync(cacheFile())).toBe(true);
    expect(readFileSync(cacheFile()).subarray(0, 20).equals(digestOf(join(install, "dist", "cli.js")))).toBe(true);
    const kept = statSync(cacheFile()).ino;
    const second = run("plan", "next", "--json", "--repo", repo);
    expect(second.stdout).toBe(first.stdout);
    // Believed: not written again (a new file would have a new inode).
    expect(statSync(cacheFile()).ino).toBe(kept);
  });

  it("a corrupt cache is not believed: the answer is the same and the cache is written again", () => {
    const expected = run("plan", "status", "--json", "--repo", repo).stdout;
    const bytes = readFileSync(cacheFile());
    writeFileSync(cacheFile(), Buffer.concat([bytes.subarray(0, 20), Buffer.alloc(bytes.length - 20, 7)]));
    const garbage = statSync(cacheFile()).ino;
    const r = run("plan", "status", "--json", "--repo", repo);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected);
    expect(statSync(cacheFile()).ino).not.toBe(garbage);
  });

  it("a cache made from another bundle is not used, even one of the same length", () => {
    run("plan", "next", "--repo", repo);
    const bundle = join(install, "dist", "cli.js");
    // The same length, other bytes (V8's own check looks at the length alone).
    const text = readFileSync(bundle, "utf8");
    writeFileSync(bundle, text.replace("no ready issue", "NO READY ISSUE"));
    expect(readFileSync(bundle).length).toBe(Buffer.byteLength(text));
    const r = run("plan", "next", "--repo", repo);
    expect(r.status).toBe(0);
    expect(readFileSync(cacheFile()).subarray(0, 20).equals(digestOf(bundle))).toBe(true);
    writeFileSync(bundle, text);
  });

  it("a torn cache (its digest alone) is not used", () => {
    writeFileSync(cacheFile(), readFileSync(cacheFile()).subarray(0, 20));
    const r = run("plan", "next", "--json", "--repo", repo);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty("issue.id");
    expect(readFileSync(cacheFile()).length).toBeGreaterThan(20);
  });

  it("--version needs no bundle", () => {
    const bundle = join(install, "dist", "cli.js");
    const moved = `${bundle}.away`;
    cpSync(bundle, moved);
    rmSync(bundle);
    try {
      const r = run("--version");
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`cockpit ${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version}\n`);
      // Anything else still needs it, and says so.
      expect(run("plan", "next", "--repo", repo).status).toBe(13);
    } finally {
      cpSync(moved, bundle);
      rmSync(moved);
    }
  });
});
