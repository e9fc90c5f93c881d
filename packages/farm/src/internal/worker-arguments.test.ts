import { describe, expect, it } from "vitest";
import { parseWorkerArguments, wantsUsage } from "./worker-arguments.ts";

describe("parseWorkerArguments", () => {
  it("takes the DCC, pool, data folder and Redis from flags, the password from the environment", () => {
    expect(
      parseWorkerArguments(
        [
          "--dcc",
          "blender",
          "--data-dir",
          "/scenes",
          "--redis",
          "redis://farm:6379",
          "--redis-tls",
        ],
        { DCC_FARM_REDIS_PASSWORD: "secret" },
      ),
    ).toEqual({
      dcc: "blender",
      pool: "blender",
      dataDir: "/scenes",
      redis: { url: "redis://farm:6379", password: "secret", tls: true },
    });
    expect(
      parseWorkerArguments(["--dcc", "maya", "--pool", "lighting", "--lock-duration-ms", "5000"], {
        DCC_FARM_REDIS_URL: "redis://queue:6380",
      }),
    ).toEqual({
      dcc: "maya",
      pool: "lighting",
      redis: { url: "redis://queue:6380" },
      lockDurationMs: 5000,
    });
  });

  it("takes an audit log file, with or without the scripts' text", () => {
    expect(
      parseWorkerArguments(["--dcc", "maya", "--audit-log", "/var/log/dcc/jobs.jsonl"], {}),
    ).toMatchObject({ auditLog: "/var/log/dcc/jobs.jsonl" });
    expect(
      parseWorkerArguments(["--dcc", "maya", "--audit-log", "a.jsonl", "--audit-no-script"], {}),
    ).toMatchObject({ auditLog: "a.jsonl", auditScript: false });
    expect(parseWorkerArguments(["--dcc", "maya"], {})).not.toHaveProperty("auditLog");
    expect(() => parseWorkerArguments(["--dcc", "maya", "--audit-log", ""], {})).toThrow(
      /--audit-log must name a file/,
    );
  });

  it("takes the sandbox mode, and refuses one it does not know", () => {
    for (const sandbox of ["auto", "on", "off"] as const) {
      expect(parseWorkerArguments(["--dcc", "blender", "--sandbox", sandbox], {})).toMatchObject({
        sandbox,
      });
    }
    expect(parseWorkerArguments(["--dcc", "blender"], {})).not.toHaveProperty("sandbox");
    expect(() => parseWorkerArguments(["--dcc", "blender", "--sandbox", "maybe"], {})).toThrow(
      '--sandbox must be auto, on or off, not "maybe"',
    );
  });

  it("takes the approval rules from --ask, else DCC_MCP_ASK, and custom rules from --ask-rule", () => {
    const maya = ["--dcc", "maya"];
    expect(parseWorkerArguments([...maya, "--ask", "delete, overwrite,delete"], {})).toMatchObject({
      approval: { ask: ["delete", "overwrite"] },
    });
    expect(parseWorkerArguments(maya, { DCC_MCP_ASK: "render" })).toMatchObject({
      approval: { ask: ["render"] },
    });
    // The flag wins, and an empty one turns the environment's rules off.
    expect(
      parseWorkerArguments([...maya, "--ask", "open"], { DCC_MCP_ASK: "render" }),
    ).toMatchObject({ approval: { ask: ["open"] } });
    expect(
      parseWorkerArguments([...maya, "--ask", ""], { DCC_MCP_ASK: "render" }),
    ).not.toHaveProperty("approval");
    expect(parseWorkerArguments(maya, {})).not.toHaveProperty("approval");

    const parsed = parseWorkerArguments(
      [...maya, "--ask", "delete,publish", "--ask-rule", "publish=exportAll,file"],
      {},
    );
    expect(parsed.approval?.ask).toEqual(["delete", "publish"]);
    expect(parsed.approval?.rules).toHaveLength(1);
    expect(parsed.approval?.rules?.[0]).toMatchObject({
      name: "publish",
      commands: ["exportAll", "file"],
    });
  });

  it("refuses approval flags it cannot use, naming the problem", () => {
    const maya = ["--dcc", "maya"];
    expect(() => parseWorkerArguments([...maya, "--ask", "delete,nuke"], {})).toThrow(
      'Unknown approval rule "nuke" in --ask: use one of delete, overwrite, open, render, or define it with --ask-rule nuke=<command,...>',
    );
    expect(() => parseWorkerArguments(maya, { DCC_MCP_ASK: "Delete" })).toThrow(
      'Unknown approval rule "Delete" in DCC_MCP_ASK',
    );
    expect(() =>
      parseWorkerArguments([...maya, "--ask", "delete", "--ask-rule", "delete=delete"], {}),
    ).toThrow("--ask-rule delete: delete is a shared rule");
    expect(() =>
      parseWorkerArguments([...maya, "--ask", "x", "--ask-rule", "Publish=file"], {}),
    ).toThrow("the rule's name must be kebab-case");
    expect(() =>
      parseWorkerArguments([...maya, "--ask", "publish", "--ask-rule", "publish"], {}),
    ).toThrow("name the commands it covers, e.g. --ask-rule publish=exportAll,file");
    expect(() =>
      parseWorkerArguments(
        [...maya, "--ask", "publish", "--ask-rule", "publish=file,,exportAll"],
        {},
      ),
    ).toThrow("name the commands it covers");
    expect(() =>
      parseWorkerArguments(
        [
          ...maya,
          "--ask",
          "publish",
          "--ask-rule",
          "publish=file",
          "--ask-rule",
          "publish=exportAll",
        ],
        {},
      ),
    ).toThrow("--ask-rule publish is defined twice");
    expect(() => parseWorkerArguments([...maya, "--ask-rule", "publish=file"], {})).toThrow(
      "--ask-rule publish defines a rule that is not on: add it to DCC_MCP_ASK (e.g. --ask publish)",
    );
  });

  it("names what is wrong", () => {
    expect(() => parseWorkerArguments([], {})).toThrow("--dcc is required");
    expect(() => parseWorkerArguments(["--dcc", "maya", "--lock-duration-ms", "soon"], {})).toThrow(
      "--lock-duration-ms must be a whole number",
    );
    expect(() => parseWorkerArguments(["--dcc", "maya", "--data-dir", ""], {})).toThrow(
      "--data-dir must name a folder",
    );
    expect(() => parseWorkerArguments(["--dcc", "maya", "--colour", "red"], {})).toThrow(/colour/);
  });

  it("refuses a Redis URL that holds a password, as the reference server does, without repeating it", () => {
    let message = "";
    try {
      parseWorkerArguments(["--dcc", "maya", "--redis", "redis://:hunter2-secret@farm:6379"], {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/holds a password: leave it out and set DCC_FARM_REDIS_PASSWORD/);
    expect(message).not.toContain("hunter2-secret");
  });
});

describe("wantsUsage", () => {
  it("is true for --help or -h anywhere before --, false otherwise", () => {
    expect(wantsUsage(["--help"])).toBe(true);
    expect(wantsUsage(["--dcc", "maya", "-h"])).toBe(true);
    expect(wantsUsage(["--dcc", "maya"])).toBe(false);
    expect(wantsUsage(["--", "--help"])).toBe(false);
  });
});
