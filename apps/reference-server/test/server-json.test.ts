// server.json is this server's record in the official MCP registry (published with
// `mcp-publisher publish`). The registry checks it against its published schema and against the
// npm package: these tests hold it to the format's documented rules (the 2025-12-11 schema's
// required fields, patterns and package fields, and the official registry's npm ownership rule)
// and to the command line it describes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCliArguments, usage } from "../src/cli/parse-cli-arguments.ts";

const here = join(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(here, "package.json"), "utf8")) as {
  name: string;
  version: string;
  mcpName: string;
  bin: Record<string, string>;
};

interface Input {
  name?: string;
  type?: string;
  value?: string;
  description?: string;
  isSecret?: boolean;
  format?: string;
  default?: string;
  choices?: string[];
}
interface Package {
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version: string;
  runtimeHint?: string;
  transport: { type: string };
  packageArguments?: Input[];
  environmentVariables?: Input[];
}
const server = JSON.parse(readFileSync(join(here, "server.json"), "utf8")) as {
  $schema: string;
  name: string;
  title?: string;
  description: string;
  version: string;
  repository?: { url: string; source: string; subfolder?: string };
  packages: Package[];
};

// The fields the schema allows on a package (its `Package` definition has no other properties).
const packageFields = new Set([
  "registryType",
  "registryBaseUrl",
  "identifier",
  "version",
  "fileSha256",
  "runtimeHint",
  "transport",
  "runtimeArguments",
  "packageArguments",
  "environmentVariables",
]);
const inputFormats = new Set(["string", "number", "boolean", "filepath"]);

describe("server.json", () => {
  it("names a dated schema and has the server fields the registry requires", () => {
    expect(server.$schema).toMatch(
      /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/,
    );
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.name.length).toBeLessThanOrEqual(200);
    // The official registry ties an io.github.<owner> namespace to that GitHub owner.
    const owner = /github\.com\/([^/]+)\//.exec(server.repository?.url ?? "")?.[1];
    expect(server.name.startsWith(`io.github.${owner}/`)).toBe(true);
    expect(server.description.length).toBeGreaterThan(0);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.repository?.source).toBe("github");
    expect(server.repository?.subfolder).toBe("apps/reference-server");
  });

  it("is at the package's version, a specific one, with mcpName proving the npm package", () => {
    expect(server.version).toBe(manifest.version);
    expect(server.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(manifest.mcpName).toBe(server.name);
    expect(server.packages).toHaveLength(1);
    const [npm] = server.packages;
    expect(npm).toMatchObject({
      registryType: "npm",
      registryBaseUrl: "https://registry.npmjs.org",
      identifier: manifest.name,
      version: manifest.version,
      runtimeHint: "npx",
      transport: { type: "stdio" },
    });
    expect(Object.keys(npm ?? {}).filter((key) => !packageFields.has(key))).toEqual([]);
  });

  it("passes arguments that the real command line reads as a stdio server", () => {
    const args = (server.packages[0]?.packageArguments ?? []).map((argument) => {
      expect(argument.type).toBe("positional");
      expect(typeof argument.value).toBe("string");
      return argument.value ?? "";
    });
    expect(parseCliArguments(args, {}, "/w").transport).toBe("stdio");
    // npx runs the package's one bin.
    expect(Object.keys(manifest.bin)).toEqual(["dcc-mcp"]);
  });

  it("lists environment variables the server reads, with its secrets marked secret", () => {
    const variables = server.packages[0]?.environmentVariables ?? [];
    expect(variables.length).toBeGreaterThan(0);
    for (const variable of variables) {
      const name = variable.name ?? "";
      expect(usage, `${name} is documented in --help`).toContain(name);
      expect(variable.description?.length ?? 0, name).toBeGreaterThan(0);
      expect(variable.isSecret === true, `${name} isSecret`).toBe(
        /TOKEN|PASSWORD|SECRET/.test(name),
      );
      if (variable.format !== undefined) expect(inputFormats.has(variable.format)).toBe(true);
      if (variable.choices !== undefined && variable.default !== undefined) {
        expect(variable.choices).toContain(variable.default);
      }
    }
    // Each value it documents is one the command line accepts.
    for (const variable of variables.filter((entry) => entry.choices !== undefined)) {
      for (const choice of variable.choices ?? []) {
        expect(() =>
          parseCliArguments(["--stdio"], { [variable.name ?? ""]: choice }, "/w"),
        ).not.toThrow();
      }
    }
    expect(() =>
      parseCliArguments(["--stdio"], { DCC_MCP_DCC: "maya,blender" }, "/w"),
    ).not.toThrow();
  });
});
