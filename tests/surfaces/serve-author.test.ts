import { describe, expect, it } from "vitest";
import { UsageError } from "@/lib/surfaces/cli/args";
import { parseServeArgs, serveEnv } from "@/lib/server/serve";

/** An empty environment (NODE_ENV is declared required by the app's types). */
const ENV = {} as NodeJS.ProcessEnv;

describe("cockpit serve --author", () => {
  it("is handed to the server as COCKPIT_AUTHOR, the author of plan.commit's commits", () => {
    const options = parseServeArgs(["--author", "Lead Person <lead@example.com>"], ENV);
    expect(options.author).toBe("Lead Person <lead@example.com>");
    expect(serveEnv(options, ENV).COCKPIT_AUTHOR).toBe("Lead Person <lead@example.com>");
    expect(serveEnv(parseServeArgs([], ENV), ENV).COCKPIT_AUTHOR).toBe("");
  });

  it("refuses an author that is not 'Name <email>'", () => {
    expect(() => parseServeArgs(["--author", "just a name"], ENV)).toThrow(UsageError);
    expect(() => parseServeArgs(["--author", "just a name"], ENV)).toThrow(/--author takes 'Name <email>'/);
  });
});
