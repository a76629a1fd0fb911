// What the follow bench's servers load (bundled by scripts/bench/follow.mjs): following a remote
// in this process as `cockpit serve --follow` does, and a command invoked as a POST invokes it.
export { follow, followerOf, sync, unfollow } from "../../lib/server/follow";
export { contextFor } from "../../lib/server/state";
export { invoke } from "../../lib/surfaces/invoke";
export { planClaimCapability } from "../../lib/capabilities/plan-claim";
export { planTransitionCapability } from "../../lib/capabilities/plan-transition";
