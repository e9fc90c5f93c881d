import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CliUsageError, parseCliArguments, usage } from "./parse-cli-arguments.ts";

describe("parseCliArguments", () => {
  it("reads the approval rules, custom rules and question bound from flags or the environment", () => {
    const approval = (argv: string[], env: Record<string, string> = {}) =>
      parseCliArguments(argv, env, "/w").approval;
    expect(approval([])).toBeUndefined();
    expect(approval(["--ask", "delete,overwrite"])).toEqual({ ask: ["delete", "overwrite"] });
    expect(approval([], { DCC_MCP_ASK: "open", DCC_MCP_ASK_TIMEOUT: "45" })).toEqual({
      ask: ["open"],
      timeoutSecs: 45,
    });
    // The flag wins, and an empty one turns the environment's rules off.
    expect(approval(["--ask", ""], { DCC_MCP_ASK: "open" })).toBeUndefined();
    const custom = approval(["--ask", "publish", "--ask-rule", "publish=file,exportAll"]);
    expect(custom?.ask).toEqual(["publish"]);
    expect(custom?.rules?.[0]?.commands).toEqual(["file", "exportAll"]);
    expect(() => approval(["--ask", "delet"])).toThrow(
      /Unknown approval rule "delet" in --ask: use one of delete, overwrite, open, render/,
    );
    expect(() => approval(["--ask", "delete", "--ask-timeout", "soon"])).toThrow(
      /--ask-timeout must be a number of seconds above 0 and at most 86400, not "soon"/,
    );
    expect(() => approval(["--ask-timeout", "30"])).toThrow(/turn a rule on with --ask/);
    expect(() => approval(["--ask", "delete", "--farm", "redis://127.0.0.1:6379"])).toThrow(
      /give --ask to dcc-farm-worker/,
    );
    expect(() => approval(["--ask", "delete", "--ask-rule", "delete=x"])).toThrow(CliUsageError);
  });

  it("reads the audit log's file, script and rotation settings from flags or the environment", () => {
    const audit = (argv: string[], env: Record<string, string> = {}) =>
      parseCliArguments(argv, env, "/w").audit;
    expect(audit([])).toBeUndefined();
    expect(audit(["--audit-log", "logs/audit.jsonl"])).toEqual({
      file: "/w/logs/audit.jsonl",
      script: true,
    });
    expect(
      audit(["--audit-no-script", "--audit-max-bytes", "1048576"], {
        DCC_MCP_AUDIT_LOG: "/var/log/dcc.jsonl",
        DCC_MCP_AUDIT_MAX_FILES: "4",
      }),
    ).toEqual({ file: "/var/log/dcc.jsonl", script: false, maxBytes: 1048576, maxFiles: 4 });
    expect(audit([], { DCC_MCP_AUDIT_LOG: "a.jsonl", DCC_MCP_AUDIT_SCRIPT: "0" })).toMatchObject({
      script: false,
    });
    expect(() => audit(["--audit-log", " "])).toThrow(/--audit-log needs a file/);
    expect(() => audit(["--audit-log", "a", "--audit-max-files", "1"])).toThrow(
      /--audit-max-files must be a whole number, at least 2: 1/,
    );
    expect(() => audit(["--audit-log", "a", "--audit-max-bytes", "1k"])).toThrow(
      /--audit-max-bytes must be a whole number/,
    );
    expect(() => audit([], { DCC_MCP_AUDIT_LOG: "a", DCC_MCP_AUDIT_SCRIPT: "no" })).toThrow(
      /DCC_MCP_AUDIT_SCRIPT must be 0 or 1/,
    );
  });

  it("reads the HTTP session bounds from flags or the environment, in seconds, refusing bad ones", () => {
    const sessions = (argv: string[], env: Record<string, string> = {}) =>
      parseCliArguments(argv, env, "/w").sessions;
    expect(sessions([])).toBeUndefined();
    expect(
      sessions(["--max-sessions", "128", "--session-evict-idle", "0"], {
        DCC_MCP_MAX_SESSIONS: "8",
        DCC_MCP_MAX_SESSIONS_PER_CLIENT: "4",
        DCC_MCP_SESSION_IDLE: "120",
      }),
    ).toEqual({
      maxSessions: 128,
      maxSessionsPerClient: 4,
      sessionIdleMs: 120_000,
      sessionEvictIdleMs: 0,
    });
    expect(() => sessions(["--max-sessions", "0"])).toThrow(
      /--max-sessions must be a whole number, at least 1: 0/,
    );
    expect(() => sessions([], { DCC_MCP_SESSION_IDLE: "5m" })).toThrow(
      /--session-idle must be a whole number, at least 1: 5m/,
    );
  });

  it("reads labelled tokens from --tokens-file, DCC_MCP_TOKENS_FILE or DCC_MCP_TOKENS, naming bad lines but no token", () => {
    const folder = mkdtempSync(join(tmpdir(), "dcc-cli-tokens-"));
    try {
      const file = join(folder, "tokens");
      const alice = "alice-token-0123456789";
      writeFileSync(
        file,
        `# studio clients\n\nalice ${alice}\n  ci.render\tci-render-token-012345  \n`,
      );
      const expected = [
        { label: "alice", token: alice },
        { label: "ci.render", token: "ci-render-token-012345" },
      ];
      expect(parseCliArguments(["--tokens-file", "tokens"], {}, folder).tokens).toEqual(expected);
      expect(parseCliArguments([], { DCC_MCP_TOKENS_FILE: file }, "/").tokens).toEqual(expected);
      expect(
        parseCliArguments(
          [],
          { DCC_MCP_TOKENS: `alice=${alice}, ci.render=ci-render-token-012345` },
          "/",
        ).tokens,
      ).toEqual(expected);
      // Alongside --token, which stays unlabelled.
      const both = parseCliArguments(
        ["--token", "plain-token-0123456789", "--tokens-file", file],
        {},
        "/",
      );
      expect(both.token).toBe("plain-token-0123456789");
      expect(both.tokens).toHaveLength(2);
      expect(parseCliArguments([], {}, "/").tokens).toBeUndefined();

      const refused = (text: string): string => {
        writeFileSync(file, text);
        try {
          parseCliArguments(["--tokens-file", file], {}, "/");
        } catch (error) {
          expect(error).toBeInstanceOf(CliUsageError);
          return (error as Error).message;
        }
        throw new Error("accepted");
      };
      const secret = "secret-value-0123456789";
      const messages = [
        refused(`# ok\nalice ${secret} extra\n`),
        refused(`alice short\n`),
        refused(`bad/label ${secret}\n`),
        refused(`alice ${secret}\nbob ${alice}\nalice ${alice}x\n`),
        refused(`alice ${secret}\n\nbob ${secret}\n`),
        refused("# nothing\n"),
      ];
      expect(messages[0]).toMatch(/line 2: expected "label token"/);
      expect(messages[1]).toMatch(/line 1 \(label alice\): the token must be 16\+ characters/);
      expect(messages[2]).toMatch(/line 1: the label must be/);
      expect(messages[3]).toMatch(/line 3: the label alice is already used at .* line 1/);
      expect(messages[4]).toMatch(
        /line 3 \(label bob\): the same token as .* line 1 \(label alice\)/,
      );
      expect(messages[5]).toMatch(/holds no token/);
      for (const message of messages) {
        expect(message).not.toContain(secret);
        expect(message).not.toContain(alice);
        expect(message).not.toContain("short");
      }
      expect(() => parseCliArguments(["--tokens-file", join(folder, "missing")], {}, "/")).toThrow(
        /Cannot read the tokens file .*missing: ENOENT/,
      );
      expect(() => parseCliArguments([], { DCC_MCP_TOKENS: `alice${secret}` }, "/")).toThrow(
        /DCC_MCP_TOKENS entry 1: expected label=token/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("reads the farm's Redis from --farm or DCC_FARM_REDIS_URL, its password only from DCC_FARM_REDIS_PASSWORD", () => {
    expect(parseCliArguments(["--farm", "redis://farm-redis:6379"], {}, "/").farm).toEqual({
      url: "redis://farm-redis:6379",
    });
    expect(
      parseCliArguments(
        ["--farm-prefix", "studio"],
        { DCC_FARM_REDIS_URL: "rediss://ops@farm-redis:6380/2", DCC_FARM_REDIS_PASSWORD: "pw" },
        "/",
      ).farm,
    ).toEqual({ url: "rediss://ops@farm-redis:6380/2", password: "pw", prefix: "studio" });
    expect(parseCliArguments([], { DCC_FARM_PREFIX: "x" }, "/").farm).toBeUndefined();
    const refused = (argv: string[], env: Record<string, string> = {}): string => {
      try {
        parseCliArguments(argv, env, "/");
      } catch (error) {
        expect(error).toBeInstanceOf(CliUsageError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    const inUrl = refused(["--farm", "redis://:hunter2-secret@farm-redis:6379"]);
    expect(inUrl).toMatch(/holds a password: leave it out and set DCC_FARM_REDIS_PASSWORD/);
    expect(inUrl).not.toContain("hunter2-secret");
    const fromEnv = refused([], { DCC_FARM_REDIS_URL: "redis://ops:hunter2-secret@farm-redis" });
    expect(fromEnv).toMatch(/holds a password/);
    expect(fromEnv).not.toContain("hunter2-secret");
    expect(refused(["--farm", "http://farm-redis"])).toMatch(/redis:\/\/ or rediss:\/\/ URL/);
    expect(refused(["--farm", "not a url hunter2-secret"])).not.toContain("hunter2-secret");
    expect(refused(["--farm", "redis://r"], { DCC_FARM_REDIS_PASSWORD: "" })).toMatch(
      /DCC_FARM_REDIS_PASSWORD is set but empty/,
    );
    expect(refused(["--farm", "redis://r", "--farm-prefix", "a b"])).toMatch(/key prefix must be/);
    expect(refused(["--farm", "redis://r", "--blender-attach", "auto"])).toMatch(
      /--farm runs scripts on the farm's workers/,
    );
  });

  it("defaults to HTTP on 127.0.0.1:8765 with scenes under the home folder", () => {
    expect(parseCliArguments([], {}, "/work")).toEqual({
      transport: "http",
      port: 8765,
      host: "127.0.0.1",
      token: undefined,
      dataDir: join(homedir(), ".dcc-reference-server", "scenes"),
      scriptsDir: join(homedir(), ".dcc-reference-server", "scripts"),
      blenderWindow: "none",
      maya: { kind: "simulated" },
      sandbox: "auto",
      help: false,
      check: false,
    });
  });

  it("picks the Maya: simulated by default, mayapy when asked or when MAYAPY_BIN is set, or an attached one", () => {
    const maya = (argv: string[], env: Record<string, string> = {}) =>
      parseCliArguments(argv, env, "/w").maya;
    expect(maya([])).toEqual({ kind: "simulated" });
    expect(maya(["--maya", "mayapy"])).toEqual({ kind: "mayapy" });
    expect(maya([], { MAYAPY_BIN: "/opt/maya/bin/mayapy" })).toEqual({ kind: "mayapy" });
    expect(maya(["--maya", "simulated"], { MAYAPY_BIN: "/opt/x" })).toEqual({ kind: "simulated" });
    expect(maya(["--maya", "bin/mayapy"])).toEqual({ kind: "mayapy", path: "/w/bin/mayapy" });
    expect(maya([], { DCC_MAYA: "/opt/mayapy" })).toEqual({ kind: "mayapy", path: "/opt/mayapy" });
    expect(maya(["--maya-attach", "link/connection.json"])).toEqual({
      kind: "attach",
      connectionFile: "/w/link/connection.json",
    });
    expect(maya([], { DCC_MAYA_ATTACH: "/run/c.json" })).toEqual({
      kind: "attach",
      connectionFile: "/run/c.json",
    });
    expect(() => maya(["--maya", "mayapy", "--maya-attach", "c.json"])).toThrow(
      /--maya and --maya-attach name different Mayas/,
    );
  });

  it("serves a Maya installed on PATH or in MAYA_LOCATION when --dcc names maya, not by default", () => {
    const folder = mkdtempSync(join(tmpdir(), "dcc-cli-maya-"));
    try {
      mkdirSync(join(folder, "bin"));
      writeFileSync(join(folder, "bin", "mayapy"), "#!/bin/sh\n", { mode: 0o755 });
      const maya = (argv: string[], env: Record<string, string>) =>
        parseCliArguments(argv, env, "/w").maya;
      const onPath = { PATH: join(folder, "bin") };
      expect(maya(["--dcc", "maya"], onPath)).toEqual({ kind: "mayapy" });
      expect(maya([], { ...onPath, DCC_MCP_DCC: "maya,blender" })).toEqual({ kind: "mayapy" });
      expect(maya(["--dcc", "maya"], { MAYA_LOCATION: folder })).toEqual({ kind: "mayapy" });
      // The default server keeps the simulation; so does --dcc maya without a Maya, or when asked.
      expect(maya([], onPath)).toEqual({ kind: "simulated" });
      expect(maya(["--dcc", "maya"], { PATH: folder })).toEqual({ kind: "simulated" });
      expect(maya(["--dcc", "maya", "--maya", "simulated"], onPath)).toEqual({ kind: "simulated" });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("takes how Blender runs from the flag, then DCC_BLENDER_WINDOW, and refuses other values", () => {
    expect(parseCliArguments(["--blender-window", "xvfb"], {}, "/w").blenderWindow).toBe("xvfb");
    expect(parseCliArguments([], { DCC_BLENDER_WINDOW: "display" }, "/w").blenderWindow).toBe(
      "display",
    );
    expect(() => parseCliArguments(["--blender-window", "gui"], {}, "/w")).toThrow(
      /Invalid Blender window: gui \(expected none, xvfb, display\)/,
    );
  });

  it("takes the OS sandbox of launched DCCs from --sandbox, then DCC_SANDBOX, and refuses other values", () => {
    expect(parseCliArguments(["--sandbox", "off"], { DCC_SANDBOX: "on" }, "/w").sandbox).toBe(
      "off",
    );
    expect(parseCliArguments([], { DCC_SANDBOX: "off" }, "/w").sandbox).toBe("off");
    expect(parseCliArguments([], { DCC_SANDBOX: "" }, "/w").sandbox).toBe("auto");
    expect(() => parseCliArguments(["--sandbox", "no"], {}, "/w")).toThrow(
      '--sandbox must be "auto", "on" or "off", not "no"',
    );
    expect(() => parseCliArguments([], { DCC_SANDBOX: "1" }, "/w")).toThrow(
      'DCC_SANDBOX must be "auto", "on" or "off", not "1"',
    );
    expect(usage).toMatch(/--sandbox <auto\|on\|off>/);
  });

  it("attaches to the artist's Blender by connection file or auto, serving blender", () => {
    expect(parseCliArguments(["--blender-attach", "link/connection.json"], {}, "/w")).toMatchObject(
      {
        blenderAttach: "/w/link/connection.json",
        dcc: ["blender"],
      },
    );
    expect(
      parseCliArguments(["--dcc", "maya,blender"], { DCC_BLENDER_ATTACH: "auto" }, "/w"),
    ).toMatchObject({ blenderAttach: "auto", dcc: ["maya", "blender"] });
    expect(parseCliArguments([], {}, "/w").blenderAttach).toBeUndefined();
    expect(() =>
      parseCliArguments(["--dcc", "maya", "--blender-attach", "auto"], {}, "/w"),
    ).toThrow(/--blender-attach needs blender among the DCCs \(--dcc maya\)/);
    expect(() => parseCliArguments(["--blender-attach", " "], {}, "/w")).toThrow(CliUsageError);
  });

  it("reads flags before the environment", () => {
    const env = {
      DCC_MCP_PORT: "9000",
      DCC_MCP_HOST: "0.0.0.0",
      DCC_MCP_TOKEN: "t".repeat(16),
      DCC_MCP_DATA_DIR: "/data",
      DCC_MCP_SCRIPTS_DIR: "/scripts",
    };
    expect(parseCliArguments([], env, "/w")).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      token: "t".repeat(16),
      dataDir: "/data",
      scriptsDir: "/scripts",
    });
    expect(
      parseCliArguments(
        [
          "--port",
          "0",
          "--host",
          "localhost",
          "--token",
          "x".repeat(20),
          "--data-dir",
          "s",
          "--scripts-dir",
          "m",
          "--stdio",
        ],
        env,
        "/w",
      ),
    ).toMatchObject({
      transport: "stdio",
      port: 0,
      host: "localhost",
      token: "x".repeat(20),
      dataDir: "/w/s",
      scriptsDir: "/w/m",
    });
    expect(parseCliArguments(["-h"], {}, "/w").help).toBe(true);
  });

  it("rejects unknown flags and bad ports", () => {
    expect(() => parseCliArguments(["--bogus"], {}, "/w")).toThrow(CliUsageError);
    expect(() => parseCliArguments(["--port", "http"], {}, "/w")).toThrow(/Invalid port: http/);
    expect(() => parseCliArguments([], { DCC_MCP_PORT: "70000" }, "/w")).toThrow(
      /Invalid port: 70000/,
    );
  });

  it("reads the DCCs from --dcc before DCC_MCP_DCC, and names the known ones for a bad list", () => {
    expect(parseCliArguments([], {}, "/w").dcc).toBeUndefined();
    expect(parseCliArguments([], { DCC_MCP_DCC: " maya " }, "/w").dcc).toEqual(["maya"]);
    expect(parseCliArguments(["--dcc", "maya"], { DCC_MCP_DCC: "nope" }, "/w").dcc).toEqual([
      "maya",
    ]);
    expect(parseCliArguments(["--dcc", "maya,blender"], {}, "/w").dcc).toEqual(["maya", "blender"]);
    expect(() => parseCliArguments(["--dcc", "maya,houdini"], {}, "/w")).toThrow(
      new CliUsageError('Unknown DCC: "houdini" (known: blender, maya)'),
    );
    expect(() => parseCliArguments(["--dcc", "maya,maya"], {}, "/w")).toThrow(/named twice/);
    expect(() => parseCliArguments(["--dcc", ","], {}, "/w")).toThrow(/at least one DCC/);
  });
});
