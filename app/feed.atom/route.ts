import { feedResponse } from "@/lib/surfaces/feeds";

export const dynamic = "force-dynamic";

/** The plan's Atom feed: every issue's moves, what became READY, the asks and their answers. */
export function GET(request: Request) {
  return feedResponse(request);
}
