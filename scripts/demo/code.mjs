// The code: the same repository holds Harbor's code, so the history has branches, commits and
// merges that mention the issues (docs/code-links.md). Code commits touch only src/ and spike/,
// never .ai/, so every plan-derived answer is the same with or without them. Times are in the
// original timeline and never meet a plan commit's.

const code = (lines) => `${lines.join("\n")}\n`;

/**
 * Each branch: its commits ({ at, message, files }), then how it ends: `merge` (a merge commit at
 * that time, the branch kept unless `deleted`), `squash` (one commit on main, the branch gone) or
 * nothing (still open). `remote` puts it under refs/remotes/<remote>/ (a teammate's, fetched).
 */
export const CODE_BRANCHES = [
  {
    name: "bk-005-request-ids",
    author: "tom",
    direct: true,
    commits: [
      {
        at: "2026-10-03T16:07:00Z",
        message: "Log the request id on every API line\n\nRefs: BK-005",
        files: { "src/logging/request-id.ts": code(["export const REQUEST_ID_HEADER = \"x-request-id\";", "export function withRequestId(line: object, id: string) {", "  return { ...line, request_id: id };", "}"]) },
      },
    ],
  },
  {
    name: "bk-022-ics-spike",
    author: "lea",
    commits: [
      { at: "2026-10-07T11:07:00Z", message: "Spike: write one staff member's week as ICS", files: { "spike/ics/export.ts": code(["// One VCALENDAR per staff member, one VEVENT per booking.", "export function toIcs(events: { start: string; end: string; title: string }[]) {", "  return [\"BEGIN:VCALENDAR\", ...events.map((e) => `BEGIN:VEVENT\\nSUMMARY:${e.title}\\nEND:VEVENT`), \"END:VCALENDAR\"].join(\"\\n\");", "}"]) } },
      { at: "2026-10-08T15:42:00Z", message: "Spike: time zones as TZID, not UTC", files: { "spike/ics/NOTES.md": code(["Outlook shows UTC events an hour off after the change: write TZID."]) } },
    ],
  },
  {
    name: "bk-012-working-hours",
    author: "lea",
    squash: { at: "2026-10-20T13:07:00Z", message: "Staff working hours, breaks and time off (BK-012) (#14)" },
    commits: [
      { at: "2026-10-15T10:07:00Z", message: "Working hours per weekday", files: { "src/booking/working-hours.ts": code(["export interface Hours { weekday: number; from: string; to: string }"]) } },
      { at: "2026-10-17T14:07:00Z", message: "Breaks and time off cut the hours", files: { "src/booking/working-hours.ts": code(["export interface Hours { weekday: number; from: string; to: string }", "export interface TimeOff { from: string; to: string; reason: string }"]) } },
    ],
  },
  {
    name: "feature/BK-013-dst-slots",
    author: "priya",
    merge: "2026-11-02T08:47:00Z",
    deleted: true,
    commits: [
      { at: "2026-10-27T10:07:00Z", message: "Slot engine: walk the day in local time", files: { "src/booking/slots.ts": code(["export function slotsOf(day: string, zone: string) {", "  return [] as string[];", "}"]) } },
      { at: "2026-10-29T15:07:00Z", message: "Slot engine: the missing hour has no slots, the repeated one no duplicates", files: { "src/booking/slots.ts": code(["// Slots are made in local time and converted once: a DST change never shifts a booking.", "export function slotsOf(day: string, zone: string) {", "  return [] as string[];", "}"]) } },
      { at: "2026-11-01T11:07:00Z", message: "Tests across the March and October changes", files: { "src/booking/slots.test.ts": code(["// Europe/Lisbon 2026-03-29 and 2026-10-25."]) } },
    ],
  },
  {
    name: "bk-015-signed-links",
    author: "marek",
    merge: "2026-11-04T16:07:00Z",
    commits: [
      { at: "2026-11-04T11:07:00Z", message: "Signed booking links with an expiry", files: { "src/booking/signed-link.ts": code(["export function signLink(bookingId: string, expires: number) {", "  return `${bookingId}.${expires}`;", "}"]) } },
      { at: "2026-11-04T13:37:00Z", message: "Confirm and cancel through the signed link", files: { "src/booking/signed-link.ts": code(["export function signLink(bookingId: string, expires: number) {", "  return `${bookingId}.${expires}`;", "}", "export type LinkAction = \"view\" | \"confirm\" | \"cancel\";"]) } },
      { at: "2026-11-04T15:07:00Z", message: "Reject expired and tampered links", files: { "src/booking/signed-link.test.ts": code(["// An edited expiry fails the signature."]) } },
    ],
  },
  {
    name: "bk-010-roles",
    author: "marek",
    merge: "2026-11-09T08:37:00Z",
    commits: [
      { at: "2026-11-05T14:07:00Z", message: "Roles table: owner, staff, viewer", files: { "src/auth/roles.ts": code(["export type Role = \"owner\" | \"staff\" | \"viewer\";"]) } },
      { at: "2026-11-06T11:07:00Z", message: "Enforce roles on every endpoint", files: { "src/auth/roles.ts": code(["export type Role = \"owner\" | \"staff\" | \"viewer\";", "export const CAN_WRITE: Role[] = [\"owner\", \"staff\"];"]) } },
      { at: "2026-11-07T16:07:00Z", message: "Role matrix test over every route", files: { "src/auth/roles.test.ts": code(["// Every route × every role: 403 unless allowed."]) } },
    ],
  },
  {
    name: "bk-020-ics-feed",
    author: "lea",
    commits: [
      { at: "2026-11-06T10:07:00Z", message: "ICS feed: a private token per staff member", files: { "src/calendar/feed-token.ts": code(["export const FEED_TOKEN_BYTES = 32;"]) } },
      { at: "2026-11-09T10:37:00Z", message: "ICS feed: serve the next 90 days", files: { "src/calendar/feed.ts": code(["export const FEED_DAYS = 90;"]) } },
    ],
  },
  {
    name: "bk-024-postmark",
    remote: "origin",
    author: "marek",
    commits: [
      { at: "2026-11-09T14:07:00Z", message: "Postmark client with retries", files: { "src/email/postmark.ts": code(["export const POSTMARK_RETRIES = 3;"]) } },
      { at: "2026-11-09T15:37:00Z", message: "Versioned templates for the booking emails", files: { "src/email/templates.ts": code(["export const TEMPLATE_VERSION = 1;"]) } },
    ],
  },
];

/** The code on main at the end (what merges and squashes brought): part of examples/demo. */
export function finalMainCode() {
  const files = new Map();
  for (const b of CODE_BRANCHES) {
    if (!(b.direct || b.merge || b.squash)) continue;
    for (const c of b.commits) for (const [path, text] of Object.entries(c.files)) files.set(path, text);
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}
