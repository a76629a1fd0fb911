// One claimant of tests/execution-claim-race.test.ts, run as its own node process (the test bundles
// it with esbuild; `node --import tsx tests/helpers/execution-claim-worker.ts <repo> <root>` works too).
// It loads the coordinator and opens the store, prints "ready", waits for a line on stdin, claims
// once, prints the result as one JSON line and exits.
import { claimNext } from "../../lib/execution/coordinator";
import { openStore } from "../../lib/execution/store";

const [repo, rootId] = process.argv.slice(2);
void openStore(repo).then(() => process.stdout.write("ready\n"));
process.stdin.once("data", async () => {
  try {
    const r = await claimNext(repo, rootId);
    process.stdout.write(JSON.stringify({ pid: process.pid, claimed: r.claimed?.plan_id ?? null, issue: r.claimed?.issue ?? null, reason: r.reason }) + "\n");
    process.exit(0);
  } catch (error) {
    process.stdout.write(JSON.stringify({ pid: process.pid, error: error instanceof Error ? error.message : String(error) }) + "\n");
    process.exit(1);
  }
});
