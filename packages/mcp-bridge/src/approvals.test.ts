// Approval rules end to end: the real SDK clients of both revisions against a server started with
// an `ask` rule. On 2025-11-25 the server asks with elicitation/create during the call; on
// 2026-07-28 it answers input_required and the client retries the call with the answer.
import { DccApiCatalog } from "@dcc/catalog";
import type { CommandDefinition, DccAdapter } from "@dcc/executor";
import {
  connectClient,
  type ElicitAnswer,
  type ElicitParams,
  type Revision,
  revisions,
  type TestClient,
} from "@dcc/mcp-test-clients";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CreateDccServerOptions,
  createDccServer,
  type DccServer,
} from "./create-dcc-server.ts";
import type { DccToolCallEvent } from "./dcc-tool-call-event.ts";
import { auditLine } from "./internal/audit-line.ts";

/** A scene of named nodes, with a transaction that restores it, and a `delete` rule on `remove`. */
function sceneAdapter(): DccAdapter & { nodes: Set<string>; removed: string[] } {
  const nodes = new Set<string>();
  const removed: string[] = [];
  const commands: CommandDefinition[] = [
    {
      name: "create",
      description: "Create a node",
      handler: (args) => {
        const name = (args as { name: string }).name;
        nodes.add(name);
        return name;
      },
    },
    {
      name: "remove",
      description: "Delete nodes",
      handler: (args) => {
        for (const name of (args as { names: string[] }).names) {
          nodes.delete(name);
          removed.push(name);
        }
        return null;
      },
    },
    { name: "list", description: "List nodes", readOnly: true, handler: () => [...nodes].sort() },
    {
      name: "render",
      description: "Render a frame",
      handler: () => "rendered",
    },
  ];
  return {
    dccName: "scene",
    nodes,
    removed,
    commands: () => commands,
    catalog: () =>
      new DccApiCatalog("scene", {
        catalogText:
          "create - Create a node\nremove - Delete nodes\nlist - List nodes\nrender - Render a frame",
      }),
    approvalRules: () => [
      {
        name: "delete",
        description: "deleting nodes",
        commands: ["remove"],
        covers: ({ args }) => {
          const names = (args as { names: string[] }).names;
          return `delete ${names.length} node${names.length === 1 ? "" : "s"}: ${names.join(", ")}`;
        },
      },
      { name: "render", description: "renders", commands: ["render"] },
    ],
    async beginTransaction() {
      const before = new Set(nodes);
      return {
        commit: async () => ({ rolledBack: false }),
        rollback: async () => {
          nodes.clear();
          for (const name of before) nodes.add(name);
          return { rolledBack: true };
        },
      };
    },
  };
}

let server: DccServer | undefined;
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await server?.close();
  server = undefined;
});

interface Asked {
  params: ElicitParams;
  signal: AbortSignal;
}

const aliceToken = "alice-token-0123456789";

async function serve(
  revision: Revision,
  options: Partial<CreateDccServerOptions> & { adapter?: ReturnType<typeof sceneAdapter> },
  answer?: (asked: Asked) => Promise<ElicitAnswer>,
  headers?: Record<string, string>,
): Promise<{ client: TestClient; adapter: ReturnType<typeof sceneAdapter>; asked: Asked[] }> {
  const adapter = options.adapter ?? sceneAdapter();
  server = await createDccServer({
    port: 0,
    adapters: [adapter],
    approval: { ask: ["delete"] },
    ...options,
  });
  const asked: Asked[] = [];
  const { client } = await connectClient(
    revision,
    { kind: "http", url: server.url as string, ...(headers === undefined ? {} : { headers }) },
    answer === undefined
      ? {}
      : {
          onElicit: (params, signal) => {
            const question = { params, signal };
            asked.push(question);
            return answer(question);
          },
        },
  );
  clients.push(client);
  return { client, adapter, asked };
}

