// `npm run demo`: Cockpit on the bundled demo plan. The plan is written to .demo/repo as a git
// repository of its own with six weeks of history ending yesterday (scripts/demo-history.mjs), so
// whatever you do to it never changes the checkout, and the standup and burn-up have a past.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeDemoHistory } from "./demo-history.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const repo = join(root, ".demo", "repo");
const fresh = process.argv.includes("--fresh");
const cockpit = join(root, "bin", "cockpit");

function sh(command, args, cwd = root) {
  const r = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync(join(root, "dist", "cli.js"))) sh("npm", ["run", "--silent", "build:cli"]);
if (fresh) rmSync(repo, { recursive: true, force: true });
if (!existsSync(repo)) {
  const { commits } = writeDemoHistory(repo);
  console.log(`demo plan written to ${repo}: ${commits} commits over six weeks, the last one yesterday`);
} else {
  console.log(`demo plan at ${repo} (run with --fresh to start over)`);
}

const rest = process.argv.slice(2).filter((a) => a !== "--fresh");
sh(process.execPath, [cockpit, "serve", "--repo", repo, ...rest]);
