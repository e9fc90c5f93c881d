// A registry on loopback that serves the packed workspace packages as if they were published, and
// sends every other request on to the real registry: `npx -y <package>` can then run from an
// empty folder exactly as a user's client runs it, before anything is published.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";

/** A packed package the registry serves: its tarball and its published manifest. */
export interface LocalPackage {
  tarball: string;
  manifest: { name: string; version: string } & Record<string, unknown>;
}

/** A running local registry. */
export interface LocalRegistry {
  /** The registry URL, for `npm_config_registry`. */
  readonly url: string;
  /** The names npm asked this registry for, in order (the upstream ones included). */
  readonly requested: string[];
  close(): Promise<void>;
}

/**
 * Starts a registry on 127.0.0.1 serving `packages` (one version each) and redirecting every
 * other packument and tarball request to `upstream`.
 */
export async function startLocalRegistry(options: {
  packages: readonly LocalPackage[];
  upstream: string;
}): Promise<LocalRegistry> {
  const upstream = options.upstream.replace(/\/$/, "");
  const byName = new Map(options.packages.map((entry) => [entry.manifest.name, entry]));
  const byFile = new Map(options.packages.map((entry) => [basename(entry.tarball), entry]));
  const requested: string[] = [];
  let url = "";
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://registry").pathname;
    const file = /^\/-\/local\/([^/]+\.tgz)$/.exec(path)?.[1];
    if (file !== undefined) {
      const entry = byFile.get(decodeURIComponent(file));
      if (entry === undefined) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/octet-stream" });
      response.end(readFileSync(entry.tarball));
      return;
    }
    const name = decodeURIComponent(path.slice(1));
    requested.push(name);
    const entry = byName.get(name);
    if (entry === undefined) {
      // Packuments and tarballs of published packages (npm rewrites the registry's tarball URLs
      // to this registry) come from the real one.
      response.writeHead(302, { location: `${upstream}${request.url ?? "/"}` }).end();
      return;
    }
    const bytes = readFileSync(entry.tarball);
    const version = entry.manifest.version;
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        name,
        "dist-tags": { latest: version },
        versions: {
          [version]: {
            ...entry.manifest,
            _id: `${name}@${version}`,
            dist: {
              tarball: `${url}/-/local/${encodeURIComponent(basename(entry.tarball))}`,
              integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
              shasum: createHash("sha1").update(bytes).digest("hex"),
            },
          },
        },
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
