// Synthetic plan repositories for the bench (scripts/bench loads this file bundled): N issues in milestones of 100, each issue a
// realistic ~1 KB record. Deterministic for a given N and GENERATOR_VERSION; written once under
// os.tmpdir() and reused while the version stays the same.
//
// Shape of the plan:
// - milestones come in tracks of five (p0..p4): p1 and p2 require p0, p3 requires p1, p4 requires
//   p2 and p3. p0 is DONE (every issue done, milestone evidence recorded), p1 is ACTIVE (its
//   first four local waves done, the fifth under way), p2 is PLANNED (nothing started), p3 and p4
//   are gated by the unfinished p1;
// - inside a milestone the 100 issues form 10 local waves of 10; an issue depends on one to three
//   issues of the previous local wave, and the first wave of a dependent milestone on the last
//   wave of the milestone it requires, so every dependency points at an earlier wave;
// - every stamp is sealed, except in one track of four whose stamps predate the seal regime
//   (September 2026) and are listed in `unsealed_stamps` instead.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MOVES, type Move } from "../../lib/plan/seal";
import { PROJECT, projectYaml, sealedStampLines } from "./record-files";
import { seededRandom } from "./random";

export const GENERATOR_VERSION = 3;
export const ISSUES_PER_MILESTONE = 100;
const WAVE_WIDTH = 10;

export interface PlanFixture {
  dir: string;
  /** Whether a complete fixture of this version was already there. */
  reused: boolean;
  generator_version: number;
  issues: number;
  milestones: number;
  files: number;
  bytes: number;
  stamps: number;
  generated_in_ms?: number;
}

/** Folder that holds (or will hold) the fixture of `n` issues. */
export function planFixtureDir(n: number, base = join(tmpdir(), "cockpit-bench")): string {
  return join(base, `plan-v${GENERATOR_VERSION}-${n}`);
}

/**
 * Make sure the fixture of `n` issues exists; returns its folder and size. Reuses a complete
 * fixture of the same generator version; otherwise writes it into a scratch folder and renames it.
 */
