/**
 * The error every options check throws. It lives below src/network (which checks `tls`, `sasl` and broker
 * addresses with it) so that every layer reports a bad option the same way; see src/options/rules.ts.
 */

import { TidemarkError } from '../../codecs/errors.js';

/** A client option is missing, of the wrong type, or out of range. Thrown synchronously, never retriable. */
export class ConfigError extends TidemarkError {
  override name = 'ConfigError';

  constructor(
    /** The option as the user spelled it, with its path when nested (`group.sessionTimeoutMs`, `bootstrap[1]`). */
    readonly option: string,
    problem: string,
  ) {
    super(`invalid option ${option}: ${problem}`);
  }
}
