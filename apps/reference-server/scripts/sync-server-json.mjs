// Keeps server.json (the MCP registry's record of this server) at the package's version, as the
// registry requires; run by the root `version-packages` script after `changeset version`.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const here = join(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
const file = join(here, "server.json");
const server = JSON.parse(readFileSync(file, "utf8"));
server.version = manifest.version;
for (const entry of server.packages) {
  if (entry.registryType === "npm" && entry.identifier === manifest.name) {
    entry.version = manifest.version;
  }
}
writeFileSync(file, `${JSON.stringify(server, null, 2)}\n`);