export function ensurePlanFixture(n: number, base?: string): PlanFixture {
  const dir = planFixtureDir(n, base);
  const marker = join(dir, "fixture.json");
  if (existsSync(marker)) {
    try {
      const meta = JSON.parse(readFileSync(marker, "utf8"));
      if (meta.generator_version === GENERATOR_VERSION && meta.issues === n) return { dir, reused: true, ...meta };
    } catch {
      // fall through and regenerate
    }
  }
  const scratch = `${dir}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  const started = process.hrtime.bigint();
  const meta: Omit<PlanFixture, "dir" | "reused"> = writePlan(scratch, n);
  meta.generated_in_ms = Number(process.hrtime.bigint() - started) / 1e6;
  writeFileSync(join(scratch, "fixture.json"), JSON.stringify(meta, null, 2) + "\n");
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  return { dir, reused: false, ...meta };
}

// ---------------------------------------------------------------------------------------------

const SERVICES = ["billing", "catalog", "checkout", "identity", "inventory", "notifications", "reporting", "search", "storage", "gateway", "scheduler", "analytics"];
const MODULES = ["api", "jobs", "db", "cache", "events", "auth", "metrics", "export", "import", "rules", "webhooks", "admin"];
const VERBS = ["Add", "Cache", "Validate", "Index", "Migrate", "Expose", "Paginate", "Retry", "Audit", "Rate-limit", "Stream", "Batch", "Encrypt", "Deduplicate", "Backfill", "Instrument", "Harden", "Split"];
const OBJECTS = ["invoice totals", "webhook deliveries", "search results", "session tokens", "export jobs", "user preferences", "audit events", "order history", "price rules", "inventory levels", "notification queue", "report snapshots", "tenant settings", "file uploads", "API keys", "feature flags"];
const CONTEXTS = ["for large tenants", "behind the public API", "in the admin console", "in the nightly job", "for the mobile client", "across regions", "during checkout", "for partner integrations"];
const OWNERS = ["ana", "marek", "priya", "tom", "lea", "jonas", "mei", "sam"];
const PROFILES = ["implementation", "implementation", "implementation", "verification", "operations", "documentation"];
const PRIORITIES = ["p0", "p1", "p1", "p2", "p2", "p3"];
const TOKENS = ["unit_tests", "integration_tests", "migration_dry_run", "load_test", "docs_updated", "dashboard_screenshot", "security_review", "canary_report"];

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
const pad = (n: number, width: number) => String(n).padStart(width, "0");
const q = (s: string) => JSON.stringify(s);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const kebab = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

function writePlan(root: string, n: number) {
  const rnd = seededRandom(0x5eed ^ n);
  const project = join(root, PROJECT);
  mkdirSync(join(project, "milestones"), { recursive: true });
  mkdirSync(join(project, "issues"), { recursive: true });
  writeFileSync(join(project, "project.yaml"), projectYaml("Bench Plan", "bench/plan"));

  const mCount = Math.ceil(n / ISSUES_PER_MILESTONE);
  const mWidth = Math.max(4, String(mCount).length);
  const iWidth = Math.max(6, String(n).length);
  const mId = (m: number) => `M${pad(m + 1, mWidth)}`;
  const iId = (i: number) => `I${pad(i + 1, iWidth)}`;
  // Issue index range of milestone m, and of its local wave w.
  const first = (m: number) => m * ISSUES_PER_MILESTONE;
  const size = (m: number) => Math.min(ISSUES_PER_MILESTONE, n - first(m));
  const waveRange = (m: number, w: number): [number, number] | undefined => {
    const lo = first(m) + w * WAVE_WIDTH;
    const hi = Math.min(lo + WAVE_WIDTH, first(m) + size(m));
    return lo < hi ? [lo, hi] : undefined;
  };
  const lastWaveRange = (m: number) => waveRange(m, Math.floor((size(m) - 1) / WAVE_WIDTH));
  const requires = (m: number) => {
    const p = m % 5;
    const base = m - p;
    const deps = p === 0 ? [] : p === 1 || p === 2 ? [base] : p === 3 ? [base + 1] : [base + 2, base + 3];
    return deps.filter((d) => d < mCount);
  };

  let bytes = 0;
  let stamps = 0;
  let files = 1;
  for (let m = 0; m < mCount; m++) {
    const track = Math.floor(m / 5);
    const p = m % 5;
    const legacy = track % 4 === 3;
    const svc = `${SERVICES[track % SERVICES.length]}${track >= SERVICES.length ? `-${Math.floor(track / SERVICES.length)}` : ""}`;
    // Calendar of the track: DONE work in early October (or September for a legacy track).
    const trackStart = Date.UTC(2026, legacy ? 8 : 9, legacy ? 2 : 2 + (track % 10), 8, 0, 0);
    const mDeps = requires(m);

    const lines = [
      `id: ${mId(m)}`,
      `title: ${q(`${svc}: ${["foundations", "core workflows", "operability", "scale-out", "hardening"][p]} (track ${track})`)}`,
      `slug: ${svc}-${["foundations", "core", "operability", "scale-out", "hardening"][p]}`,
      `version: "${1 + Math.floor(track / 10)}.${(track % 10) * 5 + p}"`,
      `order: ${(m + 1) * 10}`,
      `priority: ${PRIORITIES[p]}`,
      `problem: ${q(`The ${svc} service cannot yet ${["deploy and be observed", "serve its main workflows", "be operated by on-call", "absorb ten times the traffic", "pass the external review"][p]}.`)}`,
      `outcome: ${q(`The ${svc} service ${["deploys from main and reports health", "serves its main workflows end to end", "has runbooks, alerts and dashboards", "handles ten times today's peak", "passes the external review with no open high finding"][p]}.`)}`,
      "acceptance_criteria:",
      `  - ${q(`Every issue of the milestone is DONE with its evidence recorded`)}`,
      `  - ${q(`The ${svc} release notes describe the change for support`)}`,
      "validation:",
      `  - pnpm --filter ${svc} test`,
      "evidence_required:",
      "  - suite",
      "  - release_notes",
      mDeps.length ? "depends_on:" : "depends_on: []",
      ...mDeps.map((d) => `  - ${mId(d)}`),
      "created_at: 2026-09-01",
      "updated_at: 2026-10-20",
    ];
    if (p === 0) {
      const at = iso(trackStart + 20 * 86400000);
      lines.push(
        "evidence:",
        "  - covers: suite",
        "    type: ci",
        `    command: pnpm --filter ${svc} test`,
        `    result: "all suites green on main"`,
        `    recorded_at: ${at}`,
        "  - covers: release_notes",
        "    type: artifact",
        `    artifact: docs/releases/${svc}.md`,
        `    recorded_at: ${at}`,
      );
    }
    const mText = lines.join("\n") + "\n";
    writeFileSync(join(project, "milestones", `${mId(m)}.yaml`), mText);
    bytes += mText.length;
    files++;

    for (let i = first(m); i < first(m) + size(m); i++) {
      const k = i - first(m);
      const w = Math.floor(k / WAVE_WIDTH);
      const id = iId(i);

      // Dependencies: one to three issues of the previous local wave; the first wave of a
      // dependent milestone leans on the last wave of a milestone it requires.
      const deps = new Set<number>();
      if (w > 0) {
        const [lo, hi] = waveRange(m, w - 1)!;
        const count = 1 + Math.floor(rnd() * 3);
        for (let c = 0; c < count; c++) deps.add(lo + Math.floor(rnd() * (hi - lo)));
      } else if (mDeps.length > 0 && rnd() < 0.3) {
        const range = lastWaveRange(mDeps[Math.floor(rnd() * mDeps.length)]);
        if (range) deps.add(range[0] + Math.floor(rnd() * (range[1] - range[0])));
      }
      const depIds = [...deps].sort((a, b) => a - b).map(iId);

      // Lifecycle: p0 all done; p1 waves 0-3 done, wave 4 under way.
      let phase = "none";
      if (p === 0) phase = "done";
      else if (p === 1 && w < 4) phase = "done";
      else if (p === 1 && w === 4) phase = k % 3 === 0 ? "verify" : k % 3 === 1 ? "active" : "none";

      const verb = pick(rnd, VERBS);
      const object = pick(rnd, OBJECTS);
      const context = pick(rnd, CONTEXTS);
      const mod = pick(rnd, MODULES);
      const file = kebab(object);
      const title = `${verb} ${object} ${context}`;
      const required = [TOKENS[k % TOKENS.length]];
      if (rnd() < 0.4) required.push(TOKENS[(k + 3) % TOKENS.length]);
      const scope = [
        rnd() < 0.1 ? `services/${svc}/src/${mod}` : `services/${svc}/src/${mod}/${file}.ts`,
        `services/${svc}/test/${mod}/${file}.test.ts`,
      ];
      if (rnd() < 0.15) scope.push(`services/${svc}/src/index.ts`);
      if (rnd() < 0.3) scope.push(`docs/${svc}/${mod}.md`);

      const out = [
        `id: ${id}`,
        `milestone: ${mId(m)}`,
        `title: ${title}`,
        `slug: ${kebab(`${verb} ${object}`)}-${k}`,
        `priority: ${pick(rnd, PRIORITIES)}`,
        `profile: ${pick(rnd, PROFILES)}`,
      ];
      if (rnd() < 0.2) out.push("parallel_safe: false");
      out.push(
        `owner: ${pick(rnd, OWNERS)}`,
        `objective: ${q(`${verb} ${object} ${context} in the ${svc} ${mod} module, keeping the public contract unchanged and the p95 latency of the affected endpoints under 200 ms.`)}`,
        "scope:",
        ...scope.map((s) => `  - ${s}`),
        depIds.length ? "depends_on:" : "depends_on: []",
        ...depIds.map((d) => `  - ${d}`),
        "acceptance_criteria:",
        `  - ${q(`${object[0].toUpperCase()}${object.slice(1)} ${context} behave as specified in docs/${svc}/${mod}.md`)}`,
        `  - ${q(`No regression in the ${svc} integration suite; error rate stays below 0.1% in the canary`)}`,
        "validation:",
        `  - pnpm --filter ${svc} test -- ${mod}/${file}`,
        "evidence_required:",
        ...required.map((t) => `  - ${t}`),
      );

      if (phase !== "none") {
        const base = trackStart + (p === 0 ? 0 : 12 * 86400000) + w * 86400000 + (k % WAVE_WIDTH) * 2700000;
        const moves: [Move, number][] = [["start", base]];
        if (phase === "verify" || phase === "done") moves.push(["verify", base + 5 * 3600000]);
        if (phase === "done") moves.push(["done", base + 6 * 3600000]);
        const unsealed: string[] = [];
        for (const [move, ms] of moves) {
          const stamp = iso(ms);
          const { field } = MOVES[move];
          if (legacy) {
            out.push(`${field}: ${stamp}`);
            unsealed.push(`${field} ${stamp}`);
          } else out.push(...sealedStampLines(move, id, stamp));
          stamps++;
        }
        if (unsealed.length) out.push("unsealed_stamps:", ...unsealed.map((u) => `  - ${u}`));
        out.push("created_at: 2026-09-01", `updated_at: ${iso(moves[moves.length - 1][1])}`);
        if (phase === "done" || phase === "verify") {
          out.push("evidence:");
          const at = iso(moves[moves.length - 1][1] - 600000);
          for (const t of required) {
            out.push(
              `  - covers: ${t}`,
              "    type: test",
              `    command: pnpm --filter ${svc} test -- ${mod}/${file}`,
              `    result: "${20 + (k % 37)} passed, 0 failed"`,
              `    commit: ${createHash("sha1").update(`${id}${t}`).digest("hex")}`,
              `    recorded_at: ${at}`,
            );
          }
        }
      } else {
        out.push("created_at: 2026-09-01", "updated_at: 2026-09-01");
      }
      const text = out.join("\n") + "\n";
      writeFileSync(join(project, "issues", `${id}.yaml`), text);
      bytes += text.length;
      files++;
    }
  }
  return { generator_version: GENERATOR_VERSION, issues: n, milestones: mCount, files, bytes, stamps };
}
