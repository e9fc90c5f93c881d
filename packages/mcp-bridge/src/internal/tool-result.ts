// Turns an executor envelope into an MCP tool result: structuredContent plus the same JSON as text,
// isError when success is false. Oversized envelopes are trimmed structurally (whole array items,
// object keys, string tails), never by cutting serialised JSON. The executor cuts an output over
// its own, larger limit the same way (see @dcc/executor's guest serializer); its `truncated`
// report then travels inside this one as `outputOverLimit`.
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { BridgeResult } from "../bridge-executor.ts";
import { shapeBesideImages, splitImages } from "./image-content.ts";

interface ShrinkLimits {
  items: number;
  keys: number;
  chars: number;
  depth: number;
}

/**
 * Builds the tool result, trimming `output` and `logs` when the JSON exceeds `maxChars`. Images
 * the envelope carries follow the text as `image` content; the JSON keeps their metadata.
 */
export function toToolResult(withImages: BridgeResult, maxChars: number): CallToolResult {
  const { envelope: result, blocks } = splitImages(withImages);
  // The common case serialises once: the length check and the text content share one string.
  const text = JSON.stringify(result) ?? "";
  const shaped = text.length <= maxChars ? result : fitResult(result, maxChars);
  return {
    content: [{ type: "text", text: shaped === result ? text : JSON.stringify(shaped) }, ...blocks],
    structuredContent: shaped,
    ...(shaped.success ? {} : { isError: true }),
  };
}

/**
 * Returns `result` unchanged when it fits, else a copy with a `truncated` report. Image bytes
 * the envelope carries are kept apart from the budget (they are bounded on their own).
 */
export function fitResult(result: BridgeResult, maxChars: number): BridgeResult {
  return shapeBesideImages(result, (rest) => fitJson(rest, maxChars));
}

function fitJson(result: BridgeResult, maxChars: number): BridgeResult {
  const originalChars = safeLength(result);
  if (originalChars <= maxChars) return result;
  // An output the executor already cut to its own limit keeps that report inside this one.
  const earlier = result["truncated"];
  const report = (chars: number): Record<string, unknown> =>
    earlier === undefined ? cutReport(chars) : { ...cutReport(chars), outputOverLimit: earlier };
  let limits: ShrinkLimits = { items: 200, keys: 200, chars: 4000, depth: 8 };
  for (let round = 0; round < 12; round += 1) {
    const candidate = shrinkEnvelope(result, limits);
    const length = safeLength(candidate);
    // The report counts against the budget too.
    const fitted = { ...candidate, truncated: { ...report(originalChars), keptChars: length } };
    if (safeLength(fitted) <= maxChars) return fitted;
    limits = {
      items: Math.max(1, Math.floor(limits.items / 2)),
      keys: Math.max(1, Math.floor(limits.keys / 2)),
      chars: Math.max(16, Math.floor(limits.chars / 2)),
      depth: Math.max(1, limits.depth - 1),
    };
  }
  // Nothing structural fits: keep the envelope's own fields and drop the payload.
  const { output: _output, logs: _logs, results: _results, ...rest } = result;
  const bare: BridgeResult = { ...rest, success: result.success, message: result.message };
  return {
    ...bare,
    truncated: {
      ...report(originalChars),
      keptChars: safeLength(bare),
      dropped: ["output", "logs", "results"],
    },
  };
}

function cutReport(originalChars: number): Record<string, unknown> {
  return {
    originalChars,
    note: "The result was too large; arrays, objects and strings were shortened. Return less, or page through the data.",
  };
}

function shrinkEnvelope(result: BridgeResult, limits: ShrinkLimits): BridgeResult {
  const copy: BridgeResult = { ...result };
  for (const field of ["output", "results", "error", "context"]) {
    if (field in copy) copy[field] = shrink(copy[field], limits, 0);
  }
  if ("logs" in copy) copy["logs"] = shrinkLogs(copy["logs"], limits);
  return copy;
}

/**
 * Log entries keep their shape: the first and the last ones stay (a script's last lines, and
 * the executor's note of entries it dropped, are often what matters), and one warning entry in
 * between says how many were left out.
 */
function shrinkLogs(logs: unknown, limits: ShrinkLimits): unknown {
  if (!Array.isArray(logs)) return shrink(logs, limits, 0);
  const entry = (item: unknown): unknown => shrink(item, limits, 1);
  if (logs.length <= limits.items) return logs.map(entry);
  const tail = Math.floor(limits.items / 2);
  const head = limits.items - tail;
  const omitted = logs.length - limits.items;
  return [
    ...logs.slice(0, head).map(entry),
    {
      level: "warn",
      message: `[${omitted} log entr${omitted === 1 ? "y" : "ies"} left out here to fit the result]`,
    },
    ...logs.slice(logs.length - tail).map(entry),
  ];
}

function shrink(value: unknown, limits: ShrinkLimits, depth: number): unknown {
  if (typeof value === "string") {
    return value.length <= limits.chars
      ? value
      : `${value.slice(0, limits.chars)}… [${value.length - limits.chars} more chars]`;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= limits.depth)
    return Array.isArray(value) ? `[array of ${value.length}]` : "[object]";
  if (Array.isArray(value)) {
    const kept = value.slice(0, limits.items).map((item) => shrink(item, limits, depth + 1));
    if (value.length > limits.items) kept.push(`… ${value.length - limits.items} more items`);
    return kept;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries.slice(0, limits.keys))
    out[key] = shrink(item, limits, depth + 1);
  if (entries.length > limits.keys) out["…"] = `${entries.length - limits.keys} more keys`;
  return out;
}

function safeLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}
