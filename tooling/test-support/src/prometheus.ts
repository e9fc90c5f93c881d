/// <reference path="./parse-prometheus-text-format.d.ts" />
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";

export type { ParsedFamily };

/** Parses Prometheus' text format with a real parser, so a test reads what a scraper reads. */
export function parsePrometheusText(text: string): ParsedFamily[] {
  return parsePrometheusTextFormat(text);
}

/**
 * The value of the first sample of `name` whose labels include `labels` (a histogram's or
 * summary's count when it has no value), or undefined.
 */
export function prometheusSample(
  families: readonly ParsedFamily[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): string | undefined {
  const family = families.find((entry) => entry.name === name);
  const found = family?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  return found?.value ?? found?.count;
}
