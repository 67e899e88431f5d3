/**
 * `engram remember --scope S [...] TEXT` and `engram remember --scope S --file F.jsonl`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { instantFromText } from '../../../core/instant.js';
import { assertScope } from '../../../core/scope.js';
// zod (core/schemas) and cli-progress load only for a --file import, not on every CLI start.
import type * as Schemas from '../../../core/schemas.js';
import type { RememberInput } from '../../../core/schemas.js';
import type { RememberResult } from '../../../core/write/remember.js';
import type { Engram } from '../../../engram.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printError, printResult } from '../output.js';
import { withEngine } from '../run.js';
import { numberFlag } from '../number-flag.js';
import { decodeTextFile } from '../text-file.js';
import { localWallClock } from '../local-wall-clock.js';

interface RememberFlags extends CommonFlags {
  scope?: string;
  layer?: string;
  occurredAt?: string;
  validFrom?: string;
  validTo?: string;
  importance?: string;
  tag?: string[];
  pin?: boolean;
  capture?: boolean;
  file?: string;
  batchSize?: string;
  timeZone?: string;
}

/** Lines per transaction in a file import: each commit is acknowledged on its own JSON line. */
const DEFAULT_BATCH = 64;

/** Registers `remember`. */
export function registerRememberCommand(program: Command): void {
  withCommonFlags(program.command('remember [text...]').description('store a memory (or a JSONL file of them with --file)'))
    .option('--scope <scope>', 'the scope to write to (exactly one)')
    .option('--layer <layer>', 'episodic | semantic | procedural | statistical (default episodic)')
    .option('--occurred-at <iso>', 'when the event happened')
    .option('--valid-from <iso>', 'when the claim became true')
    .option('--valid-to <iso>', 'when the claim stopped being true')
    .option('--importance <n>', 'importance 0..1 (default: scored from the content)')
    .option('--tag <tag>', 'tag (repeatable)', collect)
    .option('--pin', 'never decays')
    .option(
      '--time-zone <zone>',
      'IANA time zone the text\'s relative dates ("yesterday", "on Friday") are read on, e.g. Europe/Lisbon (default: this machine\'s)',
    )
    .option('--capture', 'a conversation turn: also store its claim-shaped sentences as claims (in --file, set "capture": true per line)')
    .option('--file <path>', 'import a JSONL file: one remember input object per line')
    .option('--batch-size <n>', `lines per transaction for --file (default ${DEFAULT_BATCH})`)
    .action(async (words: string[], flags: RememberFlags) => {
      const json = flags.json === true;
      if (flags.file !== undefined) {
        if (!existsSync(flags.file)) {
          process.exitCode = printError(
            { json },
            new EngramError('INVALID_INPUT', `Cannot read --file ${flags.file}: ENOENT. Check the path.`),
          );
          return;
        }
        await withEngine(flags, (engram) => importFile(engram, flags), { workers: 2, create: true });
        return;
      }
      // Checked before the engine opens: loading the model takes seconds, a missing flag should not.
      const missing =
        flags.scope === undefined
          ? 'remember needs --scope: the scope to write to, e.g. --scope acme/users/alice (or use --file F.jsonl with a scope on each line).'
          : words.length === 0
            ? 'Nothing to remember: pass the text as an argument, or --file F.jsonl.'
            : undefined;
      if (missing !== undefined) {
        process.exitCode = printError({ json }, new EngramError('INVALID_INPUT', missing));
        return;
      }
      try {
        // A bad scope is refused before a missing database would be created for nothing.
        assertScope(flags.scope);
      } catch (error) {
        process.exitCode = printError({ json }, error);
        return;
      }
      await withEngine(
        flags,
        async (engram) => {
          const input: Record<string, unknown> = { scope: flags.scope, content: words.join(' ') };
          if (flags.layer !== undefined) input.layer = flags.layer;
          if (flags.occurredAt !== undefined) input.occurredAt = instantFromText(flags.occurredAt);
          if (flags.validFrom !== undefined) input.validFrom = instantFromText(flags.validFrom);
          if (flags.validTo !== undefined) input.validTo = instantFromText(flags.validTo);
          if (flags.importance !== undefined) input.importance = numberFlag(flags.importance, '--importance', '0.8');
          if (flags.tag !== undefined) input.tags = flags.tag;
          if (flags.pin) input.pinned = true;
          if (flags.capture === true) input.capture = true;
          Object.assign(input, localWallClock(flags.timeZone, flags.occurredAt));
          const result = await engram.remember(input as RememberInput);
          printResult({ json }, result, (r: RememberResult) => describeResult(r));
        },
        { create: true },
      );
    });
}

function describeResult(result: RememberResult): string {
  const head = `${describeAction(result)}${redactedNote(result.redacted ?? 0)}`;
  if (result.claims === undefined) return head;
  const claims = result.claims.map(
    (c) => `\n  claim ${c.id}: ${c.action}${c.superseded !== undefined ? `, superseding ${c.superseded.join(', ')}` : ''}`,
  );
  return `${head}${claims.length === 0 ? '\n  no claims in this turn' : claims.join('')}`;
}

