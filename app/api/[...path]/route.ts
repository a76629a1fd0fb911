import { unknownRoute } from "@/lib/surfaces/http";

export const dynamic = "force-dynamic";

// Every path under /api/ that no other route answers: a JSON 404 naming the nearest routes.
async function handle(request: Request) {
  return unknownRoute(new URL(request.url).pathname);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as HEAD };
