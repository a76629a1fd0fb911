import { runPlansCommand } from "./plans";
import { runAsProcess } from "../process-main";

// The `cockpit plans` process (its own bundle: the plan verbs start without SQLite).
runAsProcess("cockpit plans", (io) => runPlansCommand(process.argv.slice(3), io));
