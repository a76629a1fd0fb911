import { formatViewport, parseViewport, type Viewport } from "./viewport";

// The view of /waves as the URL carries it, so that a copied link opens the same view. A
// parameter left out means its default; the default milestone is the plan's active one.

export interface WavesView {
  /** The milestone in focus; null for every milestone. */
  milestone: string | null;
  /** The statuses shown; null for all. */
  statuses: string[] | null;
  /** Lanes by milestone (true, the default) or none. */
  groupByMilestone: boolean;
  /** Fold finished issues into chips (the default). */
  fold: boolean;
  /** Chips opened (chipKey). */
  open: string[];
  /** Lanes collapsed; null for the default (see defaultCollapsedLanes). */
  collapsed: string[] | null;
  /** Draw the critical path (the default). */
  critical: boolean;
  /** The search box. */
  q: string;
  /** The selected issue. */
  issue: string | null;
  /** Where the graph was panned and zoomed to; null for the first view. */
  viewport: Viewport | null;
}

/** The URL parameters, in the order they are written. */
export const VIEW_PARAMS = ["milestone", "status", "group", "fold", "open", "collapsed", "critical", "q", "issue", "v"] as const;

const list = (text: string) => text.split(",").filter((s) => s !== "");

/** Read the view from the URL's parameters; `active` is the milestone shown when none is named. */
export function parseWavesView(params: URLSearchParams, active: string | null): WavesView {
  const milestone = params.get("milestone");
  const status = params.get("status");
  const collapsed = params.get("collapsed");
  return {
    milestone: milestone === null ? active : milestone === "all" ? null : milestone,
    statuses: status === null || status === "all" ? null : list(status),
    groupByMilestone: params.get("group") !== "none",
    fold: params.get("fold") !== "off",
    open: list(params.get("open") ?? ""),
    collapsed: collapsed === null ? null : list(collapsed),
    critical: params.get("critical") !== "off",
    q: params.get("q") ?? "",
    issue: params.get("issue") || null,
    viewport: parseViewport(params.get("v")) ?? null,
  };
}

/** The query string (without `?`) that carries `view`; defaults are left out. */
export function formatWavesView(view: WavesView, active: string | null): string {
  const out = new URLSearchParams();
  if (view.milestone !== active) out.set("milestone", view.milestone ?? "all");
  if (view.statuses !== null) out.set("status", view.statuses.join(","));
  if (!view.groupByMilestone) out.set("group", "none");
  if (!view.fold) out.set("fold", "off");
  if (view.open.length) out.set("open", view.open.join(","));
  if (view.collapsed !== null) out.set("collapsed", view.collapsed.join(","));
  if (!view.critical) out.set("critical", "off");
  if (view.q) out.set("q", view.q);
  if (view.issue) out.set("issue", view.issue);
  if (view.viewport) out.set("v", formatViewport(view.viewport));
  return out.toString();
}
