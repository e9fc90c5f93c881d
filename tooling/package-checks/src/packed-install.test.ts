// The packages as a user gets them. Every publishable workspace package is packed with pnpm (as
// `pnpm publish` would, so publishConfig and workspace: ranges are rewritten), the tarballs are
// installed with npm into an empty app in the system temp folder, and there:
// - each tarball holds what it should (no sources, maps with their sources inlined, declarations
//   that import .js siblings, registry metadata, a stated minimum TypeScript);
// - every marked README example (see readme-examples.ts) and a consumer of each package's whole
//   public API type-check with the TypeScript each README states, under `nodenext` and `bundler`;
// - the `run` examples run as written, and every bin answers --help.
// The dist folders come from turbo (`dependsOn: ["^build"]`); the registry is used for
// TypeScript, @types/node and the packages' own dependencies (npm's cache first).
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { connectClient, revisions } from "@dcc/mcp-test-clients";
import { processesOf, waitFor } from "@dcc/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientServers } from "./client-configs.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";
import {
  newestTypeScript,
  type ReadmeExample,
  readmeExamples,
  statedTypeScript,
} from "./readme-examples.ts";
import { binEntries, workspacePackages } from "./workspace-packages.ts";

const execFileAsync = promisify(execFile);
const root = resolve(import.meta.dirname, "../../..");
const here = resolve(import.meta.dirname, "..");
const all = workspacePackages(root);
const publishable = all.filter((pkg) => pkg.publishable);
/** The registry npm uses here; the local registry sends what it does not serve there. */
const rootRegistry = process.env["npm_config_registry"] ?? "https://registry.npmjs.org/";

/** The package name of a `pnpm pack` tarball, from its unpacked manifest. */
function packageOfTarball(tarball: string): string {
  for (const [packageName, folder] of unpacked) {
    if (folder.includes(`/${tarball.replace(/\.tgz$/, "")}/`)) return packageName;
  }
  throw new Error(`no unpacked package for ${tarball}`);
}

const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  repository: { url: string };
  devDependencies: Record<string, string>;
};

/** Runs a command; on failure, the error names the command and carries its output. */
async function run(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs: number; env?: Record<string, string> },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, {
      cwd: options.cwd,
      timeout: options.timeoutMs,
      killSignal: "SIGKILL",
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        npm_config_update_notifier: "false",
        npm_config_fund: "false",
        ...options.env,
      },
    });
  } catch (error) {
    const failure = error as Error & { stdout?: string; stderr?: string; killed?: boolean };
    const why = failure.killed === true ? `killed after ${options.timeoutMs} ms` : failure.message;
    throw new Error(
      `${command} ${args.join(" ")} (in ${options.cwd}) failed: ${why}\n${failure.stdout ?? ""}\n${failure.stderr ?? ""}`,
    );
  }
}

