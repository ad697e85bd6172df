/** Helpers that look for secrets anywhere a user could see them: log lines, error messages, causes, properties. */
import { inspect } from 'node:util';
import { expect } from 'vitest';

/** Every text reachable from an error: message, stack, cause chain, aggregated errors and own properties. */
export function errorTexts(err: unknown, seen = new Set<unknown>()): string[] {
  if (err === null || err === undefined || seen.has(err)) return [];
  seen.add(err);
  if (!(err instanceof Error)) return [String(err)];
  const texts = [err.message, err.stack ?? '', inspect(err, { depth: 8, showHidden: false }), JSON.stringify(err)];
  texts.push(...errorTexts(err.cause, seen));
  if (err instanceof AggregateError) for (const e of err.errors) texts.push(...errorTexts(e, seen));
  return texts;
}

export function expectNoSecret(texts: readonly string[], secrets: readonly string[]): void {
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
}

/** A logger that keeps every event as one JSON line. */
export function captureLog(): { lines: string[]; logger: (event: string, fields: Record<string, unknown>) => void } {
  const lines: string[] = [];
  return { lines, logger: (event, fields) => lines.push(`${event} ${JSON.stringify(fields)}`) };
}
