/**
 * One memory: every field, its past wordings, its version chain on a bitemporal timeline (valid time:
 * when it was true; transaction time: when we believed it), provenance and concepts; and the actions
 * edit, pin, forget, restore, unsupersede and purge (with confirmation).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, errorText, formatTime, type Memory } from '../api.js';
import { memoryHref } from '../router.js';
import { allScopesText, ErrorMessage, LayerBadge, Status, StatusBadge, useSession, ViewTitle } from '../shared.js';

/** One version of a claim as GET /v1/memories/{id}/versions sends it: valid time, then transaction time. */
export interface Version {
  id: string;
  content: string;
  status: string;
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
  supersededAt: string | null;
  /** Neighbours in the chain over SUPERSEDES edges. */
  supersedes: string[];
  supersededBy: string[];
}

interface Provenance {
  sources: unknown[];
  messages?: unknown[];
  derived: unknown[];
  concepts: unknown[];
}

interface Edge {
  id?: string;
  type: string;
  direction?: string;
  other?: { id: string; content?: string; layer?: string } | string;
  from?: string;
  to?: string;
  [k: string]: unknown;
}

/** The version chain: `/versions` when the server has it, else built from `/history`. */
async function loadVersions(id: string, scope: string): Promise<Version[]> {
  try {
    return (await api<{ chain: Version[] }>('GET', `/v1/memories/${encodeURIComponent(id)}/versions`, { query: { scope } })).chain;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404 || error.code !== 'NOT_FOUND' || !/No endpoint/.test(error.message))
      throw error;
  }
  const history = await api<{ versions: Memory[]; edges: Array<{ from: string; to: string; type: string }> }>(
    'GET',
    `/v1/memories/${encodeURIComponent(id)}/history`,
    { query: { scopes: scope } },
  );
  return history.versions.map((v) => {
    const newer = history.edges.find((e) => e.type === 'SUPERSEDES' && e.to === v.id);
    const older = history.edges.find((e) => e.type === 'SUPERSEDES' && e.from === v.id);
    return {
      id: v.id,
      content: v.content,
      status: v.status,
      validFrom: v.validFrom,
      validTo: v.validTo,
      recordedAt: v.recordedAt,
      supersededAt: v.invalidatedAt,
      supersedes: older !== undefined ? [older.to] : [],
      supersededBy: newer !== undefined ? [newer.from] : v.supersededBy !== undefined ? [v.supersededBy] : [],
    };
  });
}

