import Link from "@/components/Link";
import { IssueLink } from "@/components/IssueLink";
import { planInboxCapability } from "@/lib/capabilities/plan-inbox";
import { ageWords } from "@/lib/coordination/asks";
import { call } from "@/lib/surfaces/pages";

/** An ask open longer than this has waited a working day on a person. */
export const LONG_ASK_S = 8 * 3600;

/** The standup's asks that waited longer than a working day (docs/inbox.md): said out loud, so someone answers them. Nothing when there are none. */
export async function LongAsks() {
  let asks;
  try {
    asks = (await call(planInboxCapability)).asks.filter((a) => a.state === "open" && a.age_s > LONG_ASK_S);
  } catch {
    return null;
  }
  if (asks.length === 0) return null;
  return (
    <section className="rounded border border-amber-500 bg-amber-50 p-3 text-sm dark:border-amber-600 dark:bg-amber-950" data-testid="standup-long-asks">
      <h2 className="font-semibold">
        {asks.length} ask{asks.length === 1 ? "" : "s"} waiting on a person for over a working day
      </h2>
      <ul className="mt-1 flex flex-col gap-1">
        {asks.map((a) => (
          <li key={a.id} className="flex flex-wrap items-baseline gap-x-2">
            <IssueLink id={a.issue} />
            <span>
              {a.asker}, {ageWords(a)} ago:
            </span>
            <span className="break-words">{a.question}</span>
          </li>
        ))}
      </ul>
      <Link href="/inbox" className="mt-1 inline-block text-blue-700 underline dark:text-blue-300">
        Answer them in the inbox
      </Link>
    </section>
  );
}
