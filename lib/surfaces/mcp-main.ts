import { runMcpStdio } from "./mcp-stdio";

runMcpStdio(process.argv.slice(3)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cockpit mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 13;
  },
);
