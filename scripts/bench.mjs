#!/usr/bin/env node
// `npm run bench`: performance figures of Cockpit, one section after another. Not a test: it
// prints tables and writes reports/bench-<section>.json, and exits 0 even when a target is
// missed (pass --strict to exit 1 then).
//
//   node scripts/bench.mjs [--only plan[,…]] [--sizes 1000,10000] [--runs N] [--strict]
//
// A section is a module under scripts/bench/ exporting `name`, `description` and
// `run(options) -> { name, text, report, ok }`. Add new sections (transitions, HTTP, …) to SECTIONS.

import * as agents from "./bench/agents.mjs";
import * as code from "./bench/code.mjs";
import * as doors from "./bench/doors.mjs";
import * as following from "./bench/follow.mjs";
import * as http from "./bench/http.mjs";
import * as importing from "./bench/import.mjs";
import * as leases from "./bench/leases.mjs";
import * as lighthouse from "./bench/lighthouse.mjs";
import * as plans from "./bench/plans.mjs";
import * as plan from "./bench/plan.mjs";
import * as time from "./bench/time.mjs";
import * as transitions from "./bench/transitions.mjs";
import * as standup from "./bench/standup.mjs";
import * as waves from "./bench/waves.mjs";

const SECTIONS = [plan, transitions, http, doors, waves, standup, lighthouse, time, code, leases, agents, plans, importing, following];

function parseOptions(argv) {
  const options = { strict: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--only":
        options.only = value().split(",");
        break;
      case "--sizes":
        options.sizes = value()
          .split(",")
          .map((s) => Number(s.replace(/k$/i, "000")));
        break;
      case "--runs":
        options.runs = Number(value());
        break;
      case "--strict":
        options.strict = true;
        break;
      case "-h":
      case "--help":
        process.stdout.write(
          `usage: node scripts/bench.mjs [--only SECTION[,…]] [--sizes N[,…]] [--runs N] [--strict]\nsections:\n${SECTIONS.map((s) => `  ${s.name.padEnd(12)} ${s.description}`).join("\n")}\n`,
        );
        process.exit(0);
      default:
        process.stderr.write(`bench: unknown option '${arg}' (see --help)\n`);
        process.exit(2);
    }
  }
  return options;
}

const options = parseOptions(process.argv.slice(2));
const selected = options.only ? SECTIONS.filter((s) => options.only.includes(s.name)) : SECTIONS;
if (options.only && selected.length !== options.only.length) {
  process.stderr.write(`bench: unknown section in '${options.only.join(",")}'; the sections are ${SECTIONS.map((s) => s.name).join(", ")}\n`);
  process.exit(2);
}

let allOk = true;
for (const section of selected) {
  const result = await section.run(options);
  process.stdout.write(`\n${result.text}\n`);
  allOk &&= result.ok;
}
if (options.strict && !allOk) process.exitCode = 1;
