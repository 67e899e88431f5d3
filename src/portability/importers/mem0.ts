/**
 * mem0 memories, as `get_all` returns them (`{"results": [...]}`, or a bare array, or the platform
 * export's `{"memories": [...]}`): {id, memory, hash, metadata, user_id, agent_id, run_id, app_id,
 * categories, created_at, updated_at}. Each memory becomes a semantic memory (a claim, so it takes part
 * in supersession and dedup) in the scope its ids map to through `--scope-template`, valid from
 * `updated_at` (when the memory took its current text), else `created_at`, else `--default-time`.
 * The source key includes the memory's `hash`, so an unchanged memory is left alone on a second
 * import while one mem0 has rewritten since comes in as a new version: it ends the validity of the
 * version imported before (at its own `updated_at`), reported as superseded.
 */
import { EngramError } from '../../core/errors.js';
import type { RememberInput } from '../../core/schemas.js';
import { requireShape } from './file-shape.js';
import { emptyUnit, type ImportContext, type ImportUnit } from './import-plan.js';
import { resolveScope } from './scope-template.js';
import { fromIso, NO_TIME_REASON, timeOr } from './source-time.js';
import { cutText } from './cut-text.js';

export const MEM0_SYSTEM = 'mem0';

/** The id fields of a mem0 memory, usable as `--scope-template` placeholders. */
export const MEM0_PLACEHOLDERS = ['user_id', 'agent_id', 'run_id', 'app_id', 'org_id', 'project_id', 'actor_id'] as const;

interface Mem0Memory {
  id?: unknown;
  memory?: unknown;
  hash?: unknown;
  metadata?: unknown;
  categories?: unknown;
  created_at?: unknown;
  updated_at?: unknown;
  [key: string]: unknown;
}

/** The memories of a parsed mem0 export, refused when none of its items is a memory (the file is another format). */
export function mem0List(parsed: unknown): unknown[] {
  const list = Array.isArray(parsed) ? parsed : typeof parsed === 'object' && parsed !== null ? wrapped(parsed) : undefined;
  if (list !== undefined) {
    requireShape(list, 'mem0');
    return list;
  }
  throw new EngramError(
    'INVALID_INPUT',
    'A mem0 export must be a JSON array of memories, or an object with "results" (what get_all returns) or "memories".',
  );
}

/** The list under `results` (what get_all returns) or `memories` (the platform export). */
function wrapped(parsed: object): unknown[] | undefined {
  for (const key of ['results', 'memories'] as const) {
    const list = (parsed as Record<string, unknown>)[key];
    if (Array.isArray(list)) return list;
  }
  return undefined;
}

/** The import units of a mem0 export: one unit per 200 memories (progress moves as they are written). */
export function* mem0Units(parsed: unknown, context: ImportContext): Generator<ImportUnit> {
  const list = mem0List(parsed);
  for (let start = 0; start < list.length; start += 200) {
    const unit = emptyUnit(`memories ${start + 1}-${Math.min(list.length, start + 200)}`);
    list.slice(start, start + 200).forEach((raw, offset) => addMemory(unit, raw, start + offset, context));
    yield unit;
  }
}

function addMemory(unit: ImportUnit, raw: unknown, index: number, context: ImportContext): void {
  const m = (typeof raw === 'object' && raw !== null ? raw : {}) as Mem0Memory;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? String(m.id) : undefined;
  const ref = `memory ${id ?? `#${index + 1}`}`;
  if (id === undefined) {
    unit.skipped.push({ ref, reason: 'memory without an id' });
    return;
  }
  const text = typeof m.memory === 'string' ? m.memory.replaceAll('\u0000', '').trim() : typeof m.data === 'string' ? m.data.trim() : '';
  if (text === '') {
    unit.skipped.push({ ref, reason: 'memory without text' });
    return;
  }
  const ids = Object.fromEntries(
    MEM0_PLACEHOLDERS.map((key) => [key, typeof m[key] === 'string' || typeof m[key] === 'number' ? String(m[key]) : undefined]),
  );
  const resolved = resolveScope(context, ids);
  if ('problem' in resolved) {
    unit.skipped.push({ ref, reason: resolved.problem });
    return;
  }
  const at = timeOr(fromIso(m.updated_at) ?? fromIso(m.created_at), context.defaultTime);
  if (at === undefined) {
    unit.skipped.push({ ref, reason: NO_TIME_REASON });
    return;
  }
  const version = typeof m.hash === 'string' && m.hash !== '' ? m.hash : typeof m.updated_at === 'string' ? m.updated_at : 'v1';
  const metadata =
    typeof m.metadata === 'object' && m.metadata !== null && !Array.isArray(m.metadata)
      ? (m.metadata as Record<string, unknown>)
      : undefined;
  const input: RememberInput = {
    scope: resolved.scope,
    layer: 'semantic',
    content: text,
    validFrom: at,
    tags: [MEM0_SYSTEM, ...categoriesOf(m, metadata)],
    source: { system: MEM0_SYSTEM, messageId: `${id}@${version}` },
    provenance: { kind: 'document' },
    properties: {
      mem0: {
        id,
        ...Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined)),
        ...(typeof m.hash === 'string' ? { hash: m.hash } : {}),
        ...(typeof m.created_at === 'string' ? { created_at: m.created_at } : {}),
        ...(typeof m.updated_at === 'string' ? { updated_at: m.updated_at } : {}),
        ...(metadata !== undefined ? { metadata } : {}),
      },
    },
  };
  unit.memories.push({ key: `mem0/${id}`, input, ref, version: { identity: `mem0/${id}`, at } });
}

/** Tags from the platform's `categories` and a metadata `category`, each at most 100 characters. */
function categoriesOf(m: Mem0Memory, metadata: Record<string, unknown> | undefined): string[] {
  const found = [...(Array.isArray(m.categories) ? m.categories : []), metadata?.category].filter(
    (c): c is string => typeof c === 'string' && c.trim() !== '',
  );
  return [...new Set(found.map((c) => cutText(c.trim(), 100)))].slice(0, 20);
}
