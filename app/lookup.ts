import { notFound } from "next/navigation";
import { CapabilityError } from "@/lib/plan/errors";
import type { z } from "zod";
import type { Capability } from "@/lib/capabilities/capability";
import { call } from "@/lib/surfaces/pages";

/** A page's record from the registry; a record that does not exist (or a bad id) is the 404 page. */
export async function callOrNotFound<I extends z.ZodType, O extends z.ZodType>(capability: Capability<I, O>, input: z.input<I>): Promise<z.infer<O>> {
  try {
    return await call(capability, input);
  } catch (error) {
    if (error instanceof CapabilityError && error.code !== "internal") notFound();
    throw error;
  }
}
