// Cucumber's default profile: every feature, TypeScript step definitions loaded through tsx.
// `npx cucumber-js` and `npx cucumber-js features/<file>.feature` both use it.
module.exports = {
  default: {
    // No `paths`: cucumber's default (features/**/*.{feature,feature.md}) runs them all, and a
    // path on the command line then replaces it instead of being merged with it (no deprecation notice).
    require: ["features/step_definitions/**/*.ts", "features/support/**/*.ts"],
    requireModule: ["tsx/cjs"],
    format: ["progress"],
  },
};
