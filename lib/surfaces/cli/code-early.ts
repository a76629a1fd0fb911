import { readCommitGraphEarly } from "../../code/read-graph";
import { earlyRepo } from "./code-early-args";

// `cockpit plan code` reads the whole commit graph the first time, git processes that run for a
// while; `next` and `claim` read it for their code findings. bin/cockpit loads this small bundle
// first, so git starts reading at once, on a core of its own, while the command's own code is still
// loading; the command's read then waits for this one and asks git only for what it left (the
// graph is kept process-wide).

const repo = process.argv[2] === "plan" ? earlyRepo(process.argv[3] ?? "", process.argv.slice(4), process.cwd()) : undefined;
if (repo !== undefined) readCommitGraphEarly(repo);
