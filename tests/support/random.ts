// The tests' deterministic pseudo-random generator is the product's own (mulberry32, as the
// forecast samples with it): "random" fixtures and delays repeat run to run.
export { seededRandom } from "../../lib/history/forecast";
