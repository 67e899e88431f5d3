/**
 * The stored reports of consolidation runs (state documents `consolidate/report/<runId>` of each
 * scope), newest first across scopes with a keyset cursor on (run id, scope), and one run by id.
 * Run ids are ULIDs of the run's instant, so their order is the order the runs started in.
 */
import { z } from 'zod';
import { EngramError } from '../core/errors.js';
import { exploreScopesSchema, scopeList } from '../core/explore/schemas.js';
import { decodeKeyset, encodeKeyset } from '../core/explore/keyset-cursor.js';
import type { StoreReader } from '../core/ports/store.js';
import { parseInput } from '../core/schemas.js';
import { compareCodePoints } from '../core/browse/sort-key.js';
import { cutText } from '../core/text/index.js';
import type { ConsolidationReport } from './report.js';

const REPORT_PREFIX = 'consolidate/report/';
/** A run id: a ULID (Crockford base32, 26 characters). */
const RUN_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const CURSOR_KIND = 'consolidation-runs';

export const MAX_RUNS_LIMIT = 100;
export const DEFAULT_RUNS_LIMIT = 20;

/** Input of `consolidationRuns`. */
export const consolidationRunsInputSchema = z
  .object({
    scopes: exploreScopesSchema,
    limit: z.number().int().min(1).max(MAX_RUNS_LIMIT).optional(),
    cursor: z.string().min(1).max(2000).optional(),
  })
  .strict();
export type ConsolidationRunsInput = z.input<typeof consolidationRunsInputSchema>;

/** One page of run reports, newest first; `nextCursor` is null on the last page. */
export interface ConsolidationRunsPage {
  items: ConsolidationReport[];
  nextCursor: string | null;
}

/** A page of the run reports of the scopes, newest first (see the module comment). */
export async function listConsolidationRuns(store: StoreReader, input: ConsolidationRunsInput): Promise<ConsolidationRunsPage> {
  const parsed = parseInput(consolidationRunsInputSchema, input, 'consolidationRuns');
  const limit = parsed.limit ?? DEFAULT_RUNS_LIMIT;
  const after = parsed.cursor !== undefined ? decodeKeyset(CURSOR_KIND, parsed.cursor, 2) : undefined;
  const scopes = scopeList(parsed.scopes);
  const pages = await Promise.all(
    scopes.map(async (scope) => {
      // after (id, s) in (id desc, scope desc): an earlier id, or the same id in a scope that sorts before s
      // (keys below "<id> " include "<id>" itself: run ids have no spaces)
      const start =
        after === undefined
          ? undefined
          : compareCodePoints(scope, after[1] as string) < 0
            ? `${REPORT_PREFIX}${after[0]} `
            : `${REPORT_PREFIX}${after[0]}`;
      // one more than asked for: the `last` copy sorts above every run id
      const entries = await store.listState(scope, REPORT_PREFIX, limit + 2, {
        order: 'desc',
        ...(start !== undefined ? { after: start } : {}),
      });
      return entries
        .filter((e) => RUN_ID.test(e.key.slice(REPORT_PREFIX.length)))
        .map((e) => ({ ...(e.value as ConsolidationReport), id: e.key.slice(REPORT_PREFIX.length), scope }));
    }),
  );
  const merged = pages.flat().sort((a, b) => compareCodePoints(b.id, a.id) || compareCodePoints(b.scope, a.scope));
  const items = merged.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: merged.length > limit && last !== undefined ? encodeKeyset(CURSOR_KIND, [last.id, last.scope]) : null };
}

/** The report of run `id` in one of `scopes`; `NOT_FOUND` when none of them has it. */
export async function findConsolidationRun(
  store: StoreReader,
  id: string,
  options: { scopes: string | readonly string[] },
): Promise<ConsolidationReport> {
  const scopes = scopeList(parseInput(z.object({ scopes: exploreScopesSchema }).strict(), options, 'consolidationRun options').scopes);
  if (typeof id !== 'string' || !RUN_ID.test(id)) {
    throw new EngramError(
      'INVALID_INPUT',
      `Invalid input: id "${cutText(String(id), 40)}" is not a run id (26 characters, as in the runs list and each consolidation report).`,
      { details: { field: 'id' } },
    );
  }
  for (const scope of scopes) {
    const entry = await store.getState(scope, `${REPORT_PREFIX}${id}`);
    if (entry !== null) return { ...(entry.value as ConsolidationReport), id, scope };
  }
  throw new EngramError(
    'NOT_FOUND',
    `No consolidation run ${id} in the scopes of this read: list the runs with consolidationRuns (GET /v1/consolidation/runs).`,
    { details: { id } },
  );
}

/** The newest finished run among `scopes` (by run id), or null when none has run. */
export async function lastConsolidationRun(
  store: StoreReader,
  scopes: readonly string[],
): Promise<{ id: string; scope: string; finishedAt: string } | null> {
  const lasts = await Promise.all(scopes.map((scope) => store.getState(scope, `${REPORT_PREFIX}last`)));
  let newest: { id: string; scope: string; finishedAt: string } | null = null;
  for (const entry of lasts) {
    const report = entry?.value as Partial<ConsolidationReport> | undefined;
    if (entry === null || entry === undefined || typeof report?.id !== 'string' || typeof report.finishedAt !== 'string') continue;
    if (newest === null || compareCodePoints(report.id, newest.id) > 0)
      newest = { id: report.id, scope: entry.scope, finishedAt: report.finishedAt };
  }
  return newest;
}
