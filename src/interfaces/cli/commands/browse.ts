/**
 * `engram list | scopes | purge`. On a local store the CLI is its owner: it sees every scope.
 */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import pc from 'picocolors';
import { EngramError, isEngramError } from '../../../core/errors.js';
import { instantFromText } from '../../../core/instant.js';
import { cutText } from '../../../core/text/cut-text.js';
import type { ListResult } from '../../../core/browse/list.js';
import type { ScopeSummary } from '../../../core/ports/store.js';
import type { PurgeReport } from '../../../core/purge/purge.js';
import type { Engram } from '../../../engram.js';
import { collect, withCommonFlags, type CommonFlags } from '../context.js';
import { printError, printResult } from '../output.js';
import { withEngine } from '../run.js';
import { numberFlag } from '../number-flag.js';

interface FilterFlags extends CommonFlags {
  scope?: string[];
  layer?: string[];
  status?: string[];
  tag?: string;
  entity?: string;
  text?: string;
  validFrom?: string;
  validTo?: string;
  recordedFrom?: string;
  recordedTo?: string;
}

interface ListFlags extends FilterFlags {
  asOf?: string;
  knownAt?: string;
  sort?: string;
  order?: string;
  limit?: string;
  cursor?: string;
}

interface PurgeFlags extends FilterFlags {
  all?: boolean;
  yes?: boolean;
}

/** Adds the browse filter flags. */
function withFilters(command: Command): Command {
  return command
    .option('--layer <layer>', 'only this layer (repeatable)', collect)
    .option(
      '--status <status>',
      'only this status (repeatable; default every status): active, superseded, decayed, expired, deleted',
      collect,
    )
    .option('--tag <tag>', 'only memories with this tag')
    .option('--entity <entity>', 'only memories naming this entity')
    .option('--text <text>', 'only memories whose content contains this text (a plain substring, not recall)')
    .option('--valid-from <time>', 'valid at some point at or after this time (ISO 8601 or epoch ms)')
    .option('--valid-to <time>', 'valid at some point before this time')
    .option('--recorded-from <time>', 'recorded at or after this time')
    .option('--recorded-to <time>', 'recorded before this time');
}

/** The filter flags as the engine's filter fields (only those given). */
function filterOf(flags: FilterFlags): Record<string, unknown> {
  const filter: Record<string, unknown> = {
    layers: flags.layer,
    statuses: flags.status,
    tag: flags.tag,
    entity: flags.entity,
    text: flags.text,
    validFrom: instantFromText(flags.validFrom),
    validTo: instantFromText(flags.validTo),
    recordedFrom: instantFromText(flags.recordedFrom),
    recordedTo: instantFromText(flags.recordedTo),
  };
  for (const key of Object.keys(filter)) if (filter[key] === undefined) delete filter[key];
  return filter;
}

/** The audit actor of a purge or expiry from this CLI. */
export function actor(): string {
  try {
    return `cli (${userInfo().username})`;
  } catch {
    return 'cli';
  }
}

/** Registers list, scopes and purge. */
export function registerBrowseCommands(program: Command): void {
  withFilters(
    withCommonFlags(program.command('list').description('browse stored memories: filtered pages, newest first (not ranked recall)')),
  )
    .option('--scope <scope>', 'scope to list (repeatable; default every scope in the store)', collect)
    .option('--as-of <time>', 'only what was true at this time (valid time; ISO 8601 or epoch ms), as recall reads it')
    .option('--known-at <time>', 'only what the store believed at this time (transaction time)')
    .option('--sort <key>', 'recordedAt (default), validFrom, importance or accessedAt')
    .option('--order <order>', 'desc (default) or asc')
    .option('--limit <n>', 'memories per page, 1-200 (default 50)')
    .option('--cursor <cursor>', 'the next-page cursor a previous list printed (same filters)')
    .action(async (flags: ListFlags) => {
      await withEngine(flags, async (engram) => {
        const page = await engram.list({
          ...(flags.scope !== undefined ? { scopes: flags.scope } : { allScopes: true }),
          ...filterOf(flags),
          ...(flags.asOf !== undefined ? { asOf: instantFromText(flags.asOf) } : {}),
          ...(flags.knownAt !== undefined ? { knownAt: instantFromText(flags.knownAt) } : {}),
          ...(flags.sort !== undefined ? { sort: flags.sort as never } : {}),
          ...(flags.order !== undefined ? { order: flags.order as never } : {}),
          ...(flags.limit !== undefined ? { limit: numberFlag(flags.limit, '--limit', '50') } : {}),
          ...(flags.cursor !== undefined ? { cursor: flags.cursor } : {}),
        });
        printResult({ json: flags.json === true }, page, formatPage);
      });
    });

  withCommonFlags(program.command('scopes').description('the scopes in the store, with counts by layer and status')).action(
    async (flags: CommonFlags) => {
      await withEngine(flags, async (engram) => {
        const scopes = await engram.scopes({ allScopes: true });
        printResult({ json: flags.json === true }, { scopes }, (value: { scopes: ScopeSummary[] }) => formatScopes(value.scopes));
      });
    },
  );

  withFilters(
    withCommonFlags(
      program
        .command('purge [ids...]')
        .description('delete for good (the only hard delete): IDs, or what the filters match, or --all, in one scope'),
    ),
  )
    .option('--scope <scope>', 'the scope to purge in (exactly one)', collect)
    .option('--all', 'purge the whole scope')
    .option('--yes', 'confirm: a purge cannot be undone')
    .action(async (ids: string[], flags: PurgeFlags) => {
      const json = flags.json === true;
      let input: Record<string, unknown>;
      try {
        input = purgeInput(ids, flags);
      } catch (error) {
        process.exitCode = printError({ json }, error);
        return;
      }
      await withEngine(flags, async (engram) => {
        const scope = input.scope as string;
        const named = [...new Set(ids)];
        const notFound = await missingIds(engram, named, scope);
        // none of the named ids in the scope: NOT_FOUND as every command by id, and no audit entry for a purge of nothing
        if (named.length > 0 && notFound.length === named.length) throw notFoundInScope(notFound, scope);
        const selected = named.length > 0 ? { ...input, ids: named.filter((id) => !notFound.includes(id)) } : input;
        const report = await engram.purge(selected as never, { actor: actor() });
        const result = named.length > 0 ? { ...report, notFound } : report;
        printResult({ json }, result, (r: PurgeReport & { notFound?: string[] }) => formatPurge(r, scope));
      });
    });
}

