import { PlanSchema, type Plan } from "@/lib/plan/shapes";

/** The plan in GET /api/v1/plan's answer, parsed with its schema; an answer that is not one throws, naming where. */
export function parsePlanAnswer(json: unknown): Plan {
  const parsed = PlanSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const [first] = parsed.error.issues;
  throw new Error(`the plan the server sent is not a plan (${first?.path.join(".") || "its root"}: ${first?.message})`);
}
