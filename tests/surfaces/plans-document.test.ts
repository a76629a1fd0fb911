// The execution plans' answers held to the OpenAPI document (ajv): create, get, list, claim,
// execute (advance), a transient failure and its retry, a tick; each a real call on a git copy of
// the demo, and each answer checked against its operation's 200 schema.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";
import { findCapability, httpMethod, httpPath } from "@/lib/capabilities/index";
import { contextFor } from "@/lib/server/state";
import { invoke } from "@/lib/surfaces/invoke";
import { MILESTONE } from "../helpers/notifications-plan";
import { type OpenApiDocument, answersValidator } from "../support/openapi-check";
import { cleanupRepos, demoGitCopy } from "../support/repo";

let repo: string;
let check: ReturnType<typeof answersValidator>;

beforeAll(async () => {
  repo = demoGitCopy("cockpit-plans-document-");
  check = answersValidator((await GET().json()) as OpenApiDocument);
});
afterAll(cleanupRepos);

/** One call, as every surface makes it; its answer must fit the document. */
async function call<T>(id: string, input: Record<string, unknown>): Promise<T> {
  const c = findCapability(id)!;
  const r = await invoke(c, contextFor(repo), input);
  if (!r.ok) throw new Error(`${id}: ${r.error.code}: ${r.error.message}`);
  expect(check(httpPath(c), httpMethod(c), 200, r.value), id).toEqual([]);
  return r.value as T;
}

describe("every execution-plan answer fits the document's named schemas", () => {
  it("create, get, list, claim, execute, fail (retried), tick", async () => {
    const created = await call<{ plan_id: string; children: { plan_id: string }[] }>("plans.create", { milestone: MILESTONE });
    expect(created.children.length).toBeGreaterThan(0);
    await call("plans.get", { id: created.plan_id });
    await call("plans.get", { id: created.children[0].plan_id });
    await call("plans.list", {});
    const claim = await call<{ claimed: { plan_id: string } | null }>("plans.claim", { root: created.plan_id });
    expect(claim.claimed).not.toBeNull();
    const executed = await call<{ moved: boolean }>("plans.advance", { child: claim.claimed!.plan_id, to: "execute" });
    expect(executed.moved).toBe(true);
    const failed = await call<{ retry: unknown }>("plans.fail", { child: claim.claimed!.plan_id, category: "transient", message: "the network blinked" });
    expect(failed.retry).not.toBeNull();
    await call("plans.tick", {});
    // The claim when none can run: claimed null, with the reason.
    await call("plans.claim", { root: created.plan_id });
  });

  it("the checks can fail: a plan view without its phase does not fit", () => {
    expect(check("/api/v1/plans/get", "GET", 200, { plan_id: "x" }).length).toBeGreaterThan(0);
  });
});
