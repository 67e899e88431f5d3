/**
 * `engram recall --scope S [--scope S2]... [-k N] QUERY`.
 */
import type { Command } from 'commander';
import { instantFromText } from '../../../core/instant.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';
import { formatHits } from './format.js';
import { numberFlag } from '../number-flag.js';
import { localWallClock } from '../local-wall-clock.js';

interface RecallFlags extends CommonFlags {
  scope?: string[];
  k?: string;
  layer?: string[];
  asOf?: string;
  knownAt?: string;
  includeSuperseded?: boolean;
  persona?: boolean;
  chains?: boolean;
  timeZone?: string;
}

/** Registers `recall`. */
export function registerRecallCommand(program: Command): void {
  withCommonFlags(program.command('recall <query...>').description('find the memories most relevant to a query'))
    .option('--scope <scope>', 'scope to search (repeatable; at least one)', collect)
    .option('-k, --k <n>', 'number of hits (default 10)')
    .option('--layer <layer>', 'only this layer (repeatable)', collect)
    .option('--as-of <iso>', 'what was true at this instant (valid time)')
    .option('--known-at <iso>', 'what the store believed at this instant (transaction time)')
    .option('--include-superseded', 'also return superseded and decayed versions')
    .option('--persona', "re-rank by the scopes' persona (engram persona set); see why.persona")
    .option('--chains', 'add the whole decision chain of each hit that belongs to one')
    .option('--time-zone <zone>', "IANA time zone for dates in the query, e.g. Europe/Lisbon (default: this machine's)")
    .action(async (queryWords: string[], flags: RecallFlags) => {
      await withEngine(flags, async (engram) => {
        const result = await engram.recall(queryWords.join(' '), {
          scopes: flags.scope ?? [],
          ...(flags.k !== undefined ? { k: numberFlag(flags.k, '--k', '10') } : {}),
          ...(flags.layer !== undefined ? { layers: flags.layer as never } : {}),
          ...(flags.asOf !== undefined ? { asOf: instantFromText(flags.asOf) } : {}),
          ...(flags.knownAt !== undefined ? { knownAt: instantFromText(flags.knownAt) } : {}),
          ...(flags.includeSuperseded ? { includeSuperseded: true } : {}),
          ...(flags.persona === true ? { persona: true } : {}),
          ...(flags.chains === true ? { chains: true } : {}),
          ...localWallClock(flags.timeZone, flags.asOf),
        });
        printResult({ json: flags.json === true }, result, formatHits);
      });
    });
}