async function run(
  client: TestClient,
  code: string,
  options: { signal?: AbortSignal; meta?: Record<string, unknown> } = {},
): Promise<Record<string, unknown>> {
  const result = await client.callTool(
    {
      name: "dcc_execute",
      arguments: { code },
      ...(options.meta === undefined ? {} : { _meta: options.meta }),
    },
    { timeout: 120_000, ...(options.signal === undefined ? {} : { signal: options.signal }) },
  );
  return result.structuredContent as Record<string, unknown>;
}

const yes = async (): Promise<ElicitAnswer> => ({ action: "accept", content: { approve: true } });

const setup = `dispatch("create", { name: "a" }); dispatch("create", { name: "b" }); dispatch("create", { name: "c" });`;

describe.each(revisions)("approval rules (%s)", { timeout: 120_000 }, (revision) => {
  it("asks once, naming what the command touches, and runs it on yes", async () => {
    const events: DccToolCallEvent[] = [];
    const { client, adapter, asked } = await serve(
      revision,
      {
        onToolCall: (event) => events.push(event),
        tokens: [{ label: "alice", token: aliceToken }],
      },
      yes,
      { authorization: `Bearer ${aliceToken}` },
    );
    const result = await run(
      client,
      `${setup}
       dispatch("remove", { names: ["a", "b"] });
       dispatch("remove", { names: ["c"] });
       return dispatch("list", {});`,
    );
    expect(result["success"]).toBe(true);
    expect(result["output"]).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.params.message).toContain("delete 2 nodes: a, b");
    expect(asked[0]?.params.message).toContain("rule 'delete'");
    const approvals = (result["stats"] as { approvals: unknown[] }).approvals;
    expect(approvals).toEqual([
      expect.objectContaining({
        rule: "delete",
        command: "remove",
        summary: "delete 2 nodes: a, b",
        answer: "approved",
        by: "alice",
      }),
    ]);
    expect(adapter.removed).toEqual(["a", "b", "c"]);
    // The audit line records the question, the answer and who answered.
    expect(events).toHaveLength(1);
    expect(auditLine(events[0] as DccToolCallEvent, false).approvals).toEqual([
      expect.objectContaining({
        rule: "delete",
        command: "remove",
        summary: "delete 2 nodes: a, b",
        answer: "approved",
        by: "alice",
      }),
    ]);
    // The whole call, also on 2026-07-28 where it took two requests: its job id and duration.
    expect(events[0]?.jobId).toEqual(expect.any(String));
    expect(auditLine(events[0] as DccToolCallEvent, false).job_id).toBe(events[0]?.jobId);
  });

  it("denies on no: the command does not run and the script can catch APPROVAL_DENIED", async () => {
    const { client, adapter, asked } = await serve(revision, {}, async () => ({
      action: "decline",
    }));
    const result = await run(
      client,
      `${setup}
       let denied;
       try { dispatch("remove", { names: ["a"] }); } catch (error) { denied = { code: error.code, message: error.message, data: error.data }; }
       let again;
       try { dispatch("remove", { names: ["b"] }); } catch (error) { again = error.code; }
       return { denied, again, nodes: dispatch("list", {}) };`,
    );
    expect(result["success"]).toBe(true);
    const output = result["output"] as Record<string, unknown>;
    expect(output["denied"]).toMatchObject({
      code: "APPROVAL_DENIED",
      data: { rule: "delete", reason: "declined" },
    });
    expect(String((output["denied"] as { message: string }).message)).toContain("delete 1 node: a");
    // One answer covers the rest of the script for the rule.
    expect(output["again"]).toBe("APPROVAL_DENIED");
    expect(asked).toHaveLength(1);
    expect(output["nodes"]).toEqual(["a", "b", "c"]);
    expect(adapter.removed).toEqual([]);
  });

  it("treats an accepted form without the box ticked, and a dismissed question, as no", async () => {
    const answers: ElicitAnswer[] = [
      { action: "accept", content: { approve: false } },
      { action: "cancel" },
    ];
    const { client, adapter } = await serve(
      revision,
      {},
      async () => answers.shift() as ElicitAnswer,
    );
    for (const reason of ["declined", "cancelled"]) {
      const result = await run(
        client,
        `try { dispatch("remove", { names: ["x"] }); return "ran"; } catch (error) { return error.data; }`,
      );
      expect(result["output"]).toEqual({ rule: "delete", reason });
    }
    expect(adapter.removed).toEqual([]);
  });

  it("tells the agent in the instructions which rules ask", async () => {
    const { client } = await serve(revision, {});
    expect(client.getInstructions()).toMatch(
      /commands under the rules delete wait until the user approves them.*APPROVAL_DENIED/s,
    );
  });

  it("asks nothing for a command outside the rules that are on", async () => {
    const { client, asked } = await serve(revision, {}, yes);
    const result = await run(
      client,
      `${setup} dispatch("render", {}); return dispatch("list", {});`,
    );
    expect(result["output"]).toEqual(["a", "b", "c"]);
    expect(asked).toHaveLength(0);
    expect((result["stats"] as Record<string, unknown>)["approvals"]).toBeUndefined();
  });

  it("denies at once, saying why, when the client cannot ask anybody", async () => {
    const { client, adapter } = await serve(revision, {});
    const result = await run(
      client,
      `try { dispatch("remove", { names: ["a"] }); return "ran"; } catch (error) { return { code: error.code, message: error.message, data: error.data }; }`,
    );
    const output = result["output"] as { code: string; message: string; data: unknown };
    expect(output.code).toBe("APPROVAL_DENIED");
    expect(output.data).toEqual({ rule: "delete", reason: "unanswerable" });
    expect(output.message).toContain("this server asks a person before such commands");
    expect(adapter.removed).toEqual([]);
  });

  it("denies a command nobody answers for within the bound", async () => {
    const events: DccToolCallEvent[] = [];
    const { client, adapter, asked } = await serve(
      revision,
      {
        approval: { ask: ["delete"], timeoutSecs: 1 },
        onToolCall: (event) => events.push(event),
      },
      // Never answers; gives up only when the question is withdrawn or the call ends.
      (question) => untilAborted(question.signal),
    );
    const giveUp = new AbortController();
    const started = run(
      client,
      `${setup} try { dispatch("remove", { names: ["a"] }); return "ran"; } catch (error) { return error.data; }`,
      { signal: giveUp.signal },
    );
    if (revision === "2025-11-25") {
      const result = await started;
      expect(result["output"]).toEqual({ rule: "delete", reason: "timeout" });
      expect([...adapter.nodes].sort()).toEqual(["a", "b", "c"]);
    } else {
      // On 2026-07-28 an unanswered question means the client never retried the call: nobody is
      // left to receive the result, so the script stops and its changes are rolled back; the
      // audit still hears of it.
      await eventually(() => events.length === 1);
      expect(events[0]?.result).toMatchObject({
        errorCode: "CANCELLED",
        rollback: { rolledBack: true },
        stats: { approvals: [{ rule: "delete", answer: "timeout" }] },
      });
      expect(adapter.nodes.size).toBe(0);
      giveUp.abort();
      await expect(started).rejects.toThrow();
    }
    expect(asked).toHaveLength(1);
    expect(adapter.removed).toEqual([]);
  });

  it("withdraws the open question when the call is cancelled, and rolls the script back", async () => {
    const abort = new AbortController();
    let askedOnce: () => void = () => {};
    const askedPromise = new Promise<void>((resolve) => {
      askedOnce = resolve;
    });
    const events: DccToolCallEvent[] = [];
    const { client, adapter } = await serve(
      revision,
      // A short bound, so that a 2026-07-28 client's leaving is noticed soon.
      { approval: { ask: ["delete"], timeoutSecs: 2 }, onToolCall: (event) => events.push(event) },
      (question) => {
        askedOnce();
        return untilAborted(question.signal);
      },
    );
    const started = run(client, `${setup} dispatch("remove", { names: ["a"] }); return "ran";`, {
      signal: abort.signal,
    });
    await askedPromise;
    expect([...adapter.nodes].sort()).toEqual(["a", "b", "c"]);
    abort.abort();
    await expect(started).rejects.toThrow();
    // The script stopped before the command ran, and its earlier changes were rolled back.
    await eventually(() => events.length === 1);
    expect(events[0]?.result).toMatchObject({
      errorCode: "CANCELLED",
      rollback: { rolledBack: true },
      stats: {
        approvals: [
          {
            rule: "delete",
            command: "remove",
            // 2026-07-28: the client left without a word, so the question ran out of time.
            answer: revision === "2025-11-25" ? "cancelled" : "timeout",
          },
        ],
      },
    });
    expect(adapter.nodes.size).toBe(0);
    expect(adapter.removed).toEqual([]);
  });

  it("lets a pre-approved async job through, and denies one that is not", async () => {
    const { client, adapter } = await serve(revision, {});
    const poll = async (meta?: Record<string, unknown>): Promise<unknown> => {
      const started = await run(
        client,
        `try { dispatch("create", { name: "n" }); dispatch("remove", { names: ["n"] }); return "ran"; } catch (error) { return error.data; }`,
        { meta: { dcc: { async: true, ...meta } } },
      );
      const jobId = started["job_id"] as string;
      let done: Record<string, unknown> | undefined;
      await eventually(async () => {
        const result = await client.callTool({
          name: "dcc_execute",
          arguments: { job_id: jobId, job_action: "result" },
        });
        const content = result.structuredContent as Record<string, unknown>;
        // A finished job's result is the script's envelope, with its stats.
        if (content["stats"] !== undefined) done = content;
        return done !== undefined;
      });
      return done;
    };
    const denied = (await poll()) as Record<string, unknown>;
    expect(denied["output"]).toEqual({ rule: "delete", reason: "no-one-to-ask" });
    const allowed = (await poll({ preapproved: ["delete"] })) as Record<string, unknown>;
    expect(allowed["output"]).toBe("ran");
    expect((allowed["stats"] as { approvals: unknown[] }).approvals).toEqual([
      expect.objectContaining({ rule: "delete", answer: "preapproved" }),
    ]);
    expect(adapter.removed).toEqual(["n"]);
  });
});

