/**
 * Composition root of the CLI: reads flags and env, opens the engine.
 */
import type { Command } from 'commander';
import { EngramError } from '../../core/errors.js';
import { DB_FLAG_HELP, ensureDbFolder, resolveDbPath as resolveDb } from './default-db.js';
import { isMissingSqliteFile, missingDatabaseError } from './missing-database.js';
import type { RedactionFlags } from './redaction-config.js';
// The engine, its stores and zod load only when a command opens the engine (not for --help or hooks).
import type { Engram, EmbedderChoice } from '../../engram.js';
import type { llmFromEnv } from './llm-env.js';
import { numberFlag } from './number-flag.js';

export interface CommonFlags extends RedactionFlags {
  db?: string;
  json?: boolean;
  embedder?: string;
  workers?: string;
  cacheDir?: string;
}

/** Adds the flags every command takes. */
export function withCommonFlags(command: Command): Command {
  return command
    .option('--db <path>', DB_FLAG_HELP)
    .option('--json', 'machine-readable JSON output')
    .option(
      '--embedder <name>',
      'embedder for a new database: use, static, hash, auto, an installed model or blend (blend-e5-minilm, the default; bge-small-en-v1.5, e5-small-v2, all-minilm-l6-v2, bge-small-zh-v1.5, blend-small-en) or openai:<model>; an existing database reopens with its own',
    )
    .option('--workers <n>', 'embedding worker threads (imports; serve also embeds recall queries on them; serve default 1)')
    .option(
      '--cache-dir <dir>',
      'cache folder for the static table and the ONNX models (default: $ENGRAM_CACHE_DIR, else $XDG_CACHE_HOME/engram, else ~/.cache/engram)',
    )
    .option(
      '--no-redact',
      'store secrets as they come (default: API keys, tokens and passwords become [redacted:<kind>]; also ENGRAM_REDACT=off)',
    )
    .option(
      '--redact-pattern <kind=regex>',
      'also redact what REGEX matches, as [redacted:KIND] (repeatable; also ENGRAM_REDACT_PATTERNS)',
      collect,
    );
}

/** The database path: --db, else $ENGRAM_DB, else the default file (`default-db.ts`). */
export function resolveDbPath(flags: Pick<CommonFlags, 'db'>): string {
  return resolveDb(flags.db);
}

export interface OpenExtra {
  workers?: number;
  /** May this command create a missing SQLite file? Only commands that write may (else a typo in --db reads an empty store). */
  create?: boolean;
  /** Open with the recorded model whatever $ENGRAM_EMBEDDER says (reembed names its target itself). */
  ignoreEmbedderEnv?: boolean;
  /** A new store without --embedder or $ENGRAM_EMBEDDER takes this recorded model when installed (a dump's). */
  embedderForNewStore?: string;
}

/**
 * Opens the engine for one command. A missing SQLite file is created, with its missing folders (and said
 * so on stderr, keeping stdout for results), only when `extra.create` is set; otherwise it is NOT_FOUND.
 */
export async function openEngine(flags: CommonFlags, extra: OpenExtra = {}): Promise<Engram> {
  const path = resolveDbPath(flags);
  const creating = isMissingSqliteFile(path);
  if (creating && extra.create !== true) throw missingDatabaseError(path);
  // zod (through the redaction schema) loads only when a command opens the engine, not for --help
  const { redactionConfig } = await import('./redaction-config.js');
  const redaction = redactionConfig(flags, process.env);
  // a new file's folder too (--db ~/.engram/me.db), as the default location's
  if (creating) ensureDbFolder(path);
  const envEmbedder = extra.ignoreEmbedderEnv === true ? undefined : process.env.ENGRAM_EMBEDDER;
  const embedder = embedderChoice(flags.embedder ?? envEmbedder);
  const workers = flags.workers !== undefined ? numberFlag(flags.workers, '--workers', '2') : extra.workers;
  const cacheDir = flags.cacheDir ?? process.env.ENGRAM_CACHE_DIR;
  const [{ Engram }, { llmFromEnv }] = await Promise.all([import('../../engram.js'), import('./llm-env.js')]);
  const engram = await Engram.open({
    path,
    ...(embedder !== undefined ? { embedder } : {}),
    ...(workers !== undefined && Number.isFinite(workers) ? { workers } : {}),
    ...(cacheDir !== undefined ? { cacheDir } : {}),
    ...(extra.embedderForNewStore !== undefined ? { embedderForNewStore: extra.embedderForNewStore } : {}),
    ...withLlm(llmFromEnv(process.env)),
    ...(redaction !== undefined ? { redaction } : {}),
  });
  if (creating) process.stderr.write(`engram: created a new database at ${path}\n`);
  return engram;
}

/** `use-lite` (the model's own name, which mismatch messages and stats show) is an alias of `use`. */
function embedderChoice(name: string | undefined): EmbedderChoice | undefined {
  if (name === undefined || name === '') return undefined;
  return (name === 'use-lite' ? 'use' : name) as EmbedderChoice;
}

function withLlm(llm: ReturnType<typeof llmFromEnv>): { llm?: NonNullable<ReturnType<typeof llmFromEnv>> } {
  return llm !== undefined ? { llm } : {};
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Flags of a command that reads or writes named scopes. */
export interface ScopeFlags extends CommonFlags {
  scope?: string[];
}

/** The one scope of `--scope` (`what` names the command in the error). */
export function oneScope(scopes: string[] | undefined, what: string): string {
  if (scopes === undefined || scopes.length !== 1) {
    throw new EngramError('INVALID_INPUT', `${what} names exactly one scope: pass --scope S once (got ${scopes?.length ?? 0}).`);
  }
  return scopes[0] as string;
}
