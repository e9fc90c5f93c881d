// The simulated scene behind the stand-in `maya.cmds`: a loopback HTTP server in the test's own
// process. The stand-in asks it for the scene's short flag names (GET /specs) and forwards each
// call (POST /call), so a headless or plug-in host over the stand-in behaves like Maya for the
// fifty simulated commands.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseFlagSpecs } from "../../src/scene/command-spec.ts";
import { MayaScene } from "../../src/scene/maya-scene.ts";
import { SceneError } from "../../src/scene/scene-error.ts";

/** A running scene server. */
export interface StandInScene {
  /** `http://127.0.0.1:PORT`, for `DCC_MAYA_STAND_IN_SCENE`. */
  readonly url: string;
  /** The current scene (a new one after each reset). */
  readonly scene: MayaScene;
  /** Every command forwarded, in order. */
  readonly calls: string[];
  close(): Promise<void>;
}

function shortNames(scene: MayaScene): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const spec of scene.commandSpecs()) {
    const names: Record<string, string> = {};
    for (const flag of parseFlagSpecs(
      spec.flags,
      spec.queryable ?? false,
      spec.editable ?? false,
    )) {
      if (flag.short) names[flag.short] = flag.long;
    }
    out[spec.name] = names;
  }
  return out;
}

/**
 * Starts a scene server on 127.0.0.1 with scene files in `dataDir`; `POST /reset` (a new
 * `mayapy` initializing) starts a new scene.
 */
export async function startStandInScene(options: { dataDir: string }): Promise<StandInScene> {
  let scene = new MayaScene({ dataDir: options.dataDir });
  const specs = JSON.stringify(shortNames(scene));
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.setHeader("content-type", "application/json");
      if (request.method === "GET" && request.url === "/specs") {
        response.end(specs);
        return;
      }
      if (request.method === "POST" && request.url === "/reset") {
        scene = new MayaScene({ dataDir: options.dataDir });
        response.end("{}");
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        command: string;
        args: unknown[];
        flags: Record<string, unknown>;
      };
      calls.push(body.command);
      try {
        const result = scene.execute(body.command, { ...body.flags, args: body.args });
        response.end(JSON.stringify({ result: result ?? null }));
      } catch (error) {
        const code = error instanceof SceneError ? error.code : "MAYA_ERROR";
        const message = error instanceof Error ? error.message : String(error);
        response.end(JSON.stringify({ error: { code, message } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get scene() {
      return scene;
    },
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
