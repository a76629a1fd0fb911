import type { z } from "zod";
import type { AnyCapability, Capability, CapabilityContext } from "../capabilities/capability";
import { CapabilityError, type ErrorCode } from "../plan/errors";
import { describeInputError } from "../plan/input-words";
import { ioSettled } from "../server/state";
import { runOnce } from "../server/idempotency";
import { resolveActor } from "../repo/identity";
import { followerOf, publishCommand, syncStatus } from "../server/follow";

export type Invocation<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; error: { code: ErrorCode; message: string; details?: Record<string, unknown> } };

/**
 * Run one capability on one input: validate strictly, call the handler, and turn every failure
 * into a code and a message. Unknown failures are `internal`: logged here, never shown.
 */
export async function invoke<I extends z.ZodType, O extends z.ZodType>(capability: Capability<I, O>, ctx: CapabilityContext, input: unknown): Promise<Invocation<z.infer<O>>> {
  // A plan served from memory is as fresh as the last file event handled: handle those first.
  if (capability.settles !== false) await ioSettled();
  const parsed = capability.input.safeParse(input ?? {});
  if (!parsed.success) {
    return { ok: false, error: { code: "invalid_input", message: describeInputError(parsed.error) } };
  }
  // A command nobody named is the clone's: signed with the repository's git identity (never the program's name).
  if (capability.kind === "command" && ctx.by === undefined) {
    const actor = await resolveActor(ctx.repo);
    ctx = { ...ctx, by: actor.name, email: actor.email };
  }
  const key = capability.kind === "command" ? (parsed.data as { idempotency_key?: unknown }).idempotency_key : undefined;
  if (typeof key !== "string") return (await run(capability as unknown as AnyCapability, ctx, parsed.data)) as Invocation<z.infer<O>>;
  const { idempotency_key: _, ...request } = parsed.data as Record<string, unknown>;
  const once = runOnce(`${ctx.repo}\0${ctx.by ?? ""}\0${capability.id}\0${key}`, JSON.stringify(request), () => run(capability as unknown as AnyCapability, ctx, parsed.data));
  if ("reused" in once) {
    return { ok: false, error: { code: "invalid_input", message: `idempotency_key '${key}' was already used for a different request; give each new move a new key` } };
  }
  // run() answers what the handler answered, which its declaration types as the output schema.
  return (await once) as Invocation<z.infer<O>>;
}

async function run(capability: AnyCapability, ctx: CapabilityContext, data: unknown): Promise<Invocation> {
  try {
    if (capability.kind === "query") await ctx.prepare?.();
    // Every surface lends the capabilities how this process follows its remote (plan.sync_status).
    const lent: CapabilityContext = ctx.sync ? ctx : { ...ctx, sync: () => syncStatus(ctx.repo) };
    const handle = async () => capability.handler(lent, data);
    // A following server commits and pushes what a command wrote before answering (lib/server/follow.ts).
    const follows = capability.kind === "command" && capability.publish !== false && capability.records !== false && followerOf(ctx.repo);
    const tries = capability.publish ? capability.publish.retry : 1;
    return { ok: true, value: follows ? await publishCommand(ctx.repo, { tries, by: ctx.by, email: ctx.email, config: ctx.config }, handle) : await handle() };
  } catch (error) {
    if (error instanceof CapabilityError) {
      return { ok: false, error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
    }
    console.error(`[cockpit] ${capability.id} failed:`, error);
    return { ok: false, error: { code: "internal", message: "internal error; the server log has the details" } };
  } finally {
    // A refused command writes nothing, but a failed one may have written part of its work.
    if (capability.kind === "command" && capability.records !== false) ctx.wrote?.();
  }
}
