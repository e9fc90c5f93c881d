import { describe, expect, it } from "vitest";
import { executeMessage } from "./execute-message.ts";

describe("executeMessage", () => {
  it("gives the sentence of each outcome, naming the DCC", () => {
    expect(executeMessage("maya")).toBe("Script executed successfully on maya.");
    expect(executeMessage("maya", "INVALID_INPUT")).toBe("Script parameters are invalid on maya.");
    expect(executeMessage("maya", "TIMEOUT")).toBe("Script timed out on maya.");
    expect(executeMessage("maya", "CANCELLED")).toBe("Script was cancelled on maya.");
    expect(executeMessage("blender", "SCRIPT_ERROR")).toBe("Script failed on blender.");
    expect(executeMessage("maya", "LIMIT_EXCEEDED")).toBe("Script failed on maya.");
    expect(executeMessage("maya", "INTERNAL")).toBe("Script failed on maya.");
  });
});
