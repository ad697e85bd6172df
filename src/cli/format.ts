/** Tables, colour and JSON for the CLI's output. */

export type Cell = string | number | bigint | null | undefined;

export interface Colours {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
}

const sgr = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export function colours(enabled: boolean): Colours {
  if (!enabled) {
    const id = (s: string) => s;
    return { bold: id, dim: id, red: id, yellow: id, green: id };
  }
  return { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39), green: sgr(32, 39) };
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Visible width: escape sequences take no room. */
export function visibleWidth(s: string): number {
  return s.replace(ANSI, '').length;
}

/** `-` for a missing value, as kafka-consumer-groups prints it. */
export function cell(value: Cell): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value);
}

export interface TableOptions {
  /** Columns to right-align (numbers), by index. */
  right?: readonly number[];
  /** Applied to the header row (e.g. bold). */
  header?: (s: string) => string;
}

/** Columns separated by two spaces, padded to the widest cell; no trailing spaces. */
export function table(headers: readonly string[], rows: readonly (readonly Cell[])[], options: TableOptions = {}) {
  const text = rows.map((r) => headers.map((_, i) => cell(r[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => visibleWidth(r[i]))));
  const right = new Set(options.right ?? []);
  const line = (cells: string[], style?: (s: string) => string) =>
    cells
      .map((c, i) => {
        const pad = ' '.repeat(widths[i] - visibleWidth(c));
        const styled = style ? style(c) : c;
        if (right.has(i)) return pad + styled;
        return i === cells.length - 1 ? styled : styled + pad;
      })
      .join('  ')
      .trimEnd();
  return [line([...headers], options.header), ...text.map((r) => line(r))].join('\n');
}

const BIGINT_MARK = '\u0000bigint:';

/**
 * JSON with bigints (offsets, lags) written as exact JSON numbers, not strings and not rounded: `jq` and
 * JSON.parse read them as numbers; values past 2^53 keep their digits in the text.
 */
export function toJson(value: unknown, indent = 2): string {
  const text = JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${BIGINT_MARK}${v}` : v), indent);
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** "3 partitions", "1 partition". */
export function plural(n: number | bigint, word: string): string {
  return `${n} ${word}${n === 1 || n === 1n ? '' : 's'}`;
}