/** ", 2 secrets redacted" when the write path replaced any. */
function redactedNote(count: number): string {
  return count === 0 ? '' : `, ${count} secret${count === 1 ? '' : 's'} redacted`;
}

function describeAction(result: RememberResult): string {
  switch (result.action) {
    case 'merged':
      return `merged into ${result.mergedInto ?? result.id}`;
    case 'superseded':
      return `created ${result.id}, superseding ${(result.superseded ?? []).join(', ')}`;
    case 'unchanged':
      return `already stored as ${result.id}`;
    default:
      return `created ${result.id}`;
  }
}

/**
 * Imports a JSONL file. Every line is validated before anything is written; then lines are written
 * in transactions of `batchSize`, each acknowledged once durable. Lines without a source get one
 * derived from the file name, line number and line text, so re-running an import is idempotent.
 */
async function importFile(engram: Engram, flags: RememberFlags): Promise<void> {
  const json = flags.json === true;
  const path = flags.file as string;
  const batchSize = flags.batchSize === undefined ? DEFAULT_BATCH : numberFlag(flags.batchSize, '--batch-size', String(DEFAULT_BATCH));
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new EngramError(
      'INVALID_INPUT',
      `--batch-size must be a whole number ≥ 1, e.g. --batch-size ${DEFAULT_BATCH}; got "${flags.batchSize}".`,
    );
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new EngramError(
      'INVALID_INPUT',
      `Cannot read --file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Check the path.`,
      { cause: error },
    );
  }
  const [schemas, { default: cliProgress }] = await Promise.all([import('../../../core/schemas.js'), import('cli-progress')]);
  const inputs = parseLines(decodeTextFile(bytes, `--file ${path}`), path, flags.scope, schemas);
  const counts = { created: 0, merged: 0, superseded: 0, unchanged: 0 };
  const bar =
    process.stderr.isTTY && !json ? new cliProgress.SingleBar({ clearOnComplete: true }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(inputs.length, 0);
  let start = 0;
  let redacted = 0;
  // the next batches embed while one commits; each batch is still its own transaction
  for await (const results of engram.rememberBatches(
    inputs.map((b) => b.input),
    { batchSize },
  )) {
    const batch = inputs.slice(start, start + results.length);
    start += results.length;
    for (const result of results) {
      counts[result.action] += 1;
      redacted += result.redacted ?? 0;
    }
    if (json) {
      process.stdout.write(
        `${JSON.stringify({ committed: results.map((r) => r.id), lines: [batch[0]?.line, batch[batch.length - 1]?.line], actions: results.map((r) => r.action) })}\n`,
      );
    }
    bar?.increment(batch.length);
  }
  bar?.stop();
  const summary = { summary: { file: path, lines: inputs.length, ...counts, ...(redacted > 0 ? { redacted } : {}) } };
  printResult(
    { json },
    summary,
    (s: typeof summary) =>
      `imported ${s.summary.lines} lines: ${s.summary.created} created, ${s.summary.merged} merged, ${s.summary.superseded} superseded, ${s.summary.unchanged} already present${redactedNote(redacted)}`,
  );
}

interface ParsedLine {
  line: number;
  input: RememberInput;
}

function parseLines(text: string, path: string, defaultScope: string | undefined, schemas: typeof Schemas): ParsedLine[] {
  const { parseInput, rememberInputSchema } = schemas;
  const parsed: ParsedLine[] = [];
  const problems: string[] = [];
  const file = basename(path);
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push(`line ${line}: not valid JSON`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`line ${line}: must be a JSON object like {"content": "..."}`);
      return;
    }
    if (line === 1 && (value as { format?: unknown }).format === 'engram-dump') {
      throw new EngramError(
        'INVALID_INPUT',
        `--file ${file} is an Engram dump (written by "engram export jsonl"), not a file of remember inputs: restore it with "engram import jsonl ${path}".`,
      );
    }
    const input = { ...(value as Record<string, unknown>) };
    if (input.scope === undefined && defaultScope !== undefined) input.scope = defaultScope;
    if (input.source === undefined) {
      const digest = createHash('sha256').update(raw).digest('hex').slice(0, 24);
      input.source = { uri: `file:${file}#${digest}`, messageId: `line-${line}` };
    }
    try {
      parseInput(rememberInputSchema, input, `line ${line}`);
      parsed.push({ line, input: input as RememberInput });
    } catch (error) {
      problems.push((error as Error).message.replace(/^Invalid input: /, ''));
    }
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ');
    throw new EngramError(
      'INVALID_INPUT',
      `--file ${file}: ${problems.length} invalid line(s), nothing was written. ${shown}${problems.length > 5 ? '; …' : ''}`,
    );
  }
  return parsed;
}
