/** `@dcc/executor`: placeholder entry point, filled by its package work. */
export {};
