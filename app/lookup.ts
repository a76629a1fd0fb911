import { notFound } from "next/navigation";
import { CapabilityError } from "@/lib/plan/errors";
import { call } from "@/lib/surfaces/pages";

/** A page's record from the registry; a record that does not exist (or a bad id) is the 404 page. */
export async function callOrNotFound<T>(id: string, input: Record<string, unknown>): Promise<T> {
  try {
    return await call<T>(id, input);
  } catch (error) {
    if (error instanceof CapabilityError && error.code !== "internal") notFound();
    throw error;
  }
}
