/**
 * `engram get | forget | restore | unsupersede | history | stats` (`update` is in update.ts).
 */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import type { MemoryView } from '../../../core/memory-view.js';
import type { Engram } from '../../../engram.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { embedderLine } from '../embedder-advice.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';
import { formatMemory } from './format.js';

interface ScopeFlags extends CommonFlags {
  scope?: string[];
}

/** Registers the by-id commands and stats. */
export function registerRecordCommands(program: Command): void {
  const byId = (
    name: string,
    description: string,
    scopeHelp: string,
    action: (engram: Engram, id: string, scopes: string[]) => Promise<MemoryView>,
  ) =>
    withCommonFlags(program.command(`${name} <id>`).description(description))
      .option('--scope <scope>', scopeHelp, collect)
      .action(async (id: string, flags: ScopeFlags) => {
        await withEngine(flags, async (engram) => {
          const view = await action(engram, id, flags.scope ?? []);
          printResult({ json: flags.json === true }, view, formatMemory);
        });
      });

  const written = 'the scope the memory was written in (exactly one)';
  byId('get', 'show one memory', 'a scope to look in (repeatable: the memory may live in any of them)', (engram, id, scopes) =>
    engram.get(id, { scopes }),
  );
  byId('forget', 'soft-delete a memory (restore brings it back)', written, (engram, id, scopes) =>
    engram.forget(id, { scope: single(scopes) }),
  );
  byId('restore', 'restore a forgotten or decayed memory', written, (engram, id, scopes) => engram.restore(id, { scope: single(scopes) }));
  byId('unsupersede', 'undo a wrong supersession (the same correction will not supersede it again)', written, (engram, id, scopes) =>
    engram.unsupersede(id, { scope: single(scopes) }),
  );

  withCommonFlags(program.command('history <id>').description('the chain of versions of a claim, oldest first'))
    .option('--scope <scope>', 'scope to read (repeatable)', collect)
    .action(async (id: string, flags: ScopeFlags) => {
      await withEngine(flags, async (engram) => {
        const history = await engram.history(id, { scopes: flags.scope ?? [] });
        printResult({ json: flags.json === true }, history, (h: typeof history) => h.versions.map(formatMemory).join('\n\n'));
      });
    });

  withCommonFlags(program.command('stats').description('counts by layer and status'))
    .option('--scope <scope>', 'scope to count (repeatable)', collect)
    .action(async (flags: ScopeFlags) => {
      await withEngine(flags, async (engram) => {
        const stats = await engram.stats({ scopes: flags.scope ?? [] });
        printResult({ json: flags.json === true }, stats, (s: typeof stats) =>
          [
            `scopes: ${s.scopes.join(', ')}`,
            `embedder: ${embedderLine(s.embedder, flags.cacheDir)}`,
            `memories: ${s.total}`,
            `by layer: ${fmtCounts(s.byLayer)}`,
            `concepts: ${s.concepts}`,
            `by status: ${fmtCounts(s.byStatus)}`,
            `edges: ${s.edges}`,
            `background jobs: pending ${s.jobs.pending}, running ${s.jobs.running}, failed ${s.jobs.failed}`,
            `waiting for part vectors: ${s.partVectorsPending} (made in the background, or by \`engram jobs --drain\`)`,
            `waiting for the dates their text names to be stored: ${s.mentionedTimesPending} (the same)`,
          ].join('\n'),
        );
      });
    });
}

/** Writes name exactly one scope. */
function single(scopes: string[]): string {
  if (scopes.length !== 1) {
    throw new EngramError(
      'INVALID_INPUT',
      `This command changes one memory: pass exactly one --scope (the scope it was written in); got ${scopes.length}.`,
    );
  }
  return scopes[0] as string;
}

function fmtCounts(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? '(none)' : entries.map(([k, v]) => `${k} ${v}`).join(', ');
}
