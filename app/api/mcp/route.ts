import { handleMcpRequest } from "@/lib/surfaces/mcp-http";

export const dynamic = "force-dynamic";

export { handleMcpRequest as GET, handleMcpRequest as POST, handleMcpRequest as DELETE };
