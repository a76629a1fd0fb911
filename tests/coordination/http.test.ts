import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt, spawnCli } from "../support/processes";
import { cleanupRepos } from "../support/repo";
import { cleanup, ensureBuild, freePort, startServer, type RunningServer } from "../surfaces/helpers";
import { startPostgres, type PgServer } from "../support/postgres-server";
import { actorOfClone, cloneOf, holderIdOf, makeOrigin } from "./clones";

// The served Cockpit on a shared database: the API and the pages show leases, a start held
// elsewhere is HTTP 422, and a database that cannot be reached is 422 for commands only.

let pgServer: PgServer;
let dist: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  ensureCliBuilt();
  [pgServer, dist] = await Promise.all([startPostgres(), ensureBuild()]);
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await pgServer?.stop();
  cleanup();
  cleanupRepos();
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the served Cockpit on a shared database", () => {
  it("shows the lease in the API and on the pages, and refuses a start held by another clone with 422", async () => {
    pgServer.createDatabase("http");
    const url = pgServer.urlFor("http");
    const origin = makeOrigin(3);
    const [a, b] = [cloneOf(origin, "a"), cloneOf(origin, "b")];
    expect((await spawnCli(["start", "I0001", "--repo", a], { env: { COCKPIT_DATABASE_URL: url } })).code).toBe(0);
    const holder = actorOfClone(a);

    const served = await startServer(dist, b, { COCKPIT_DATABASE_URL: url });
    servers.push(served);
    const issues = (await (await fetch(`${served.url}/api/v1/plan/issues`)).json()) as { issues: { id: string; status: string; lease?: { holder: string; since: string } }[] };
    const leased = issues.issues.find((i) => i.id === "I0001")!;
    expect(leased.status).toBe("READY");
    expect(leased.lease!.holder).toBe(holder);
    expect(issues.issues.filter((i) => i.lease).length).toBe(1);

    const start = await post(`${served.url}/api/v1/plan/transition`, { issue: "I0001", transition: "start" });
    expect(start.status).toBe(422);
    expect(JSON.stringify(await start.json())).toMatch(new RegExp(`I0001 is held by ${holder} \\(session s-[0-9a-f]{12}, epoch 1\\) since ${leased.lease!.since}`));

    const page = await (await fetch(`${served.url}/issues/I0001`)).text();
    expect(page).toContain('data-testid="lease"');
    expect(page).toContain(holder);
    expect(page).toContain(leased.lease!.since);
    const free = await (await fetch(`${served.url}/issues/I0002`)).text();
    expect(free).not.toContain('data-testid="lease"');
    const milestone = await (await fetch(`${served.url}/milestones/M1`)).text();
    expect(milestone.match(/data-testid="lease"/g)?.length).toBe(1);
  }, 120_000);

  it("plan.create over HTTP reserves its id: an id another clone reserved is 422 naming it, a minted one goes past it", async () => {
    pgServer.createDatabase("http_ids");
    const url = pgServer.urlFor("http_ids");
    const origin = makeOrigin(2);
    const [a, b] = [cloneOf(origin, "a"), cloneOf(origin, "b")];
    const criteria = { acceptance_criteria: ["ok"], validation: ["true"] };
    const inA = await spawnCli(["new", "issue", "--milestone", "M1", "--title", "Made in a", "--add", "acceptance_criteria=ok", "--add", "validation=true", "--json", "--repo", a], {
      env: { COCKPIT_DATABASE_URL: url },
    });
    expect(JSON.parse(inA.stdout).id).toBe("I0003");

    const served = await startServer(dist, b, { COCKPIT_DATABASE_URL: url });
    servers.push(served);
    const clash = await post(`${served.url}/api/v1/plan/create`, { kind: "issue", id: "I0003", milestone: "M1", title: "Made in b", add: criteria });
    expect(clash.status).toBe(422);
    expect(JSON.stringify(await clash.json())).toContain(`'I0003' is reserved by ${holderIdOf(a)}`);
    const minted = await post(`${served.url}/api/v1/plan/create`, { kind: "issue", milestone: "M1", title: "Made in b", add: criteria });
    expect(minted.status).toBe(200);
    expect(((await minted.json()) as { id: string }).id).toBe("I0004");
  }, 120_000);

  it("a database that cannot be reached: reads answer from the files, commands are 422 naming the URL without its password", async () => {
    const origin = makeOrigin(2);
    const clone = cloneOf(origin, "a");
    const url = `postgres://cockpit:hunter2@127.0.0.1:${await freePort()}/plan`;
    const served = await startServer(dist, clone, { COCKPIT_DATABASE_URL: url });
    servers.push(served);
    const issues = await fetch(`${served.url}/api/v1/plan/issues`);
    expect(issues.status).toBe(200);
    const body = (await issues.json()) as { issues: Record<string, unknown>[] };
    expect(body.issues.map((i) => i.status)).toEqual(["READY", "READY"]);
    expect(body.issues.every((i) => !("lease" in i))).toBe(true);
    const start = await post(`${served.url}/api/v1/plan/transition`, { issue: "I0001", transition: "start" });
    expect(start.status).toBe(422);
    const text = JSON.stringify(await start.json());
    expect(text).toContain("postgres://cockpit:***@127.0.0.1:");
    expect(text).not.toContain("hunter2");
    expect(served.log()).not.toContain("hunter2");
  }, 120_000);
});
