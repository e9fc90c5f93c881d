import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where the adapter caches what it reads from a Blender (its operators, by build):
 * `DCC_BLENDER_CACHE_DIR`, else `$XDG_CACHE_HOME/dcc-mcp/blender`, else
 * `~/.cache/dcc-mcp/blender`.
 */
export function blenderCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const chosen = env["DCC_BLENDER_CACHE_DIR"];
  if (chosen !== undefined && chosen !== "") return chosen;
  const xdg = env["XDG_CACHE_HOME"];
  return join(
    xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache"),
    "dcc-mcp",
    "blender",
  );
}
