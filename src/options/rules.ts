/**
 * Option checks, table-driven. Each options interface (ClientConfig, ProducerOptions, ConsumerOptions,
 * GroupMembershipOptions) has one table that declares, for every option, the rule its value must pass, as
 * franz-go's config validation declares each limit once beside its name. A table is typed
 * `OptionRules<XOptions>`: an option added to the interface without a rule, or a rule for an option the
 * interface does not have, fails typecheck, and the list of known options that catches typos is the table's
 * own keys, so nothing is copied by hand.
 *
 * A rule checks one value that was given; an option left out takes its default, which the resolver reading the
 * options decides. Checks that involve two options (heartbeat below session timeout, idempotence needs acks
 * 'all') stay in the resolvers and run after every single value passed its rule.
 */

import { INT32_MAX } from '../../codecs/limits.js';
import { ConfigError } from './config-error.js';

/** Checks one given value (never undefined) and throws ConfigError naming `option` when it is unacceptable. */
export type Rule = (value: unknown, option: string) => void;

/** One rule per option of `T`, none missing and none extra (use with `satisfies`). */
export type OptionRules<T> = { readonly [K in keyof T]-?: Rule };

export interface OptionsScope {
  /** Says whose options they are in the error for an unknown one: `unknown consumer option`. */
  kind: string;
  /** What the whole object is called in the error when it is no object: `config`, `options`, `group`. */
  name: string;
  /** Put before each option's name in errors, for nested options: `group.`. */
  prefix?: string;
}

/**
 * Throws ConfigError for the first unknown option (a typo is an error, not a silently ignored setting), then
 * for the first value its rule refuses, in the table's order.
 */
export function checkOptions<T>(options: unknown, rules: OptionRules<T>, scope: OptionsScope): asserts options is T {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError(scope.name, 'expected an object');
  }
  const prefix = scope.prefix ?? '';
  const given = options as Record<string, unknown>;
  const known = Object.keys(rules);
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(rules, key)) throw new ConfigError(prefix + key, unknownOption(key, known, scope.kind));
  }
  for (const [key, rule] of Object.entries(rules) as [string, Rule][]) {
    const value = given[key];
    if (value !== undefined) rule(value, prefix + key);
  }
}

/** `unknown consumer option`, naming the known one it most likely meant (`requestTimeout` → `requestTimeoutMs`). */
function unknownOption(key: string, known: readonly string[], kind: string): string {
  const lower = key.toLowerCase();
  const near = known.find((k) => k.toLowerCase() === lower) ?? known.find((k) => k.toLowerCase().startsWith(lower));
  return near === undefined ? `unknown ${kind} option` : `unknown ${kind} option (did you mean ${near}?)`;
}

/** An integer from `min` to `max` (default the int32 maximum, as the wire carries most of them). */
export function integer(min: number, max: number = INT32_MAX): Rule {
  return (value, option) => {
    // An unbounded maximum (retries) admits Infinity itself: "no limit".
    const whole = Number.isInteger(value) || (max === Number.POSITIVE_INFINITY && value === max);
    if (typeof value !== 'number' || !whole || value < min || value > max) {
      throw new ConfigError(option, `expected an integer from ${min} to ${max}, got ${String(value)}`);
    }
  };
}

export const boolean: Rule = (value, option) => {
  if (typeof value !== 'boolean') throw new ConfigError(option, `expected true or false, got ${String(value)}`);
};

export const string: Rule = (value, option) => {
  if (typeof value !== 'string') throw new ConfigError(option, 'expected a string');
};

export const nonEmptyString: Rule = (value, option) => {
  if (typeof value !== 'string' || value === '') throw new ConfigError(option, 'expected a non-empty string');
};

/** For options where null explicitly asks for the default (`groupInstanceId: null`: a dynamic member). */
export const nonEmptyStringOrNull: Rule = (value, option) => {
  if (value !== null && (typeof value !== 'string' || value === '')) {
    throw new ConfigError(option, 'expected a non-empty string or null');
  }
};

/** One of the listed values; strings are quoted in the error as they are written in code. */
export function oneOf(...allowed: ReadonlyArray<string | number>): Rule {
  const show = (v: unknown) => (typeof v === 'string' ? `'${v}'` : String(v));
  return (value, option) => {
    if (!allowed.includes(value as string | number)) {
      throw new ConfigError(option, `expected one of ${allowed.map(show).join(', ')}, got ${show(value)}`);
    }
  };
}

/** A function; `signature` describes the one expected, for the error. */
export function func(signature?: string): Rule {
  return (value, option) => {
    if (typeof value !== 'function') {
      throw new ConfigError(
        option,
        signature === undefined ? 'expected a function' : `expected a function ${signature}`,
      );
    }
  };
}

/** An object with these methods (a plug-in such as an OffsetStore). */
export function withMethods(what: string, ...methods: readonly string[]): Rule {
  return (value, option) => {
    const object = value as Record<string, unknown> | null;
    if (typeof value !== 'object' || object === null || methods.some((m) => typeof object[m] !== 'function')) {
      throw new ConfigError(option, `expected ${what} (an object with ${methods.join(', ')})`);
    }
  };
}

/** Options nested under one option (`group: {...}`), checked by their own table; errors name `option.inner`. */
export function nested<T>(rules: OptionRules<T>, kind: string): Rule {
  return (value, option) => checkOptions(value, rules, { kind, name: option, prefix: `${option}.` });
}

/**
 * An option whose check needs more than its own value and runs where it is used (`tls` and `sasl` are checked
 * together when they become connection settings). `checkedIn` names that function, for the reader.
 */
export function checkedIn(_checkedIn: string): Rule {
  return () => {};
}
