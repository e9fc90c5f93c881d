import { createAdapterExecutor, type DccApiExecutor } from "@dcc/executor";
import { afterEach, describe, expect, it } from "vitest";
import { createEchoAdapter } from "./echo-adapter.ts";

let executor: DccApiExecutor | undefined;
afterEach(async () => {
  await executor?.close();
  executor = undefined;
});

describe("the echo adapter", { timeout: 60_000 }, () => {
  it("keeps said lines, checks arguments, and clears its log on start and close", async () => {
    const echo = createEchoAdapter();
    await echo.start?.({ signal: new AbortController().signal, reportHost: () => {} });
    executor = createAdapterExecutor(echo);
    const result = await executor.execute(
      'dispatch("say", { text: "a" }); dispatch("say", { text: "b" }); try { dispatch("say", {}); } catch (error) { return [dispatch("history"), error.code]; }',
    );
    expect(result).toMatchObject({ success: true, output: [["a", "b"], "INVALID_ARGS"] });
    expect(echo.lines).toEqual(["a", "b"]);
    await echo.close?.();
    expect(echo.lines).toEqual([]);
  });

  it("stops a waiting command when the script is cancelled, freeing the host at once", async () => {
    const echo = createEchoAdapter();
    executor = createAdapterExecutor(echo);
    const controller = new AbortController();
    const running = executor.execute(
      'dispatch("say", { text: "waiting" }); return await dispatch("wait", 60000);',
      { signal: controller.signal },
    );
    const deadline = Date.now() + 30_000;
    while (!echo.lines.includes("waiting") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort("stop");
    expect(await running).toMatchObject({ success: false, errorCode: "CANCELLED" });
    // A wait that ignored its signal would still hold the host, and this would be HOST_BUSY.
    expect(await executor.execute('return dispatch("history");')).toMatchObject({
      success: true,
      output: ["waiting"],
    });
  });

  it("describes its commands in the catalog without their handlers", () => {
    const records = [...createEchoAdapter().catalog()];
    expect(records.map((record) => record.name)).toEqual([
      "echo",
      "say",
      "history",
      "capture",
      "wait",
    ]);
    for (const record of records)
      expect(Object.keys(record).sort()).toEqual(["description", "name", "signature"]);
  });
});
