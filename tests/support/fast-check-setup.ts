import fc from "fast-check";

// A property that fails says what it got in its first lines (the error, then the seed that replays
// it), not only in a cause a one-line summary drops.
fc.configureGlobal({ includeErrorInReport: true });
