import { handleCapabilityRequest } from "@/lib/surfaces/http";

export const dynamic = "force-dynamic";

async function handle(request: Request, { params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return handleCapabilityRequest(request, `/api/v1/plans/${name}`);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
