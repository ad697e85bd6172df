import { describe, expect, it } from 'vitest';
import { colours, table, toJson, visibleWidth } from '../../../src/cli/format.js';

describe('table', () => {
  it('pads columns to the widest cell, right-aligns numbers, prints - for missing values', () => {
    const text = table(
      ['TOPIC', 'PARTITION', 'LAG'],
      [
        ['orders', 0, 12n],
        ['audit-log', 10, null],
      ],
      { right: [1, 2] },
    );
    expect(text.split('\n')).toEqual([
      'TOPIC      PARTITION  LAG',
      'orders             0   12',
      'audit-log         10    -',
    ]);
  });

  it('ignores colour escapes when measuring', () => {
    const c = colours(true);
    expect(visibleWidth(c.red('lag'))).toBe(3);
    const text = table(['A', 'B'], [[c.yellow('xx'), 'y']]);
    expect(text.split('\n')[1]).toBe(`${c.yellow('xx')}  y`);
  });

  it('has no colour when disabled', () => {
    expect(colours(false).red('x')).toBe('x');
  });
});

describe('toJson', () => {
  it('writes bigints as exact JSON numbers', () => {
    const text = toJson({ offset: 9007199254740993n, lag: -1n, name: 'bigint:1' }, 0);
    expect(text).toBe('{"offset":9007199254740993,"lag":-1,"name":"bigint:1"}');
    expect(JSON.parse(toJson({ a: 5n })).a).toBe(5);
  });
});
