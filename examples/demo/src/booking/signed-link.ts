export function signLink(bookingId: string, expires: number) {
  return `${bookingId}.${expires}`;
}
export type LinkAction = "view" | "confirm" | "cancel";
