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

/** One paragraph: what was read, what held secrets, of which kinds. */
export function formatRedactReport(report: RedactReport): string {
  const kinds = Object.entries(report.kinds)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  const verb = report.dryRun ? 'would redact' : 'redacted';
  const head = `scanned ${report.scanned} records in ${report.scopes.join(', ')}`;
  if (report.redacted === 0) return `${head}: no secrets found`;
  const edges = report.edges > 0 ? `, ${report.edges} edges` : '';
  const tail = report.dryRun ? ' (dry run: nothing changed)' : `; ${report.reembedded} re-embedded`;
  return `${head}: ${verb} ${report.redacted} secrets in ${report.records} records${edges} (${kinds})${tail}`;
}
