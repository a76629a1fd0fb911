/** Cockpit's version, as package.json states it (a test holds the two equal). */
export const COCKPIT_VERSION = "0.1.0";
