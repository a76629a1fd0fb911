import { handleCapabilityRequest } from "@/lib/surfaces/http";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleCapabilityRequest(request, "/api/v1/plan");

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
