// A fresh idempotency key: one per intended move, edit, creation or evidence entry, kept while its
// answer stands. The server answers a repeated key with the first outcome and writes nothing, so a
// double click or a resent request never does a thing twice.
export const newIdempotencyKey = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
