// How an approval question is put to an MCP client: one form-mode elicitation with a single yes/no
// field, the same on both revisions (sent during the call on 2025-11-25, embedded in an
// `input_required` result on 2026-07-28), and how its answer is read.
import type { ApprovalAnswer, ApprovalQuestion, Approver } from "@dcc/executor";
import type { ElicitRequestFormParams, ServerContext } from "@modelcontextprotocol/server";

/** The form's one field. */
const field = "approve";

/** The elicitation that asks `question`. */
export function approvalForm(question: ApprovalQuestion): ElicitRequestFormParams {
  return {
    mode: "form",
    message: `${question.dccName}: a script wants to ${question.summary}. Allow it? (rule '${question.rule}': ${question.ruleDescription}; the answer covers the rest of this script)`,
    requestedSchema: {
      type: "object",
      properties: {
        [field]: {
          type: "boolean",
          title: `Allow: ${question.summary}`.slice(0, 120),
          description: `Yes runs the command; no makes it fail with APPROVAL_DENIED (rule '${question.rule}').`,
          default: false,
        },
      },
      required: [field],
    },
  };
}

/**
 * Reads a client's elicitation result: accepted with the box ticked is a yes; accepted without
 * it, or declined, is a no; cancelled (dismissed) or anything unreadable is `cancelled`.
 */
export function approvalAnswer(result: unknown, by: string | undefined): ApprovalAnswer {
  const answer =
    typeof result === "object" && result !== null ? (result as Record<string, unknown>) : {};
  const action = answer["action"];
  const content = answer["content"];
  if (action === "accept") {
    const yes =
      typeof content === "object" &&
      content !== null &&
      (content as Record<string, unknown>)[field] === true;
    return yes ? { approved: true, by } : { approved: false, reason: "declined", by };
  }
  if (action === "decline") return { approved: false, reason: "declined", by };
  return { approved: false, reason: "cancelled", by };
}

/** Whether `capabilities` declare form-mode elicitation (an empty `elicitation` means form). */
export function canElicitForm(capabilities: unknown): boolean {
  const elicitation = (capabilities as { elicitation?: unknown } | undefined)?.elicitation;
  if (typeof elicitation !== "object" || elicitation === null) return false;
  const modes = elicitation as Record<string, unknown>;
  return modes["form"] !== undefined || modes["url"] === undefined;
}

/** Denies at once: the client cannot ask anybody. */
export const unanswerable: Approver = async () => ({
  approved: false,
  reason: "unanswerable",
});

/** Longest an elicitation request may wait on the SDK's side; the question's own bound is shorter. */
const requestTimeoutMs = 24 * 60 * 60 * 1000;

/**
 * Asks through `elicitation/create` during the call (2025-11-25). A withdrawn question (the
 * script stopped, or the bound passed) cancels the request, which the SDK tells the client.
 */
export function elicitingApprover(extra: ServerContext, by: string | undefined): Approver {
  return async (question) => {
    const result = await extra.mcpReq.elicitInput(approvalForm(question), {
      signal: question.signal,
      timeout: requestTimeoutMs,
    });
    return approvalAnswer(result, by);
  };
}
