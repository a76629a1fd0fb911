// The derivation core: records in, derived plan out. Nothing here reads a file or runs git;
// lib/repo reads the records and makes the moves (see docs/architecture.md).
export * from "./constants";
export * from "./derive";
export * from "./next-issue";
export * from "./queries";
export * from "./records";
export * from "./roadmap";
export * from "./scope";
export * from "./seal";
export type * from "./shapes";
export * from "./text";
