/**
 * `engram consolidate --scope S [--phase P]... [--json]`: runs the sleep cycle for one scope and prints
 * its report (which phases ran, what each examined, created and updated, and which did nothing).
 */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import type { ConsolidationReport } from '../../../consolidation/index.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printError, printResult } from '../output.js';
import { withEngine } from '../run.js';

interface ConsolidateFlags extends CommonFlags {
  scope?: string[];
  phase?: string[];
}

/** Registers `consolidate`. */
export function registerConsolidateCommand(program: Command): void {
  withCommonFlags(
    program
      .command('consolidate')
      .description(
        'run the sleep cycle for one scope: dedup, supersede, extract, ground, promote, recombine, insight, reflect, affect, decay, compress',
      ),
  )
    .option('--scope <scope>', 'the scope to consolidate (exactly one)', collect)
    .option('--phase <phase>', 'run only this phase (repeatable; phases always run in cycle order)', collect)
    .action(async (flags: ConsolidateFlags) => {
      const scopes = flags.scope ?? [];
      // Checked before the engine opens, so a missing flag is named whatever the state of the database.
      if (scopes.length !== 1) {
        process.exitCode = printError(
          { json: flags.json === true },
          new EngramError('INVALID_INPUT', `consolidate works on one scope at a time: pass exactly one --scope (got ${scopes.length}).`),
        );
        return;
      }
      await withEngine(flags, async (engram) => {
        const report = await engram.consolidate({
          scope: scopes[0] as string,
          ...(flags.phase !== undefined ? { phases: flags.phase as never } : {}),
        });
        printResult({ json: flags.json === true }, report, formatReport);
      });
    });
}

/** The report as a small table. */
export function formatReport(report: ConsolidationReport): string {
  const rows = report.phases.map((p) => [p.name, String(p.examined), String(p.created), String(p.updated), `${p.durationMs} ms`, p.note]);
  const head = ['phase', 'examined', 'created', 'updated', 'time', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
  return [
    `consolidated ${report.scope} (${report.trigger}${report.resumed ? ', resumed' : ''}, report ${report.id})`,
    line(head),
    ...rows.map(line),
  ].join('\n');
}
