/** `@dcc/catalog`: placeholder entry point, filled by its package work. */
export {};
