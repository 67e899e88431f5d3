/**
 * `engram jobs`: the background work queue's backlog, or drain it now.
 */
import type { Command } from 'commander';
import { collect, withCommonFlags, type ScopeFlags } from '../context.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';

/** Registers `jobs`. */
export function registerJobsCommand(program: Command): void {
  withCommonFlags(
    program
      .command('jobs')
      .description('background work (concept extraction, importance recovery, part vectors): backlog, or drain it now'),
  )
    .option('--scope <scope>', 'scope to count (repeatable)', collect)
    .option('--drain', 'process queued jobs now, then show the backlog')
    .action(async (flags: ScopeFlags & { drain?: boolean }) => {
      await withEngine(flags, async (engram) => {
        const drained = flags.drain === true ? await engram.processJobs() : undefined;
        const backlog = flags.scope !== undefined ? (await engram.stats({ scopes: flags.scope })).jobs : undefined;
        const result = { ...(drained !== undefined ? { drained } : {}), ...(backlog !== undefined ? { backlog } : {}) };
        printResult(
          { json: flags.json === true },
          result,
          (r: typeof result) =>
            [
              r.drained !== undefined
                ? `processed ${r.drained.jobs} jobs: ${r.drained.conceptsCreated} concepts created, ${r.drained.refsAdded} refs added, ${r.drained.failed} failed; part vectors of ${r.drained.partVectors} records made; the dates named by ${r.drained.mentionedTimes} records stored`
                : '',
              r.backlog !== undefined
                ? `backlog: pending ${r.backlog.pending} · running ${r.backlog.running} · failed ${r.backlog.failed}`
                : '',
            ]
              .filter((l) => l.length > 0)
              .join('\n') || 'nothing to do: pass --drain and/or --scope S',
        );
      });
    });
}
