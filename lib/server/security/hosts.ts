// Which Host names the server answers to (the DNS-rebinding defence), who the peer is, and
// whether a request came over TLS.
import { isIP } from "node:net";
import type { HeaderBag, ServerSecurity } from "./settings";

/** The host name of a `Host` header value, without its port, lower case. */
export function hostNameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") === -1 ? undefined : h.indexOf("]"));
  const colon = h.lastIndexOf(":");
  return colon === -1 || h.indexOf(":") !== colon ? h : h.slice(0, colon);
}

/** The Host a request names: `X-Forwarded-Host` behind a trusted proxy, else `Host`. */
export function requestHost(headers: HeaderBag, security: ServerSecurity): string | null {
  const forwarded = security.trustProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || headers.get("host");
}

/**
 * Whether the server answers to a host name. As Vite's `server.allowedHosts`: loopback names,
 * `*.localhost`, any IP address (a name the browser did not resolve cannot be rebound), the bound
 * address, and each `--allowed-host` (a leading dot admits the subdomains too).
 */
export function isAllowedHostName(name: string, security: ServerSecurity): boolean {
  if (name === "localhost" || name.endsWith(".localhost") || isIP(name) !== 0) return true;
  if (security.bindHost && hostNameOf(security.bindHost) === name) return true;
  return security.allowedHosts.some((allowed) => (allowed.startsWith(".") ? name === allowed.slice(1) || name.endsWith(allowed) : name === allowed));
}

/** Why a request's Host is refused (403), or undefined when the server answers to it. */
export function hostProblem(headers: HeaderBag, security: ServerSecurity): string | undefined {
  const host = requestHost(headers, security);
  if (!host) return "the request names no Host; send the Host header of the address you reached";
  const name = hostNameOf(host);
  if (isAllowedHostName(name, security)) return undefined;
  return (
    `this server does not answer to the host name '${name}' (a defence against DNS rebinding); ` +
    `it answers to localhost, IP addresses${security.allowedHosts.length ? ` and ${security.allowedHosts.join(", ")}` : ""}. ` +
    `To serve it under that name, start it with --allowed-host ${name}`
  );
}

/** The address a request came from, as far as it can be known. */
export function peerOf(headers: HeaderBag, security: ServerSecurity): string {
  if (security.frontNonce && headers.get("x-cockpit-front") === security.frontNonce) {
    return headers.get("x-cockpit-peer") ?? "unknown";
  }
  const forwarded = headers.get("x-forwarded-for")?.split(",");
  return forwarded?.[forwarded.length - 1]?.trim() || "unknown";
}

/** Whether the request reached us over TLS, as far as the server can tell. */
export function isSecureRequest(headers: HeaderBag, url: string, security: ServerSecurity): boolean {
  if (url.startsWith("https:")) return true;
  return security.trustProxy && headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

// ---------------------------------------------------------------------------------------------
// Users and tokens
