// pino-roll ships no types; this is the part the audit log uses.
declare module "pino-roll" {
  import type { EventEmitter } from "node:events";

  /** The SonicBoom stream pino-roll returns. */
  interface RollingStream extends EventEmitter {
    write(text: string): boolean;
    flush(callback?: (error?: Error) => void): void;
    end(): void;
    destroy(): void;
  }

  interface PinoRollOptions {
    file: string;
    size?: string | number;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
    mkdir?: boolean;
    maxLength?: number;
    sync?: boolean;
  }

  function pinoRoll(options: PinoRollOptions): Promise<RollingStream>;
  // biome-ignore lint/style/noDefaultExport: pino-roll is a CommonJS function export.
  export default pinoRoll;
}