/** Which of `ids` no memory of `scope` has (get is not an access). */
async function missingIds(engram: Engram, ids: readonly string[], scope: string): Promise<string[]> {
  const missing: string[] = [];
  for (const id of ids) {
    try {
      await engram.get(id, { scopes: [scope] });
    } catch (error) {
      if (!isEngramError(error) || error.code !== 'NOT_FOUND') throw error;
      missing.push(id);
    }
  }
  return missing;
}

function notFoundInScope(ids: readonly string[], scope: string): EngramError {
  const shown = ids.slice(0, 5).map((id) => (id.length > 40 ? `${id.slice(0, 40)}…` : id));
  const list = ids.length <= 5 ? shown.join(', ') : `${shown.join(', ')} and ${ids.length - 5} more`;
  return new EngramError(
    'NOT_FOUND',
    ids.length === 1
      ? `No memory with id ${list} in ${scope}: check the id and pass the scope it was written in. Nothing was purged.`
      : `No memory with ids ${list} in ${scope}: check the ids and pass the scope they were written in. Nothing was purged.`,
    { details: { ids } },
  );
}

/** The purge input the flags describe; refuses a purge without --yes, or one that names nothing or too much. */
function purgeInput(ids: string[], flags: PurgeFlags): Record<string, unknown> {
  if (flags.yes !== true) {
    throw new EngramError(
      'INVALID_INPUT',
      'A purge deletes for good and cannot be undone ("engram forget" is the soft delete): add --yes to go ahead. Nothing was removed.',
      { details: { field: 'yes' } },
    );
  }
  if (flags.scope?.length !== 1) {
    throw new EngramError('INVALID_INPUT', `A purge works in one scope: pass exactly one --scope; got ${flags.scope?.length ?? 0}.`, {
      details: { field: 'scope' },
    });
  }
  const filter = filterOf(flags);
  const hasFilter = Object.keys(filter).length > 0;
  const named = [ids.length > 0, hasFilter, flags.all === true].filter(Boolean).length;
  if (named !== 1) {
    throw new EngramError(
      'INVALID_INPUT',
      named === 0
        ? 'Name what to purge: memory IDs, filters (--text, --tag, --layer, ...), or --all for the whole scope.'
        : 'Give memory IDs, filters or --all, not several of them.',
      { details: { field: 'ids' } },
    );
  }
  return { scope: flags.scope[0], confirm: true, ...(ids.length > 0 ? { ids } : {}), ...(hasFilter ? { filter } : {}) };
}

function formatPage(page: ListResult): string {
  if (page.items.length === 0) return pc.dim('(no memories match)');
  const lines = page.items.map((m) => {
    const status = m.status === 'active' ? '' : ` ${pc.yellow(m.status)}`;
    // the time is UTC and says so ("Z"): typed back into --recorded-from it reads as the same instant
    return `${pc.dim(`${m.recordedAt.slice(0, 19).replace('T', ' ')}Z`)} ${pc.bold(m.id)} ${pc.dim(`${m.scope} · ${m.layer}`)}${status}\n    ${m.content.length > 200 ? `${cutText(m.content, 199)}…` : m.content}`;
  });
  if (page.nextCursor !== null) lines.push(pc.dim(`more: repeat with --cursor ${page.nextCursor}`));
  return lines.join('\n');
}

function formatScopes(scopes: ScopeSummary[]): string {
  if (scopes.length === 0) return pc.dim('(no scopes: the store is empty)');
  const counts = (c: Record<string, number>) =>
    Object.entries(c)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  return scopes.map((s) => `${pc.bold(s.scope)}  ${s.total} memories · ${counts(s.byLayer)} · ${counts(s.byStatus)}`).join('\n');
}

function formatPurge(report: PurgeReport & { notFound?: string[] }, scope: string): string {
  const r = report.removed;
  const lines = [
    `Purged ${report.purged} memor${report.purged === 1 ? 'y' : 'ies'} from ${scope} for good.`,
    ...((report.notFound ?? []).length > 0 ? [`not found in ${scope} (nothing purged for them): ${report.notFound?.join(', ')}`] : []),
    pc.dim(
      `removed: ${r.records} records, ${r.chunks} chunks, ${r.statistics} statistics, ${r.edges} edges, ${r.refs} concept refs, ${r.history} past wordings, ${r.indexEntries} index entries${r.states > 0 ? `, ${r.states} state documents` : ''}`,
    ),
  ];
  if (report.restored.length > 0) lines.push(`current again (what superseded them was purged): ${report.restored.join(', ')}`);
  lines.push(pc.dim(`audit entry ${report.auditId}`));
  return lines.join('\n');
}
