import { isIP } from "node:net";
import { LinkError } from "./link-error.ts";

/** Where the host listens: a Unix domain socket, or TCP on a loopback address. */
export type LinkEndpoint =
  | { readonly kind: "unix"; readonly path: string }
  | { readonly kind: "tcp"; readonly host: string; readonly port: number };

/**
 * True for an IP literal on the loopback interface: `127.0.0.0/8`, `::1`, or an IPv4-mapped
 * `::ffff:127.x.y.z`. Host names (`localhost` included) are refused: what they resolve to is not
 * this code's to decide.
 */
export function isLoopbackAddress(host: string): boolean {
  const version = isIP(host);
  if (version === 4) return host.split(".")[0] === "127";
  if (version !== 6) return false;
  const lower = host.toLowerCase();
  if (lower === "::1" || /^(0{1,4}:){7}0{0,3}1$/.test(lower)) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  return mapped !== null && isLoopbackAddress(mapped[1] as string);
}

/**
 * Checks an endpoint before anything connects to it.
 * @throws {LinkError} `NOT_LOOPBACK` for a TCP host that is not a loopback address, or a port
 *   or path that cannot be right.
 */
export function assertLoopbackEndpoint(endpoint: LinkEndpoint): void {
  const refuse = (message: string): never => {
    throw new LinkError({ code: "NOT_LOOPBACK", message, completion: "not_started" });
  };
  if (endpoint.kind === "unix") {
    if (typeof endpoint.path !== "string" || endpoint.path.length === 0) {
      refuse("A Unix socket endpoint needs a path");
    }
    return;
  }
  if (endpoint.kind !== "tcp") refuse("An endpoint is either unix or tcp");
  if (!isLoopbackAddress(endpoint.host)) {
    refuse(`Refusing ${endpoint.host}: the link only connects to loopback addresses`);
  }
  if (!Number.isInteger(endpoint.port) || endpoint.port < 1 || endpoint.port > 65535) {
    refuse(`Port ${endpoint.port} is not a TCP port`);
  }
}
