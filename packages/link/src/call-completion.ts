/**
 * What a failed call did on the host: `complete` (the host finished it: its handler ran to an
 * answer, an error included), `not_started` (the host never ran it), or `unknown` (the link
 * died or the caller stopped waiting while it might be running). The same values as
 * `ExecuteCompletion` in `@dcc/executor`.
 */
export type CallCompletion = "complete" | "not_started" | "unknown";
