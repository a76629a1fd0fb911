/** The pages of the Cockpit, as the main navigation, the command palette and the `g` shortcuts list them. */
export const PAGES = [
  { href: "/", label: "Overview", key: "o" },
  { href: "/roadmap", label: "Roadmap", key: "r" },
  { href: "/waves", label: "Waves", key: "w" },
  { href: "/issues", label: "Issues", key: "t" },
  { href: "/board", label: "Board", key: "b" },
  { href: "/findings", label: "Findings", key: "f" },
  { href: "/standup", label: "Standup", key: "s" },
  { href: "/people", label: "People", key: "p" },
  { href: "/inbox", label: "Inbox", key: "i" },
  { href: "/agents", label: "Agents", key: "a" },
  { href: "/activity", label: "Activity", key: "y" },
  { href: "/plans", label: "Plans", key: "e" },
] as const;

/** Whether a key press belongs to a text field (or an editable element), where shortcuts stay out. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== "string") return false;
  return el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable;
}

/** How long `g` waits for the page's letter. */
export const CHORD_MS = 1500;

/** The keys that act on an issue page, as the `?` list shows them. */
export const ISSUE_KEYS: readonly [string, string][] = [
  ["s", "start the issue (after its confirmation)"],
  ["v", "send it to verify (after its confirmation)"],
  ["d", "mark it done (after its confirmation)"],
  ["e", "edit a field: pick it, then the editor opens on it"],
];
