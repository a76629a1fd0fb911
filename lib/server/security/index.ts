// The doors of the server: which Host names it answers to (the DNS-rebinding defence), who the
// caller is (a bearer token, or a sealed session cookie issued at sign-in), and the sign-in rate
// limit. Plain Node: the proxy, the route handlers and the server actions all call it.
//
// One file per concern: settings, hosts, users, sessions, the guess limit and the webhooks.
export * from "./hosts";
export * from "./limit";
export * from "./sessions";
export * from "./settings";
export * from "./users";
export * from "./webhooks";
export * from "./kinds";
