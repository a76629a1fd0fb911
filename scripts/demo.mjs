// `npm run demo`: Cockpit on the bundled demo plan. The plan is copied to .demo/repo (a git
// repository of its own), so whatever you do to it never changes the checkout.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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
  cpSync(join(root, "examples", "demo"), repo, { recursive: true });
  const git = (...args) => spawnSync("git", args, { cwd: repo, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=Cockpit demo", "-c", "user.email=demo@cockpit.invalid", "commit", "-qm", "The demo plan");
  console.log(`demo plan copied to ${repo}`);
} else {
  console.log(`demo plan at ${repo} (run with --fresh to start over)`);
}

const rest = process.argv.slice(2).filter((a) => a !== "--fresh");
if (existsSync(join(root, "lib", "surfaces", "serve.ts"))) {
  sh(process.execPath, [cockpit, "serve", "--repo", repo, ...rest]);
} else {
  for (const verb of ["status", "roadmap", "next"]) {
    console.log(`\n$ cockpit plan ${verb} --repo .demo/repo`);
    sh(process.execPath, [cockpit, "plan", verb, "--repo", repo]);
  }
}
