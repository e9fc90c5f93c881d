/**
 * `@dcc/link`: a framed, bounded, authenticated RPC link from Node to a DCC process, and the
 * process launcher around it. It sits above `@dcc/cancel` (its only `@dcc` dependency) and below
 * the DCC adapters (`@dcc/blender`, `@dcc/maya`). Its DCC-neutral Python side ships in
 * `python/dcc_link` (see {@link linkPythonPath}).
 */

export { linkPythonPath } from "./python-path.ts";
