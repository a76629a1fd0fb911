import type { OptionKind } from "../surfaces/cli/args";

// The options of `cockpit serve`, apart from the server, so that `cockpit`'s own help (which lists
// serve's usage) loads them without the server.

/** The options of `cockpit serve` (docs/cli.md lists them from here). */
export const SERVE_OPTIONS = {
  repo: "value",
  port: "value",
  host: "value",
  users: "value",
  "allowed-host": "values",
  "trust-proxy": "flag",
  "build-only": "flag",
  database: "value",
  author: "value",
  "default-branch": "value",
  follow: "flag",
  "follow-interval": "value",
  "lease-ttl": "value",
  "stale-after": "value",
  "notify-url": "values",
  "ask-escalate-after": "value",
} as const satisfies Record<string, OptionKind>;

/** What each option of `cockpit serve` does (its --help and docs/cli.md): a new option does not compile until it is described here. */
export const SERVE_HELP: Record<keyof typeof SERVE_OPTIONS, string> = {
  repo: "the repository to serve (default: the current folder)",
  port: "the port (default: `PORT`, else 3000)",
  host: "the address to listen on (default 127.0.0.1); beyond loopback `COCKPIT_TOKEN` or `--users` is required",
  users: "the users file: people and agents by name (default: `COCKPIT_USERS`)",
  "allowed-host": "one more host name the server answers to (`.example.com`: its subdomains too); give it once per name",
  "trust-proxy": "believe a reverse proxy's `X-Forwarded-*` headers",
  "build-only": "build the web app when its sources changed, then exit",
  database: "the shared PostgreSQL (default: `COCKPIT_DATABASE_URL`)",
  author: "`Name <email>`: the author of the commits `cockpit plan commit` makes (default: `COCKPIT_AUTHOR`, else git's config)",
  "default-branch": "the branch `cockpit plan code` measures merges on (default: `COCKPIT_DEFAULT_BRANCH`, else origin/HEAD's, else HEAD's)",
  follow: "follow the remote: `--follow [REMOTE/BRANCH]` (default: the branch's upstream, else origin/<branch>); each command is a commit pushed there ([team-server.md](team-server.md))",
  "follow-interval": "seconds between two fetches while following (default 60, at least 2)",
  "lease-ttl": "seconds a session's lease lives after its last word: a heartbeat, evidence (default: `COCKPIT_LEASE_TTL_S`, else 1800)",
  "stale-after": "seconds a session may be silent before it is stale (default: `COCKPIT_STALE_AFTER_S`, else 300)",
  "notify-url": "POST each event (an ask opened, answered or waiting too long, a session gone stale or expired, an issue READY, an owner changed, a milestone DONE, a code finding) to this http(s) URL; give it once per receiver (also `COCKPIT_NOTIFY_URLS`; [inbox.md](inbox.md#webhooks))",
  "ask-escalate-after": "how long an ask waits before `ask.escalated` is sent: seconds, or with m or h (default 4h; also `COCKPIT_ASK_ESCALATE_AFTER_S`)",
};

/** How each option reads in the usage line of `cockpit --help` and docs/cli.md; "" leaves it out. */
const SERVE_USAGE: Record<keyof typeof SERVE_OPTIONS, string> = {
  repo: "[--repo DIR]",
  port: "[--port P]",
  host: "[--host H]",
  users: "[--users FILE]",
  "allowed-host": "[--allowed-host NAME]…",
  "trust-proxy": "[--trust-proxy]",
  "build-only": "",
  database: "[--database URL]",
  author: "[--author 'NAME <EMAIL>']",
  "default-branch": "[--default-branch B]",
  follow: "[--follow [REMOTE/BRANCH]]",
  "follow-interval": "[--follow-interval S]",
  "lease-ttl": "[--lease-ttl S]",
  "stale-after": "[--stale-after S]",
  "notify-url": "[--notify-url URL]…",
  "ask-escalate-after": "[--ask-escalate-after 4h]",
};

/** `serve` and its options, as `cockpit`'s list of commands shows them. */
export const SERVE_USAGE_LINE = ["serve", ...Object.values(SERVE_USAGE).filter(Boolean)].join(" ");
