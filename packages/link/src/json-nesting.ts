/**
 * `@dcc/link/json-nesting`: how deep serialised JSON nests, found by scanning its text once. The
 * link bounds the calls and replies it frames with it, and `@dcc/executor` the arguments of a
 * sandbox's `dispatch`. A subpath of its own so that the executor (and its sandbox workers) never
 * load the link.
 */
export { nestsDeeperThan } from "./internal/json-nesting.ts";
