// A farm's front end serves each DCC catalog-only: the same tools, schemas, descriptions and
// instructions as a server that runs the DCC, and the same search, with no host started.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  assertBlender,
  blenderInstallCommand,
  commandLineOf,
  descendantsOf,
  hasBlender,
  requireBlender,
} from "@dcc/test-support";
import { afterAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp, search } from "./__fixtures__/mcp-helpers.ts";

const servers: ReferenceServer[] = [];
const folders: string[] = [];
afterAll(async () => {
  await Promise.allSettled(servers.map((server) => server.close()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}, 120_000);

/** What a client learns about a server before running anything. */
async function texts(server: ReferenceServer, query: string) {
  const client = await connectHttp(server.url as string);
  try {
    return {
      tools: (await client.listTools()).tools,
      instructions: client.getInstructions(),
      search: await search(client, query),
    };
  } finally {
    await client.close();
  }
}

async function pair(dcc: string, query: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-catalog-only-"));
  folders.push(dataDir);
  // Nothing connects to the farm's Redis before a script or /readyz asks, so none is needed.
  const front = await createReferenceServer({
    port: 0,
    dcc: [dcc],
    dataDir,
    farm: { url: "redis://127.0.0.1:1" },
  });
  servers.push(front);
  const frontTexts = await texts(front, query);
  // Before the full server starts its DCC: the front end started no process.
  const processes = descendantsOf(process.pid).map(commandLineOf);
  const full = await createReferenceServer({ port: 0, dcc: [dcc], dataDir });
  servers.push(full);
  return { full: await texts(full, query), front: frontTexts, processes };
}

describe("a catalog-only DCC on a farm's front end", { timeout: 600_000 }, () => {
  it("lists the simulated Maya's tools, instructions and search hits word for word", async () => {
    const { full, front } = await pair("maya", "sphere");
    expect(front.tools.map((tool) => tool.name)).toEqual(["dcc_search", "dcc_execute"]);
    expect(front.tools).toEqual(full.tools);
    expect(front.instructions).toBe(full.instructions);
    expect(front.search).toEqual(full.search);
  });

  it.skipIf(!hasBlender && !requireBlender)(
    `lists Blender's tools, instructions and search hits word for word, launching no Blender${hasBlender ? "" : ` (no Blender: ${blenderInstallCommand})`}`,
    async () => {
      assertBlender();
      const { full, front, processes } = await pair("blender", "add cube");
      expect(processes.filter((line) => line.includes("blender"))).toEqual([]);
      expect(front.tools).toEqual(full.tools);
      expect(front.instructions).toBe(full.instructions);
      expect(front.search).toEqual(full.search);
    },
  );
});
