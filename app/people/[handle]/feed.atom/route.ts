import { feedResponse } from "@/lib/surfaces/feeds";

export const dynamic = "force-dynamic";

/** One person's Atom feed: the moves of what they own, what became READY for them, what they asked and were asked. */
export async function GET(request: Request, { params }: { params: Promise<{ handle: string }> }) {
  return feedResponse(request, decodeURIComponent((await params).handle));
}
