// One coordinator of tests/coordination/plans.test.ts, run as its own node process in its own clone
// (the test bundles it with esbuild). It drives `lanes` children at a time: claim, run (a short
// wait), execute, apply, complete; a lane that finds nothing to claim waits and asks again, until
// the plan has ended. It prints the issues it ran as one JSON line.
import { closeDatabases } from "../../lib/coordination/database";
import { advance, claimNext, complete } from "../../lib/execution/coordinator";

const [repo, rootId, lanesArg] = process.argv.slice(2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PROOF = [{ covers: "proof", type: "test", command: "npm test" }];

async function lane(ran: string[]): Promise<void> {
  for (;;) {
    const { claimed, reason } = await claimNext(repo, rootId);
    if (!claimed) {
      if (/has ended/.test(reason)) return;
      await sleep(20);
      continue;
    }
    ran.push(claimed.issue!);
    await sleep(30 + Math.floor(Math.random() * 70));
    await advance(repo, claimed.plan_id, "execute");
    await advance(repo, claimed.plan_id, "apply");
    await complete(repo, claimed.plan_id, PROOF);
  }
}

async function main(): Promise<void> {
  const ran: string[] = [];
  await Promise.all(Array.from({ length: Number(lanesArg) }, () => lane(ran)));
  process.stdout.write(JSON.stringify({ pid: process.pid, ran }) + "\n");
  await closeDatabases();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
