// Europe/Lisbon 2026-03-29 and 2026-10-25.
