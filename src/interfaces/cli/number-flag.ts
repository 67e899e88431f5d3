import { EngramError } from '../../core/errors.js';

/**
 * The number a numeric flag was given (`--k 5`; undefined when it was not given), or `INVALID_INPUT`
 * naming the flag and what was typed when it is not a number (`--k abc`, `--k ""`). Ranges are the
 * API's to check, with its own messages.
 *
 * @example
 * ```ts
 * numberFlag('5', '--k'); // 5
 * numberFlag('five', '--k', '10'); // throws: --k must be a number, e.g. --k 10; got "five".
 * ```
 */
export function numberFlag(value: string, flag: string, example?: string): number;
export function numberFlag(value: string | undefined, flag: string, example?: string): number | undefined;
export function numberFlag(value: string | undefined, flag: string, example = '5'): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n)) {
    throw new EngramError('INVALID_INPUT', `${flag} must be a number, e.g. ${flag} ${example}; got "${value.slice(0, 40)}".`);
  }
  return n;
}
