import { resolveConfig, type CockpitConfig } from "../config";
import type { z } from "zod";
import type { RecordCache } from "../repo/load";
import type { Plan } from "../plan/shapes";
import type { WriteOptions } from "../repo/transition";
import type { SyncStatus } from "../repo/sync-shapes";

/** What a handler runs against: one repository, its plan derived from the files as they are now. */
export interface CapabilityContext {
  /** The repository root (the folder that holds `.ai/`). */
  repo: string;
  /** The plan as the files say now (parsed files may be cached, derived answers never outlive a change). */
  plan(): Plan;
  /** Who acts, for the ledger and a following server's commit: the surface's actor, else the repository's git identity (lib/repo/identity.ts). */
  by?: string;
  /** The actor's address when known (git's user.email, the users file): a following server's commit author. */
  email?: string;
  /** The actor's kind when the surface knows it (a users file's agent, an MCP client's session name): docs/agents.md. */
  kind?: "agent" | "person";
  /** The agents the surface knows by name (a users file's); the sessions' store knows the others. */
  knownAgents?: () => ReadonlySet<string>;
  /** The parsed files a long-running surface keeps (writes re-read what changed through it). */
  cache?: RecordCache;
  /** Awaited before a query (the surfaces call it): fetches what is laid over the plan (leases). */
  prepare?: () => Promise<void>;
  /** Told after every command (the surfaces call it): what the plan was read from may have changed. */
  wrote?: () => void;
  /** What a long-running surface lends the plan's commands: its derivation, its records as its watchers know them. */
  moves?: Pick<WriteOptions, "derive" | "current" | "written" | "before" | "derived">;
  /** How the clone follows its remote (plan.sync_status), lent by the surface that serves it. */
  sync?: () => Promise<SyncStatus>;
  /** Aborted when the caller went away (an HTTP request closed): a long wait (plan.wait) ends early. */
  signal?: AbortSignal;
  /** What the surface was started with (lib/config.ts): the database, the commits' author. Absent: the environment's. */
  config?: CockpitConfig;
}

/** The context's configuration, else the environment's (a caller that was started with none). */
export function configOf(ctx: Pick<CapabilityContext, "config">): CockpitConfig {
  return ctx.config ?? resolveConfig();
}

export type CapabilityKind = "query" | "command";

/**
 * One capability, declared once: every surface (HTTP, MCP, server action, command line) is a
 * projection of this declaration.
 */
export interface Capability<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, Id extends string = string> {
  /** Kept as its literal type, so a caller that can name a capability only by id still gets its types (`OutputOf`). */
  id: Id;
  kind: CapabilityKind;
  title: string;
  /** For the caller, at most two sentences: an agent pays for every word. */
  description: string;
  /** Strict: unknown fields are refused. */
  input: I;
  output: O;
  handler(ctx: CapabilityContext, input: z.infer<I>): z.infer<O> | Promise<z.infer<O>>;
  /**
   * How a following server (cockpit serve --follow) publishes a command: by default its commit is
   * pushed before it is answered, once. `retry`: how many times in all it runs when the remote
   * changed its record first (a claim then takes the next ready issue); false: the command commits
   * and pushes by itself (plan.commit), so the server adds no commit of its own.
   */
  publish?: { retry: number } | false;
  /**
   * false for a command that writes coordination state alone (a session, an ask) and never a record
   * file: a following server has nothing to commit for it, and a serving process need not look at
   * the files again after it.
   */
  records?: false;
  /**
   * false for a command answered from the coordination store alone, whose handler reads the plan
   * only to name what it refuses: a serving process need not first let pending file events be
   * handled (a heartbeat, an agent's most frequent call, answers a turn of the event loop sooner).
   */
  settles?: false;
  /**
   * The version of what a query answered about, kept outside its answer (HTTP `ETag`, MCP
   * `_meta["cockpit/version"]`): a later edit carries it back to refuse a lost update.
   */
  version?(ctx: CapabilityContext, input: z.infer<I>): string | undefined;
}

export function defineCapability<I extends z.ZodType, O extends z.ZodType, const Id extends string>(c: Capability<I, O, Id>): Capability<I, O, Id> {
  return c;
}

export type AnyCapability = Capability<z.ZodType, z.ZodType>;

export type { RecordCache };
