// The parser ships no types; this is the shape of its output (prom2json's), as the tests read it.
declare module "parse-prometheus-text-format" {
  /** One sample of a family; values are strings as written in the text. */
  export interface ParsedSample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  /** One metric family. */
  export interface ParsedFamily {
    name: string;
    help: string;
    type: string;
    metrics: ParsedSample[];
  }
  // biome-ignore lint/style/noDefaultExport: the package exports its parser as the default.
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
