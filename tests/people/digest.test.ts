import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { EXIT } from "@/lib/surfaces/exit-codes";
import { cleanup, copyRepo } from "../surfaces/helpers";

// The digest of the demo, through the command line's entry function: the day's moves by person,
// the asks waiting on a person and those answered, the findings and the next issue, as text, as
// Markdown and as JSON; --person keeps one person's part.

let repo: string;
beforeAll(() => {
  repo = copyRepo("cockpit-digest-");
  writeFileSync(join(repo, ".gitignore"), ".ai/local/\n");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=Digest Tests", "-c", "user.email=digest@cockpit.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: repo, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-qm", "the demo plan");
});
afterAll(cleanup);

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runPlanCommand([...argv, "--repo", repo], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("cockpit plan digest", () => {
  it("names the day's moves, the asks waiting and answered, the findings and the next issue", async () => {
    const claim = JSON.parse((await cli("claim", "--as", "builder-1", "--json")).out) as { issue: string };
    const waiting = JSON.parse((await cli("ask", "BK-021", "--question", "Which region do we load test from?", "--kind", "choose", "--option", "eu", "--option", "us", "--as", "tom", "--json")).out) as { id: string };
    const settled = JSON.parse((await cli("ask", claim.issue, "--question", "Is the ICS feed private per staff member?", "--kind", "approve", "--as", "builder-1", "--json")).out) as { id: string };
    expect((await cli("answer", settled.id, "--yes", "--comment", "one secret URL each", "--as", "lead")).code).toBe(EXIT.ok);

    const text = await cli("digest", "--since", "HEAD");
    expect(text.code, text.err).toBe(EXIT.ok);
    const lines = text.out.split("\n");
    expect(lines[0]).toMatch(/^Harbor Bookings digest: since HEAD \(\d{4}-\d\d-\d\dT[^)]*\) until now$/);
    expect(lines).toContain("Moves:");
    expect(text.out).toMatch(new RegExp(`\\n  \\w+: started ${claim.issue} `));
    expect(lines).toContain("Asks waiting on a person (1):");
    // The ask's age is the seconds since it was asked: 0 or a few on a loaded machine.
    expect(text.out).toMatch(new RegExp(`\\n  BK-021 tom, \\d s ago \\(choose, ${waiting.id}\\): Which region do we load test from\\?`));
    expect(lines).toContain("Asks answered:");
    expect(text.out).toContain(`  ${claim.issue} Is the ICS feed private per staff member? → yes (one secret URL each) (lead)`);
    expect(text.out).toMatch(/\nFindings \(\d+\):\n {2}code WARN stalled BK-/);
    expect(text.out).toMatch(/\nPlan:\n {2}next: BK-\d+ \(was /);
    // A message to post: never wrapped to a terminal's width.
    expect(lines.some((l) => l.length > 100)).toBe(true);

    const markdown = await cli("digest", "--since", "HEAD", "--format", "markdown");
    expect(markdown.out.split("\n")[0]).toMatch(/^\*\*Harbor Bookings digest: since HEAD/);
    expect(markdown.out).toMatch(/\n### Asks waiting on a person \(1\)\n- BK-021 tom, \d s ago \(choose, /);
    const json = JSON.parse((await cli("digest", "--since", "HEAD", "--format", "json")).out) as { subject: string; sections: { heading: string }[]; text: string; markdown: string };
    expect(json.sections.map((s) => s.heading)).toEqual(expect.arrayContaining(["Moves", "Asks waiting on a person (1)", "Asks answered", "Plan"]));
    // Three calls, so an ask's age may have grown by a second between them.
    const aged = (t: string) => t.replace(/\b\d+ s ago\b/g, "N s ago");
    expect(aged(json.text)).toBe(aged(text.out));
    expect(aged(json.markdown)).toBe(aged(markdown.out));

    const tom = await cli("digest", "--since", "HEAD", "--person", "tom");
    expect(tom.out.split("\n")[0]).toContain("digest for tom:");
    expect(tom.out).toContain(`(choose, ${waiting.id})`);
    expect(tom.out).not.toContain(settled.id);
    expect(tom.out).not.toContain("Findings");
    // The words a scheduled job says: yesterday is the default window, today is since midnight (UTC).
    const yesterday = await cli("digest", "--since", "yesterday", "--format", "json");
    const byDefault = await cli("digest", "--format", "json");
    expect(yesterday.code, yesterday.err).toBe(EXIT.ok);
    expect((JSON.parse(yesterday.out) as { subject: string }).subject).toBe((JSON.parse(byDefault.out) as { subject: string }).subject);
    expect((await cli("digest", "--since", "today")).out.split("\n")[0]).toMatch(/since \d{4}-\d\d-\d\d/);
    const bad = await cli("digest", "--format", "html");
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain("--format is text, markdown or json, not 'html'");
  });
});
