import { handleSyncRequest, handleSyncStatus } from "@/lib/surfaces/http-sync";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleSyncStatus(request);
export const POST = (request: Request) => handleSyncRequest(request);