describe("approval settings", () => {
  it("refuses a bound over a day before anything starts", async () => {
    const adapter = sceneAdapter();
    let started = false;
    adapter.start = async () => {
      started = true;
    };
    await expect(
      createDccServer({
        port: 0,
        adapters: [adapter],
        approval: { ask: ["delete"], timeoutSecs: 100_000 },
      }),
    ).rejects.toThrow(/approval.timeoutSecs must be a number of seconds above 0 and at most 86400/);
    expect(started).toBe(false);
  });

  it("adds the approval note to instructions the server was given", async () => {
    server = await createDccServer({
      port: 0,
      adapters: [sceneAdapter()],
      instructions: "Our own words.",
      approval: { ask: ["delete"] },
    });
    const { client } = await connectClient("2025-11-25", {
      kind: "http",
      url: server.url as string,
    });
    clients.push(client);
    expect(client.getInstructions()).toMatch(
      /^Our own words\.\n\nApproval: commands under the rules delete/,
    );
  });

  it("refuses an unknown rule before anything starts", async () => {
    await expect(
      createDccServer({ port: 0, adapters: [sceneAdapter()], approval: { ask: ["delet"] } }),
    ).rejects.toThrow(/Unknown approval rule 'delet': use delete, overwrite, open, render/);
  });
});