async function loadProvenance(id: string, scope: string, memory: Memory): Promise<Provenance | null> {
  try {
    return await api<Provenance>('GET', `/v1/memories/${encodeURIComponent(id)}/provenance`, { query: { scope } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && /No endpoint/.test(error.message)) {
      return {
        sources: memory.provenance?.sources ?? [],
        derived: (memory.provenance?.derivedFrom ?? []).map((d) => ({ id: d })),
        concepts: [],
      };
    }
    throw error;
  }
}

export function MemoryView(props: { id: string; scope: string }) {
  const session = useSession();
  // An address without ?scope= (pasted, or typed) is looked up in every scope this session can see;
  // once found, its own scope is the one every later read and action names.
  const lookupScopes = props.scope !== '' ? props.scope : allScopesText(session);
  const [memory, setMemory] = useState<Memory | null>(null);
  const [versions, setVersions] = useState<Version[]>([]);
  const [provenance, setProvenance] = useState<Provenance | null>(null);
  const [edges, setEdges] = useState<Edge[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [purged, setPurged] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const path = `/v1/memories/${encodeURIComponent(props.id)}`;

  const load = async () => {
    try {
      const m = await api<Memory>('GET', path, { query: { scopes: lookupScopes } });
      const scope = m.scope;
      setMemory(m);
      const [v, p, e] = await Promise.all([
        loadVersions(props.id, scope).catch(() => []),
        loadProvenance(props.id, scope, m).catch(() => null),
        api<{ edges: Edge[] }>('GET', `${path}/edges`, { query: { scopes: scope } })
          .then((r) => r.edges)
          .catch(() => []),
      ]);
      setVersions(v);
      setProvenance(p);
      setEdges(e);
    } catch (e) {
      setError(errorText(e));
    }
  };

  useEffect(() => {
    void load();
  }, []);

  const act = async (label: string, run: () => Promise<Memory>) => {
    setError(null);
    try {
      const updated = await run();
      setMemory(updated);
      setNotice(label);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };

  if (purged !== null) {
    return (
      <section>
        <ViewTitle>Memory purged</ViewTitle>
        <Status>{purged}</Status>
        <p>
          <a href="/browse">Back to Browse</a>
        </p>
      </section>
    );
  }
  if (memory === null) {
    return (
      <section>
        <ViewTitle>Memory</ViewTitle>
        <ErrorMessage error={error} />
        {error === null ? <Status>Loading…</Status> : null}
      </section>
    );
  }

  const canRestore = memory.status === 'deleted' || memory.status === 'decayed';
  const canUnsupersede = memory.status === 'superseded';
  return (
    <section class="memory">
      <ViewTitle>Memory</ViewTitle>
      <blockquote class="content">{memory.content}</blockquote>
      <p class="meta">
        <LayerBadge layer={memory.layer} /> <StatusBadge status={memory.status} />{' '}
        {memory.pinned ? <span class="badge">pinned</span> : null} <span>{memory.scope}</span>
      </p>
      {notice !== null ? <Status>{notice}</Status> : null}
      <ErrorMessage error={error} />
      <div class="actions" role="group" aria-label="Actions">
        <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          Edit
        </button>
        <button
          type="button"
          onClick={() =>
            act(memory.pinned ? 'Unpinned.' : 'Pinned: decay will not touch it.', () =>
              api('PATCH', path, { query: { scope: memory.scope }, body: { pinned: !memory.pinned } }),
            )
          }
        >
          {memory.pinned ? 'Unpin' : 'Pin'}
        </button>
        {memory.status !== 'deleted' ? (
          <button
            type="button"
            onClick={() =>
              act('Forgotten (soft delete): restore brings it back.', () => api('DELETE', path, { query: { scope: memory.scope } }))
            }
          >
            Forget
          </button>
        ) : null}
        {canRestore ? (
          <button type="button" onClick={() => act('Restored.', () => api('POST', `${path}/restore`, { query: { scope: memory.scope } }))}>
            Restore
          </button>
        ) : null}
        {canUnsupersede ? (
          <button
            type="button"
            onClick={() =>
              act('Unsuperseded: it is current again.', () => api('POST', `${path}/unsupersede`, { query: { scope: memory.scope } }))
            }
          >
            Unsupersede
          </button>
        ) : null}
        <PurgeButton
          id={memory.id}
          scope={memory.scope}
          onPurged={(text) => {
            setPurged(text);
            void session.reloadScopes();
          }}
          onError={setError}
        />
      </div>
      {editing ? (
        <EditForm
          memory={memory}
          onSave={async (patch) => {
            await act('Saved.', () => api('PATCH', path, { query: { scope: memory.scope }, body: patch }));
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}

      <h2>Versions</h2>
      {versions.length === 0 ? <p>No version chain.</p> : <VersionTimeline versions={versions} current={memory.id} scope={memory.scope} />}

      <h2>Wording history</h2>
      {(memory.history ?? []).length === 0 ? (
        <p>Never reworded.</p>
      ) : (
        <ol class="wordings">
          {(memory.history ?? []).map((h, i) => (
            <li key={i}>
              <q>{h.content}</q> <span class="muted">until {formatTime(h.at)}</span>
            </li>
          ))}
        </ol>
      )}

      <h2>Provenance</h2>
      <ProvenanceList provenance={provenance} memory={memory} />

      <h2>Links and concepts</h2>
      {edges.length === 0 ? (
        <p>No links.</p>
      ) : (
        <ul class="edges">
          {edges.map((e, i) => {
            const other = typeof e.other === 'object' && e.other !== null ? e.other : null;
            const otherId = other?.id ?? (typeof e.other === 'string' ? e.other : e.to === memory.id ? e.from : e.to);
            return (
              <li key={e.id ?? i}>
                <span class="badge">{e.type}</span> {e.direction ?? ''}{' '}
                {otherId !== undefined ? <a href={memoryHref(otherId, memory.scope)}>{other?.content ?? otherId}</a> : null}
              </li>
            );
          })}
        </ul>
      )}

      <h2>Every field</h2>
      <dl class="fields">
        {Object.entries(memory).map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{typeof value === 'object' && value !== null ? <code>{JSON.stringify(value)}</code> : String(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function EditForm(props: { memory: Memory; onSave: (patch: Record<string, unknown>) => Promise<void>; onCancel: () => void }) {
  const [content, setContent] = useState(props.memory.content);
  const [importance, setImportance] = useState(props.memory.importance === null ? '' : String(props.memory.importance));
  const [tags, setTags] = useState(props.memory.tags.join(', '));
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <form
      class="edit card"
      onSubmit={async (e) => {
        e.preventDefault();
        const patch: Record<string, unknown> = {};
        if (content !== props.memory.content) patch.content = content;
        const imp = importance === '' ? null : Number(importance);
        if (imp !== props.memory.importance && imp !== null && !Number.isNaN(imp)) patch.importance = imp;
        const t = tags
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
        if (t.join(',') !== props.memory.tags.join(',')) patch.tags = t;
        await props.onSave(patch);
      }}
    >
      <div class="field">
        <label for="edit-content">Content</label>
        <textarea
          id="edit-content"
          ref={ref}
          rows={3}
          value={content}
          onInput={(e) => setContent((e.target as HTMLTextAreaElement).value)}
        />
      </div>
      <div class="field">
        <label for="edit-importance">Importance (0 to 1)</label>
        <input
          id="edit-importance"
          type="number"
          min={0}
          max={1}
          step="any"
          value={importance}
          onInput={(e) => setImportance((e.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field">
        <label for="edit-tags">Tags (comma-separated)</label>
        <input id="edit-tags" type="text" value={tags} onInput={(e) => setTags((e.target as HTMLInputElement).value)} />
      </div>
      <button type="submit">Save</button>{' '}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
  );
}

function PurgeButton(props: { id: string; scope: string; onPurged: (text: string) => void; onError: (e: string) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" class="danger" onClick={() => dialog.current?.showModal()}>
        Purge…
      </button>
      <dialog ref={dialog} aria-labelledby="purge-title" aria-describedby="purge-desc">
        <form
          method="dialog"
          onSubmit={async (e) => {
            e.preventDefault();
            dialog.current?.close();
            try {
              const r = await api<{ purged: number; removed: Record<string, number>; restored: string[]; auditId: string }>(
                'POST',
                '/v1/purge',
                { body: { scope: props.scope, ids: [props.id], confirm: true } },
              );
              const removed = Object.entries(r.removed)
                .filter(([, n]) => n > 0)
                .map(([k, n]) => `${n} ${k}`)
                .join(', ');
              props.onPurged(
                `Purged ${r.purged} record${r.purged === 1 ? '' : 's'} for good (removed ${removed || 'nothing else'}).${r.restored.length > 0 ? ` ${r.restored.length} earlier version${r.restored.length === 1 ? ' is' : 's are'} current again.` : ''} Audit entry ${r.auditId}.`,
              );
            } catch (error) {
              props.onError(errorText(error));
            }
          }}
        >
          <h2 id="purge-title">Purge this memory for good?</h2>
          <p id="purge-desc">
            Purge deletes the record and what was derived from it alone. It cannot be undone; Forget is the reversible delete.
          </p>
          <button type="button" autofocus onClick={() => dialog.current?.close()}>
            Cancel
          </button>{' '}
          <button type="submit" class="danger">
            Purge for good
          </button>
        </form>
      </dialog>
    </>
  );
}

function ProvenanceList(props: { provenance: Provenance | null; memory: Memory }) {
  const p = props.provenance;
  if (p === null) return <p>No provenance recorded.</p>;
  const kind = props.memory.provenance?.kind;
  const render = (items: unknown[], label: string) => (
    <>
      <h3>{label}</h3>
      {items.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {items.map((item, i) => {
            const obj = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : { id: String(item) };
            const id = typeof obj.id === 'string' ? obj.id : undefined;
            const text = typeof obj.content === 'string' ? obj.content : typeof obj.name === 'string' ? obj.name : undefined;
            const plain = Object.entries(obj)
              .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
              .map(([k, v]) => `${k}: ${String(v)}`)
              .join(' · ');
            return (
              <li key={i}>
                {id !== undefined ? (
                  <a href={memoryHref(id, typeof obj.scope === 'string' ? obj.scope : props.memory.scope)}>{text ?? id}</a>
                ) : (
                  <span>{plain}</span>
                )}
                {typeof obj.layer === 'string' ? (
                  <>
                    {' '}
                    <LayerBadge layer={obj.layer} />
                  </>
                ) : null}
                {typeof obj.link === 'string' ? <span class="muted"> ({obj.link})</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
  return (
    <div class="provenance">
      {kind !== undefined ? <p>Kind: {kind}</p> : null}
      {render(p.sources, 'Source episodes and records')}
      {render(p.messages ?? [], 'Source messages')}
      {render(p.derived, 'Derived from it')}
      {render(p.concepts, 'Concepts it feeds')}
    </div>
  );
}

/** Each version as two bars: when it was true (valid time) and when it was believed (transaction time). */
export function VersionTimeline(props: { versions: Version[]; current: string; scope: string }) {
  const now = Date.now();
  const times = props.versions
    .flatMap((v) => [v.validFrom, v.validTo, v.recordedAt, v.supersededAt])
    .filter((t): t is string => t !== null)
    .map((t) => Date.parse(t));
  const min = Math.min(...times);
  const max = Math.max(now, ...times);
  const span = Math.max(1, max - min);
  const width = 640;
  const x = (t: number) => 8 + ((t - min) / span) * (width - 16);
  const rowH = 40;
  return (
    <div class="versions">
      <svg
        viewBox={`0 0 ${width} ${props.versions.length * rowH + 24}`}
        role="img"
        aria-label={`Timeline of ${props.versions.length} versions: valid time bars above, transaction time bars below`}
        class="timeline-svg"
      >
        {props.versions.map((v, i) => {
          const y = i * rowH + 4;
          const vf = Date.parse(v.validFrom);
          const vt = v.validTo === null ? max : Date.parse(v.validTo);
          const rf = Date.parse(v.recordedAt);
          const rt = v.supersededAt === null ? max : Date.parse(v.supersededAt);
          return (
            <g key={v.id}>
              <rect
                x={x(vf)}
                y={y}
                width={Math.max(2, x(vt) - x(vf))}
                height={14}
                class={`bar valid ${v.id === props.current ? 'current' : ''}`}
              />
              <rect x={x(rf)} y={y + 17} width={Math.max(2, x(rt) - x(rf))} height={10} class="bar known" />
            </g>
          );
        })}
        <text x={8} y={props.versions.length * rowH + 18} class="axis">
          {formatTime(min)}
        </text>
        <text x={width - 8} y={props.versions.length * rowH + 18} class="axis" text-anchor="end">
          {formatTime(max)}
        </text>
      </svg>
      <p class="legend">
        <span class="swatch valid" /> true (valid time) <span class="swatch known" /> believed (transaction time)
      </p>
      <ol class="chain">
        {props.versions.map((v) => (
          <li key={v.id} aria-current={v.id === props.current ? 'true' : undefined}>
            {v.id === props.current ? <strong>{v.content}</strong> : <a href={memoryHref(v.id, props.scope)}>{v.content}</a>}{' '}
            <StatusBadge status={v.status} />
            <br />
            <span class="muted">
              true {formatTime(v.validFrom)} → {v.validTo === null ? 'now' : formatTime(v.validTo)}; believed {formatTime(v.recordedAt)} →{' '}
              {v.supersededAt === null ? 'now' : formatTime(v.supersededAt)}
              {v.supersedes.length > 0 ? '; supersedes an earlier version' : ''}
              {v.supersededBy.length > 0 ? '; superseded by a later one' : ''}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
