/** `@dcc/mcp-bridge`: placeholder entry point, filled by its package work. */
export {};
