/**
 * The lossless dump over HTTP: `GET /v1/export` streams NDJSON (docs/dump-format.md) and `POST
 * /v1/import` reads one as a streamed body (not held in memory, so not subject to the JSON body
 * limit) and answers a JSON report. An API key exports and imports its own tenant's scopes only.
 */
import { z } from 'zod';
import { EngramError, isEngramError } from '../../../core/errors.js';
import { toHttpError, type HttpErrorBody } from '../error-mapping.js';
import { assertUtf8Charset } from '../body.js';
import { dumpHeaderSchema, dumpLineSchema, exportDump } from '../../../core/dump/index.js';
import type { StoreReader } from '../../../core/ports/store.js';
import type { Scope } from '../../../core/scope.js';
import type { RouteContext, RouteSpec } from '../route.js';
import { selection } from './browse.js';

const TAG = 'dump';

/** One line of a dump: the header first, then records, edges, concept refs, relation types, state, audit, end. */
const dumpLineDoc = z.union([dumpHeaderSchema.meta({ id: 'DumpHeader' }), dumpLineSchema]).meta({ id: 'DumpLine' });

const counts = z
  .object({ created: z.number().int(), skipped: z.number().int(), conflicting: z.number().int() })
  .meta({ id: 'DumpImportCounts' });
const importReportSchema = z
  .object({
    embedder: z.object({ dump: z.string(), store: z.string(), vectors: z.enum(['dump', 'embedded']) }),
    embedded: z.number().int(),
    lines: z.number().int(),
    counts: z.object({ record: counts, edge: counts, conceptRef: counts, relationType: counts, state: counts, audit: counts }),
    conflicts: z.array(z.object({ kind: z.string(), scope: z.string(), key: z.string(), reason: z.string() })),
    complete: z.boolean(),
  })
  .meta({ id: 'DumpImportReport' });

/** The scopes a request may export: named ones it may see, else every scope visible to it. */
async function exportScopes(ctx: RouteContext): Promise<readonly Scope[] | 'all'> {
  const named = [...ctx.query.getAll('scope'), ...ctx.query.getAll('scopes')]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  const chosen = selection(ctx, named);
  if (chosen.scopes !== undefined) return typeof chosen.scopes === 'string' ? [chosen.scopes] : chosen.scopes;
  if (chosen.tenant !== undefined) return ctx.engram.store.listScopes({ tenants: [chosen.tenant] });
  return 'all';
}

/**
 * The dump of no scope (a key whose tenant holds nothing yet): the header with `scopes: []` and the end
 * line with zero counts, written by the exporter itself (the engine refuses an empty scope list, a
 * mistake in a library call; here it is simply a tenant with nothing to dump).
 */
function emptyDump(ctx: RouteContext, embeddings: boolean): AsyncGenerator<string> {
  // with no scope the exporter reads nothing but the (empty) scope list
  const store: Pick<StoreReader, 'listScopes'> = { listScopes: async () => [] };
  const { name, dimension } = ctx.engram.embedder;
  return exportDump({ store: store as StoreReader, embedder: { name, dimension } }, { scopes: 'all', embeddings });
}

/** The scopes, and the relation type tenants, of a dump this request may write (SCOPE_DENIED otherwise). */
function importPermits(ctx: RouteContext): { permitScope: (scope: Scope) => void; permitTenant: (tenant: string) => void } {
  return { permitScope: (scope) => ctx.authorize([scope]), permitTenant: (tenant) => ctx.authorizeTenant(tenant) };
}

/**
 * The error line that ends an export that failed after its 200. A damaged record (or one without its
 * vector) is the store's state, not a bug: its message names the record and how to fix it, and nothing
 * is logged. Anything else is answered as every other error (internal ones logged under a reference).
 */
function failureBody(error: unknown, ctx: RouteContext): HttpErrorBody {
  if (isEngramError(error) && error.code === 'STORAGE_CORRUPT' && typeof error.details.id === 'string') {
    return { error: { code: error.code, message: error.message, details: { ...error.details } } };
  }
  return toHttpError(error, ctx.log).body;
}

export const dumpRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/export',
    operationId: 'exportDump',
    summary: 'Stream a lossless dump of scopes as NDJSON',
    description:
      'One JSON value per line: the header, then every record of the scopes (any status, every field) by scope and id, edges, concept refs (insertion order), relation type registrations, state documents, audit entries and an end line with the counts (docs/dump-format.md). Without `scope`, every scope the caller may see. An export that fails after the 200 (a damaged record in the scopes: STORAGE_CORRUPT naming it and how to fix it) ends with one line `{"error": {"code", "message"}}` instead of the end line; a dump that stops before its end line was cut off.',
    tag: TAG,
    query: [
      {
        name: 'scope',
        description: 'A scope to dump (repeatable or comma-separated); default every scope this caller may see.',
        list: true,
        aliases: ['scopes'],
      },
      { name: 'embeddings', description: "`true` adds each record's vector (base64 float32); default false." },
    ],
    ndjson: { response: dumpLineDoc },
    responseDescription: 'The dump, as application/x-ndjson',
    async handle(ctx) {
      const embeddings = ctx.query.get('embeddings');
      if (embeddings !== null && embeddings !== 'true' && embeddings !== 'false') {
        throw new EngramError('INVALID_INPUT', `Invalid input: embeddings must be true or false, not "${embeddings.slice(0, 20)}".`);
      }
      const scopes = await exportScopes(ctx);
      const lines =
        scopes !== 'all' && scopes.length === 0
          ? emptyDump(ctx, embeddings === 'true')
          : ctx.engram.exportJsonl({ scopes, embeddings: embeddings === 'true' });
      // the header is read before answering, so a bad request still gets its 4xx
      const first = await lines.next();
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (first.done !== true) controller.enqueue(encoder.encode(first.value));
        },
        async pull(controller) {
          try {
            const next = await lines.next();
            if (next.done === true) controller.close();
            else controller.enqueue(encoder.encode(next.value));
          } catch (error) {
            // past the 200 the status cannot say it: the last line does, in the API's error shape
            controller.enqueue(encoder.encode(`${JSON.stringify(failureBody(error, ctx))}\n`));
            controller.close();
          }
        },
        async cancel() {
          await lines.return(undefined);
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8' } });
    },
  },
  {
    method: 'post',
    path: '/v1/import',
    operationId: 'importDump',
    summary: 'Restore a dump (NDJSON body, streamed)',
    description:
      "Reads a dump written by `GET /v1/export` or `engram export jsonl`, line by line: ids and every field are kept; what the store already holds is skipped, so sending the same dump again (or the rest after a broken connection) creates nothing twice. The body is streamed, so the JSON body limit does not apply. An API key may only import its tenant's scopes (checked before anything is written for the header's scopes).",
    tag: TAG,
    ndjson: { request: dumpLineDoc },
    response: importReportSchema,
    responseDescription: 'What was created, skipped and kept as stored',
    async handle(ctx) {
      const body = ctx.request.body;
      assertUtf8Charset(ctx.request, 'application/x-ndjson');
      if (body === null) throw new EngramError('INVALID_INPUT', 'Invalid input: send the dump as the request body (application/x-ndjson).');
      return ctx.engram.importJsonl(body as unknown as AsyncIterable<Uint8Array>, importPermits(ctx));
    },
  },
];
