/**
 * `engram redact --scope S... [--dry-run] [--json]`: cleans what was stored before redaction (or before
 * a pattern was added): every record of the scopes has its secrets replaced by `[redacted:<kind>]` in
 * its text, history wordings and other fields and is re-embedded; the text index and the database
 * file are compacted so the old text is gone. `--dry-run` counts without writing.
 */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import type { RedactReport } from '../../../core/redact/index.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printError, printResult } from '../output.js';
import { withEngine } from '../run.js';

interface RedactFlags extends CommonFlags {
  scope?: string[];
  dryRun?: boolean;
}

/** Registers `redact`. */
export function registerRedactCommand(program: Command): void {
  withCommonFlags(
    program
      .command('redact')
      .description(
        'replace secrets (API keys, tokens, passwords) already stored in the scopes by [redacted:<kind>], re-embedding what changed',
      ),
  )
    .option('--scope <scope>', 'a scope to clean (repeatable, at least one)', collect)
    .option('--dry-run', 'count what would be redacted, change nothing')
    .action(async (flags: RedactFlags) => {
      const scopes = flags.scope ?? [];
      if (scopes.length === 0) {
        process.exitCode = printError(
          { json: flags.json === true },
          new EngramError('INVALID_INPUT', 'redact needs --scope: the scope(s) to clean, e.g. --scope acme/users/alice (repeatable).'),
        );
        return;
      }
      await withEngine(flags, async (engram) => {
        const report = await engram.redact({ scopes, dryRun: flags.dryRun === true });
        printResult({ json: flags.json === true }, report, formatRedactReport);
      });
    });
}

/**
 * What was read, what held secrets (records, edges, relation types), of which kinds; then the relation
 * type names that hold one, as redacted (they are not renamed), on a line of their own.
 */
export function formatRedactReport(report: RedactReport): string {
  const head = `scanned ${report.scanned} records in ${report.scopes.join(', ')}`;
  const held = report.relationNames.length;
  const names =
    held > 0
      ? [
          `${held} relation type name${held === 1 ? ' holds' : 's hold'} a secret, not renamed (edges use ${held === 1 ? 'it' : 'them'}: rotate the secret, and relate with a new type if the name must go): ${report.relationNames.join(', ')}`,
        ]
      : [];
  if (report.redacted === 0) return [`${head}: ${held > 0 ? 'no secrets to replace' : 'no secrets found'}`, ...names].join('\n');
  const kinds = Object.entries(report.kinds)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  const verb = report.dryRun ? 'would redact' : 'redacted';
  const places = [
    ...(report.records > 0 || (report.edges === 0 && report.relationTypes === 0 && report.states === 0)
      ? [`${report.records} records`]
      : []),
    ...(report.edges > 0 ? [`${report.edges} edges`] : []),
    ...(report.states > 0 ? [`${report.states} state document${report.states === 1 ? '' : 's'}`] : []),
    ...(report.relationTypes > 0 ? [`${report.relationTypes} relation type${report.relationTypes === 1 ? '' : 's'}`] : []),
  ].join(', ');
  const tail = report.dryRun ? ' (dry run: nothing changed)' : `; ${report.reembedded} re-embedded`;
  return [`${head}: ${verb} ${report.redacted} secrets in ${places} (${kinds})${tail}`, ...names].join('\n');
}
