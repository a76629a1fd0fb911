import { main } from "./plan";
import { runAsProcess } from "../process-main";

// The `cockpit` process.
runAsProcess("cockpit", (io) => main(process.argv.slice(2), io));
