/**
 * Secret redaction from flags and the environment (every command that opens the engine, `serve`,
 * `mcp` and the hooks):
 *
 *   --no-redact                 store text as it comes (also ENGRAM_REDACT=off)
 *   --redact-pattern KIND=REGEX a pattern of your own, repeatable (also ENGRAM_REDACT_PATTERNS, a JSON
 *                               array of {"kind", "pattern"})
 */
import { EngramError } from '../../core/errors.js';
import type { RedactionOptions } from '../../core/redact/index.js';
import { parseInput, redactionOptionsSchema } from '../../core/schemas.js';

export interface RedactionFlags {
  /** commander's `--no-redact` sets this to false. */
  redact?: boolean;
  redactPattern?: string[];
}

const OFF = new Set(['off', '0', 'false', 'no']);

/** The `redaction` option of `Engram.open` described by `flags` and `env` (undefined: the default, on). */
export function redactionConfig(flags: RedactionFlags, env: NodeJS.ProcessEnv): RedactionOptions | undefined {
  const off = flags.redact === false || OFF.has((env.ENGRAM_REDACT ?? '').trim().toLowerCase());
  const patterns = [...envPatterns(env.ENGRAM_REDACT_PATTERNS), ...(flags.redactPattern ?? []).map(flagPattern)];
  if (!off && patterns.length === 0) return undefined;
  return parseInput(
    redactionOptionsSchema,
    { ...(off ? { enabled: false } : {}), ...(patterns.length > 0 ? { patterns } : {}) },
    'redaction',
  );
}

function flagPattern(value: string): { kind: string; pattern: string } {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1) {
    throw new EngramError(
      'INVALID_INPUT',
      `Invalid input: --redact-pattern "${value.slice(0, 40)}" must be KIND=REGEX, e.g. --redact-pattern 'acme-token=acme_[A-Za-z0-9]{32}'.`,
    );
  }
  return { kind: value.slice(0, at), pattern: value.slice(at + 1) };
}

function envPatterns(value: string | undefined): unknown[] {
  if (value === undefined || value.trim() === '') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw new EngramError(
    'INVALID_INPUT',
    'Invalid input: ENGRAM_REDACT_PATTERNS must be a JSON array like [{"kind":"acme-token","pattern":"acme_[A-Za-z0-9]{32}"}].',
  );
}
