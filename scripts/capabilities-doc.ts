// `npm run docs:capabilities`: write docs/capabilities.md from the registry.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { capabilitiesMarkdown } from "../lib/surfaces/capabilities-doc";

writeFileSync(join(__dirname, "..", "docs", "capabilities.md"), capabilitiesMarkdown());
