import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/options/config-error.js';
import {
  boolean,
  checkOptions,
  integer,
  nested,
  nonEmptyStringOrNull,
  type OptionRules,
  oneOf,
  withMethods,
} from '../../../src/options/rules.js';

interface Inner {
  size?: number;
}
interface Outer {
  timeoutMs?: number;
  mode?: 'a' | 'b';
  on?: boolean;
  id?: string | null;
  inner?: Inner;
}
const INNER = { size: integer(0, 10) } satisfies OptionRules<Inner>;
const OUTER = {
  timeoutMs: integer(1),
  mode: oneOf('a', 'b'),
  on: boolean,
  id: nonEmptyStringOrNull,
  inner: nested(INNER, 'inner'),
} satisfies OptionRules<Outer>;

function refusal(options: unknown): ConfigError {
  try {
    checkOptions<Outer>(options, OUTER, { kind: 'test', name: 'options' });
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('accepted');
}

describe('option rules', () => {
  it('accepts what every rule accepts, and leaves out what is not given', () => {
    expect(() =>
      checkOptions<Outer>({ timeoutMs: 5, id: null, inner: {} }, OUTER, { kind: 't', name: 'o' }),
    ).not.toThrow();
    expect(() => checkOptions<Outer>({ timeoutMs: undefined }, OUTER, { kind: 't', name: 'o' })).not.toThrow();
  });

  it('names the option, its path when nested, and the near miss of an unknown one', () => {
    expect(refusal(null)).toMatchObject({ option: 'options', message: 'invalid option options: expected an object' });
    expect(refusal({ timeout: 1 })).toMatchObject({
      option: 'timeout',
      message: 'invalid option timeout: unknown test option (did you mean timeoutMs?)',
    });
    expect(refusal({ bogus: 1 }).message).toBe('invalid option bogus: unknown test option');
    expect(refusal({ timeoutMs: 0 }).message).toBe(
      'invalid option timeoutMs: expected an integer from 1 to 2147483647, got 0',
    );
    expect(refusal({ timeoutMs: 1.5 }).option).toBe('timeoutMs');
    expect(refusal({ timeoutMs: 2 ** 31 }).option).toBe('timeoutMs');
    expect(refusal({ mode: 'c' }).message).toBe("invalid option mode: expected one of 'a', 'b', got 'c'");
    expect(refusal({ on: 'yes' }).option).toBe('on');
    expect(refusal({ id: '' }).option).toBe('id');
    expect(refusal({ inner: { size: 11 } }).option).toBe('inner.size');
    expect(refusal({ inner: { sise: 1 } }).message).toBe('invalid option inner.sise: unknown inner option');
    expect(refusal({ inner: 5 }).option).toBe('inner');
  });

  it('admits Infinity only where the maximum is unbounded', () => {
    expect(() => integer(0, Number.POSITIVE_INFINITY)(Number.POSITIVE_INFINITY, 'retries')).not.toThrow();
    expect(() => integer(0)(Number.POSITIVE_INFINITY, 'retries')).toThrow(ConfigError);
    expect(() => integer(0, Number.POSITIVE_INFINITY)(Number.NaN, 'retries')).toThrow(ConfigError);
  });

  it('checks plug-ins by the methods they must have', () => {
    const store = withMethods('an OffsetStore', 'load', 'commit');
    expect(() => store({ load() {}, commit() {} }, 'offsetStore')).not.toThrow();
    expect(() => store({ load() {} }, 'offsetStore')).toThrow(/offsetStore: expected an OffsetStore/);
  });
});
