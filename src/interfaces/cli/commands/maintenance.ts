/**
 * Seed 001's maintenance commands: `engram surface` (what is worth having in mind, no query),
 * `engram decay [--dry-run]` (the decay phase alone) and `engram expire [--dry-run | --apply]`
 * (decayed records past their grace period removed for good, tombstones kept; a dry run by default).
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { EngramError } from '../../../core/errors.js';
import type { DecayReport } from '../../../consolidation/decay-run.js';
import type { ExpireReport } from '../../../core/purge/expire.js';
import type { SurfaceHit } from '../../../core/surface/surface.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printError, printResult } from '../output.js';
import { withEngine } from '../run.js';
import { actor } from './browse.js';
import { numberFlag } from '../number-flag.js';

interface MaintenanceFlags extends CommonFlags {
  scope?: string[];
  context?: string;
  limit?: string;
  dryRun?: boolean;
  apply?: boolean;
}

/** Registers surface, decay and expire. */
export function registerMaintenanceCommands(program: Command): void {
  withCommonFlags(
    program
      .command('surface')
      .description('the memories most worth having in mind: by importance, use and relevance to an optional --context'),
  )
    .option('--scope <scope>', 'scope to read (repeatable; at least one)', collect)
    .option('--context <text>', 'text the memories should relate to (optional)')
    .option('--limit <n>', 'how many (default 10, at most 100)')
    .action(async (flags: MaintenanceFlags) => {
      await withEngine(flags, async (engram) => {
        const result = await engram.surface({
          scopes: flags.scope ?? [],
          ...(flags.context !== undefined ? { context: flags.context } : {}),
          ...(flags.limit !== undefined ? { limit: numberFlag(flags.limit, '--limit', '20') } : {}),
        });
        printResult({ json: flags.json === true }, result, formatSurface);
      });
    });

  withCommonFlags(
    program.command('decay').description('run only the decay phase on one scope (idle memories decay by importance tier; pinned never)'),
  )
    .option('--scope <scope>', 'the scope (exactly one)', collect)
    .option('--dry-run', 'report what would decay and expire, change nothing')
    .action(async (flags: MaintenanceFlags) => {
      const scope = oneScope(flags, 'decay');
      if (scope === undefined) return;
      await withEngine(flags, async (engram) => {
        printResult({ json: flags.json === true }, await engram.decay({ scope, dryRun: flags.dryRun === true }), formatDecay);
      });
    });

  withCommonFlags(
    program
      .command('expire')
      .description('remove for good decayed memories past their grace period, keeping tombstones (a dry run unless --apply)'),
  )
    .option('--scope <scope>', 'the scope (exactly one)', collect)
    .option('--dry-run', 'report what would be removed (the default)')
    .option('--apply', 'remove them')
    .action(async (flags: MaintenanceFlags) => {
      const scope = oneScope(flags, 'expire');
      if (scope === undefined) return;
      if (flags.apply === true && flags.dryRun === true) {
        process.exitCode = printError(
          { json: flags.json === true },
          new EngramError('INVALID_INPUT', 'expire takes --dry-run or --apply, not both.'),
        );
        return;
      }
      await withEngine(flags, async (engram) => {
        printResult(
          { json: flags.json === true },
          await engram.expire({ scope, dryRun: flags.apply !== true }, { actor: actor() }),
          formatExpire,
        );
      });
    });
}

/** The one `--scope` of a command that works on one scope; prints the error and returns undefined otherwise. */
function oneScope(flags: MaintenanceFlags, command: string): string | undefined {
  const scopes = flags.scope ?? [];
  if (scopes.length === 1) return scopes[0];
  process.exitCode = printError(
    { json: flags.json === true },
    new EngramError('INVALID_INPUT', `${command} works on one scope at a time: pass exactly one --scope (got ${scopes.length}).`),
  );
  return undefined;
}

function formatSurface(result: { hits: SurfaceHit[] }): string {
  if (result.hits.length === 0) return pc.dim('(nothing to surface)');
  return result.hits
    .map((hit, i) => {
      const why = `importance ${hit.why.importance} · activation ${hit.why.activation}${hit.why.relevance !== null ? ` · relevance ${hit.why.relevance}` : ''}`;
      return `${pc.bold(String(i + 1).padStart(2))}. ${hit.content}\n    ${pc.dim(`${hit.id} · ${hit.scope} · ${hit.layer} · score ${hit.score} · ${why}`)}`;
    })
    .join('\n');
}

function formatDecay(report: DecayReport): string {
  const head = `${report.dryRun ? 'dry run: ' : ''}decay of ${report.scope}: ${report.counts.decayed} decayed, ${report.counts.expired} expired of ${report.examined} examined`;
  const ids = [...(report.decayed ?? []).map((id) => `decayed ${id}`), ...(report.expired ?? []).map((id) => `expired ${id}`)];
  return [head, ...ids.map((line) => pc.dim(`  ${line}`)), ...(report.runId !== null ? [pc.dim(`report ${report.runId}`)] : [])].join('\n');
}

function formatExpire(report: ExpireReport): string {
  const head = report.dryRun
    ? `dry run: ${report.expired} memories of ${report.scope} would be removed for good${report.expired > 0 ? ' (run again with --apply)' : ''}`
    : `expired ${report.expired} memories of ${report.scope} (tombstones kept): ${report.removed.derived} derived records, ${report.removed.edges} edges, ${report.removed.refs} concept refs, ${report.removed.indexEntries} index entries removed`;
  return [head, ...report.ids.map((id) => pc.dim(`  ${id}`)), ...report.auditIds.map((id) => pc.dim(`audit entry ${id}`))].join('\n');
}
