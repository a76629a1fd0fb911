import NextLink from "next/link";
import type { ComponentProps } from "react";

// The Cockpit's links. None is prefetched: every page is rendered from the files on the server,
// and a page lists hundreds of links (a standup every change, the issue list thousands, the header
// every page), so prefetching made each page view tens of server renders at once. A click renders
// the one page asked for.
export default function Link(props: Omit<ComponentProps<typeof NextLink>, "prefetch">) {
  return <NextLink {...props} prefetch={false} />;
}