/** Runs `tasks` at most `width` at a time. */
async function inBatches<T>(
  items: T[],
  width: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

/** A file of the temp app: one example, or one package's whole public API. */
interface Source {
  file: string;
  packageName: string;
  typescript: string;
  example?: ReadmeExample;
}

let app = "";
const unpacked = new Map<string, string>();
const sources: Source[] = [];

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), "dcc-packed-"));
  const missing = all.filter((pkg) => !existsSync(join(pkg.directory, "dist")));
  if (missing.length > 0) {
    throw new Error(
      `no dist in ${missing.map((pkg) => pkg.name).join(", ")}: run \`pnpm build\` (turbo builds them before this test)`,
    );
  }
  const tarballs = join(app, "tarballs");
  mkdirSync(tarballs);
  await inBatches(publishable, 2, async (pkg) => {
    await run("pnpm", ["pack", "--pack-destination", tarballs], {
      cwd: pkg.directory,
      timeoutMs: 120_000,
    });
  });
  for (const tarball of readdirSync(tarballs)) {
    const folder = join(app, "unpacked", tarball.replace(/\.tgz$/, ""));
    mkdirSync(folder, { recursive: true });
    await run("tar", ["-xzf", join(tarballs, tarball), "-C", folder], {
      cwd: app,
      timeoutMs: 60_000,
    });
    const manifest = JSON.parse(readFileSync(join(folder, "package", "package.json"), "utf8"));
    unpacked.set(String(manifest.name), join(folder, "package"));
  }

  // One TypeScript per stated minimum, under an alias (ts-5.0, …), and the repository's @types/node.
  const versions = new Set<string>();
  for (const pkg of publishable) {
    const stated = statedTypeScript(readFileSync(join(pkg.directory, "README.md"), "utf8"));
    if (stated !== undefined) versions.add(stated);
  }
  writeFileSync(
    join(app, "package.json"),
    `${JSON.stringify({ name: "packed-app", private: true, type: "module" }, null, 2)}\n`,
  );
  await run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      ...readdirSync(tarballs).map((tarball) => join(tarballs, tarball)),
      ...[...versions].map((version) => `ts-${version}@npm:typescript@~${version}.0`),
      `@types/node@${rootManifest.devDependencies["@types/node"]}`,
    ],
    { cwd: app, timeoutMs: 420_000 },
  );

  // The sources to type-check: each package's whole API, then its README's marked examples. An
  // example that imports other @dcc packages needs the newest TypeScript any of them states.
  mkdirSync(join(app, "src"));
  const stated = new Map<string, string>();
  for (const pkg of publishable) {
    const readme = readFileSync(join(unpacked.get(pkg.name) ?? "", "README.md"), "utf8");
    stated.set(pkg.name, statedTypeScript(readme) ?? "none");
  }
  for (const pkg of publishable) {
    const readme = readFileSync(join(unpacked.get(pkg.name) ?? "", "README.md"), "utf8");
    const typescript = stated.get(pkg.name) ?? "none";
    const slug = pkg.name.replace(/^@/, "").replace(/\//g, "-");
    const api = join(app, "src", `${slug}-api.ts`);
    writeFileSync(
      api,
      `import * as api from "${pkg.name}";\nexport const names: string[] = Object.keys(api);\n`,
    );
    sources.push({ file: api, packageName: pkg.name, typescript });
    readmeExamples(readme).forEach((example, index) => {
      const file = join(app, "src", `${slug}-readme-${index + 1}.${example.language}`);
      // Each example is a module of its own, so two examples may use the same names.
      writeFileSync(file, `${example.code}\nexport {};\n`);
      const imported = [...example.code.matchAll(/from\s+["'](@dcc\/[^"'/]+)/g)].map(
        (match) => stated.get(match[1] ?? "") ?? typescript,
      );
      sources.push({
        file,
        packageName: pkg.name,
        typescript: newestTypeScript([typescript, ...imported]),
        example,
      });
    });
  }
}, 900_000);

afterAll(() => {
  if (app !== "") rmSync(app, { recursive: true, force: true });
});

describe.each(publishable.map((pkg) => ({ ...pkg })))("$name as packed", ({ name, directory }) => {
  const folder = (): string => {
    const found = unpacked.get(name);
    if (found === undefined) throw new Error(`${name} was not packed`);
    return found;
  };
  const files = (): string[] =>
    (readdirSync(folder(), { recursive: true }) as string[]).map((file) =>
      file.split("\\").join("/"),
    );

  it("ships dist with a declaration per module, and no sources or tests", () => {
    const list = files();
    expect(list.filter((file) => /(^|\/)(src|test|__fixtures__)\//.test(file))).toEqual([]);
    expect(list.filter((file) => /\.test(-d)?\.[jt]s$/.test(file))).toEqual([]);
    const scripts = list.filter((file) => file.startsWith("dist/") && file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((file) => !list.includes(file.replace(/\.js$/, ".d.ts")))).toEqual([]);
  });

  it("has source maps that carry their sources", () => {
    for (const file of files().filter((file) => file.endsWith(".map"))) {
      const map = JSON.parse(readFileSync(join(folder(), file), "utf8")) as {
        sources: string[];
        sourcesContent?: Array<string | null>;
      };
      expect(map.sourcesContent?.length, `${name}/${file} has no sourcesContent`).toBe(
        map.sources.length,
      );
      expect(
        map.sourcesContent?.every((content) => typeof content === "string"),
        file,
      ).toBe(true);
    }
  });

  it("has declarations that import .js siblings, never .ts", () => {
    const offending = files()
      .filter((file) => file.endsWith(".d.ts"))
      .filter((file) =>
        /(?:from\s*|import\s*\(\s*)["']\.{1,2}\/[^"']*\.[mc]?ts["']/.test(
          readFileSync(join(folder(), file), "utf8"),
        ),
      );
    expect(
      offending,
      "add the post-build step tooling/package-checks/scripts/rewrite-declaration-imports.mjs to the build script",
    ).toEqual([]);
  });

  it("has a published manifest with registry metadata and no workspace leftovers", () => {
    const text = readFileSync(join(folder(), "package.json"), "utf8");
    expect(text).not.toContain("workspace:");
    expect(text).not.toContain("@dcc/source");
    const manifest = JSON.parse(text) as Record<string, unknown>;
    const url = rootManifest.repository.url;
    const path = relative(root, directory).split("\\").join("/");
    expect(manifest["repository"]).toEqual({ type: "git", url, directory: path });
    expect(manifest["homepage"]).toBe(
      `${url.replace(/^git\+/, "").replace(/\.git$/, "")}/tree/main/${path}#readme`,
    );
    expect(manifest["bugs"]).toEqual({
      url: `${url.replace(/^git\+/, "").replace(/\.git$/, "")}/issues`,
    });
    expect(manifest["license"]).toBe("MIT");
    expect((manifest["keywords"] as string[] | undefined)?.length ?? 0).toBeGreaterThan(0);
    expect((manifest["engines"] as Record<string, string> | undefined)?.["node"]).toBeDefined();
  });

  it("has a README that states the oldest TypeScript and marks its install example", () => {
    const readme = readFileSync(join(folder(), "README.md"), "utf8");
    expect(statedTypeScript(readme), 'a sentence "TypeScript X.Y or later"').toBeDefined();
    expect(readmeExamples(readme).length, "a ```ts run (or ```ts check) example").toBeGreaterThan(
      0,
    );
  });
});

describe("the installed packages", () => {
  const modes = [
    { mode: "nodenext", options: { module: "nodenext", moduleResolution: "nodenext" } },
    { mode: "bundler", options: { module: "esnext", moduleResolution: "bundler" } },
  ];

  it.each(modes)(
    "type-check in a consumer with the stated TypeScript ($mode)",
    async ({ mode, options }) => {
      const byVersion = new Map<string, Source[]>();
      for (const source of sources)
        byVersion.set(source.typescript, [...(byVersion.get(source.typescript) ?? []), source]);
      expect(byVersion.has("none"), "every README states a TypeScript").toBe(false);
      for (const [version, group] of byVersion) {
        const config = join(app, `tsconfig.${mode}-${version}.json`);
        writeFileSync(
          config,
          JSON.stringify({
            compilerOptions: {
              ...options,
              target: "es2022",
              lib: ["es2023"],
              types: ["node"],
              strict: true,
              skipLibCheck: false,
              allowJs: true,
              checkJs: true,
              // The nodenext build is the one the examples run from.
              ...(mode === "nodenext"
                ? { outDir: `out-${version}`, rootDir: "src" }
                : { noEmit: true }),
            },
            files: group.map((source) => relative(app, source.file)),
          }),
        );
        const tsc = join(app, "node_modules", `ts-${version}`, "bin", "tsc");
        await run(process.execPath, [tsc, "-p", config], { cwd: app, timeoutMs: 300_000 });
      }
    },
  );

  it("run every README example marked run", async () => {
    const runnable = sources.filter((source) => source.example?.mode === "run");
    expect(runnable.length).toBeGreaterThanOrEqual(publishable.length);
    await inBatches(runnable, 2, async (source) => {
      const compiled = join(
        app,
        `out-${source.typescript}`,
        relative(join(app, "src"), source.file),
      ).replace(/\.ts$/, ".js");
      const where = `${source.packageName} README line ${source.example?.line}`;
      expect(existsSync(compiled), `${where} was compiled (the nodenext check runs first)`).toBe(
        true,
      );
      const { stdout } = await run(process.execPath, [compiled], { cwd: app, timeoutMs: 120_000 });
      expect(stdout.trim(), `${where} prints something`).not.toBe("");
    });
  });

  it("answer --help on every bin with their usage, and exit 0", async () => {
    const bins = all.flatMap((pkg) =>
      binEntries(pkg.manifest).map(([bin, path]) => ({
        bin,
        // Published bins run from the install, the private ones from the workspace build.
        path: pkg.publishable
          ? join(app, "node_modules", ...pkg.name.split("/"), path)
          : join(pkg.directory, path),
      })),
    );
    expect(bins.length).toBeGreaterThan(0);
    for (const { bin, path } of bins) {
      const { stdout } = await run(process.execPath, [path, "--help"], {
        cwd: app,
        timeoutMs: 60_000,
      });
      expect(stdout, bin).toMatch(/usage/i);
    }
  });
});

describe("@dcc/reference-server as an MCP client runs it", () => {
  const name = "@dcc/reference-server";
  let registry: LocalRegistry | undefined;
  let npmCache = "";
  let empty = "";

  beforeAll(async () => {
    // npx's own cache (where it installs the package) is new for this run; the downloaded
    // packages' content cache is the machine's, so published dependencies are not fetched again.
    const { stdout } = await run("npm", ["config", "get", "cache"], {
      cwd: app,
      timeoutMs: 60_000,
    });
    npmCache = mkdtempSync(join(tmpdir(), "dcc-npx-cache-"));
    mkdirSync(stdout.trim(), { recursive: true });
    mkdirSync(join(stdout.trim(), "_cacache"), { recursive: true });
    symlinkSync(join(stdout.trim(), "_cacache"), join(npmCache, "_cacache"));
    empty = mkdtempSync(join(tmpdir(), "dcc-npx-empty-"));
    const tarballs = join(app, "tarballs");
    registry = await startLocalRegistry({
      upstream: rootRegistry,
      packages: readdirSync(tarballs).map((tarball) => ({
        tarball: join(tarballs, tarball),
        manifest: JSON.parse(
          readFileSync(join(unpacked.get(packageOfTarball(tarball)) ?? "", "package.json"), "utf8"),
        ),
      })),
    });
  }, 120_000);

  afterAll(async () => {
    await registry?.close();
    for (const folder of [npmCache, empty]) {
      if (folder !== "") rmSync(folder, { recursive: true, force: true });
    }
  });

  it("starts, through the real command line, every server its README's client configurations name", async () => {
    const readme = readFileSync(join(unpacked.get(name) ?? "", "README.md"), "utf8");
    const servers = clientServers(readme, name);
    const bin = join(app, "node_modules", "@dcc", "reference-server", "dist", "cli.js");
    const check = async (args: string[], env: Record<string, string>) =>
      JSON.parse(
        (
          await run(process.execPath, [bin, ...args, "--check"], {
            cwd: app,
            timeoutMs: 60_000,
            env,
          })
        ).stdout,
      ) as { transport: string; url?: string };
    const http = await check([], {});
    expect(http.url).toBe("http://127.0.0.1:8765/mcp");
    expect(servers.filter((server) => server.kind === "launch").length).toBeGreaterThanOrEqual(6);
    expect(servers.filter((server) => server.kind === "url").length).toBeGreaterThanOrEqual(4);
    for (const server of servers) {
      if (server.kind === "launch") {
        expect((await check(server.args, server.env)).transport, server.where).toBe("stdio");
      } else {
        expect(server.url, server.where).toBe(http.url);
        if (server.authorization !== undefined) {
          expect(server.authorization, server.where).toMatch(/^Bearer \S+$/);
        }
      }
    }
  });

  it.each(revisions)(
    "answers a real %s client through `npx -y @dcc/reference-server --stdio` in an empty folder",
    async (revision) => {
      const { client, stderr } = await connectClient(revision, {
        kind: "stdio",
        command: "npx",
        args: ["-y", name, "--stdio"],
        cwd: empty,
        env: {
          ...(process.env as Record<string, string>),
          npm_config_registry: registry?.url ?? "",
          npm_config_cache: npmCache,
          npm_config_update_notifier: "false",
          npm_config_fund: "false",
          npm_config_audit: "false",
          DCC_MCP_DATA_DIR: join(empty, "scenes"),
          DCC_MCP_SCRIPTS_DIR: join(empty, "scripts"),
        },
        stderr: "pipe",
      });
      let output = "";
      stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort(), output).toEqual([
          "dcc_execute",
          "dcc_search",
        ]);
        const result = await client.callTool({
          name: "dcc_execute",
          arguments: { code: 'return dispatch("polySphere", { name: "ball" });' },
        });
        expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
        expect(JSON.stringify(result.structuredContent)).toContain("ball");
      } finally {
        await client.close();
      }
      expect(registry?.requested).toContain(name);
      // Closing the client's stdio ends npx and the server it started.
      await waitFor(
        "npx and the server it started to exit",
        () => processesOf(npmCache).length === 0,
        60_000,
      );
    },
    600_000,
  );
});

describe("package-checks' devDependencies", () => {
  it("list every publishable package and every package with a bin, so turbo builds them first", () => {
    const own = JSON.parse(readFileSync(join(here, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const needed = all.filter((pkg) => pkg.publishable || binEntries(pkg.manifest).length > 0);
    expect(
      needed.map((pkg) => pkg.name).filter((name) => own.devDependencies[name] === undefined),
    ).toEqual([]);
  });
});