/** A client that never answers: it gives up only when the question or its call goes away. */
function untilAborted(signal: AbortSignal): Promise<ElicitAnswer> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve({ action: "cancel" });
    signal.addEventListener("abort", () => resolve({ action: "cancel" }), { once: true });
  });
}

async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// The 2026-07-28 rounds seen from a client that answers them by hand (the v2 client's manual
// mode): what a retry must repeat, and what a late or repeated retry gets.
describe("approval rounds on 2026-07-28, answered by hand", { timeout: 120_000 }, () => {
  const script = `dispatch("create", { name: "a" }); dispatch("remove", { names: ["a"] }); return dispatch("list", {});`;
  type Round = {
    inputRequests?: Record<string, unknown>;
    requestState?: string;
    structuredContent?: Record<string, unknown>;
  };

  async function manualClient(): Promise<{
    call: (args: Record<string, unknown>, retry?: Record<string, unknown>) => Promise<Round>;
    close: () => Promise<void>;
  }> {
    const client = new ModernClient(
      { name: "by-hand", version: "1.0.0" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new ModernHttpTransport(new URL(server?.url as string)));
    return {
      call: async (args, retry = {}) =>
        (await client.callTool(
          { name: "dcc_execute", arguments: args, ...retry } as never,
          { allowInputRequired: true, timeout: 60_000 } as never,
        )) as unknown as Round,
      close: () => client.close(),
    };
  }

  it("refuses a retry with other arguments, and the paused script still takes the right one", async () => {
    const adapter = sceneAdapter();
    server = await createDccServer({ port: 0, adapters: [adapter], approval: { ask: ["delete"] } });
    const client = await manualClient();
    try {
      const first = await client.call({ code: script });
      const key = Object.keys(first.inputRequests ?? {})[0] as string;
      expect(key).toBeDefined();
      const yesTo = { inputResponses: { [key]: { action: "accept", content: { approve: true } } } };
      const other = await client.call(
        { code: 'return "something else";' },
        { ...yesTo, requestState: first.requestState },
      );
      expect(other.structuredContent).toMatchObject({
        success: false,
        errorCode: "INVALID_INPUT",
        message: expect.stringContaining("belongs to a different call"),
      });
      expect(adapter.removed).toEqual([]);
      const right = await client.call(
        { code: script },
        { ...yesTo, requestState: first.requestState },
      );
      expect(right.structuredContent).toMatchObject({ success: true, output: [] });
      expect(adapter.removed).toEqual(["a"]);
      // The same retry again (its answer lost on the way, say) gets the same result, not a rerun.
      const again = await client.call(
        { code: script },
        { ...yesTo, requestState: first.requestState },
      );
      expect(again.structuredContent).toMatchObject({ success: true, output: [] });
      expect(adapter.removed).toEqual(["a"]);
    } finally {
      await client.close();
    }
  });

  it("refuses a requestState it did not issue", async () => {
    server = await createDccServer({
      port: 0,
      adapters: [sceneAdapter()],
      approval: { ask: ["delete"] },
    });
    const client = await manualClient();
    try {
      const forged = await client.call(
        { code: script },
        { inputResponses: {}, requestState: "v1.e30.AAAA" },
      );
      expect(forged.structuredContent).toMatchObject({
        success: false,
        errorCode: "INVALID_INPUT",
        message: expect.stringContaining("not issued by this server"),
      });
    } finally {
      await client.close();
    }
  });
});

describe("progress after a question (2026-07-28)", { timeout: 120_000 }, () => {
  it("reaches the client on the retried request's own token", async () => {
    const { client } = await serve("2026-07-28", {}, yes);
    const seen: number[] = [];
    const result = await client.callTool(
      {
        name: "dcc_execute",
        arguments: {
          code: `progress(1, 10); dispatch("create", { name: "a" }); dispatch("remove", { names: ["a"] }); progress(9, 10); return 1;`,
        },
      },
      { timeout: 60_000, onprogress: (progress) => seen.push(progress.progress) },
    );
    expect(result.structuredContent).toMatchObject({ success: true, output: 1 });
    expect(seen).toContain(9);
  });
});
