/**
 * Browse: the filtered list of stored memories, newest first, one keyset page (100) at a time as you
 * scroll. Only the rows in view are in the page (windowing), so 100k memories scroll as fast as 100.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, formatTime, LAYERS, scopeList, STATUSES, type Memory } from '../api.js';
import { memoryHref, navigate } from '../router.js';
import { allScopesText, ErrorMessage, LayerBadge, ScopeField, Select, Status, StatusBadge, useSession, ViewTitle } from '../shared.js';

const ROW = 64;
const PAGE = 100;
const OVERSCAN = 6;
/** Fetch the next page while this many loaded rows are still below the view, so scrolling rarely waits. */
const PREFETCH = 40;
const SORTS = [
  ['recordedAt', 'recorded'],
  ['validFrom', 'valid from'],
  ['importance', 'importance'],
  ['accessedAt', 'last accessed'],
] as const;
const ORDERS = [
  ['desc', 'newest / highest first'],
  ['asc', 'oldest / lowest first'],
] as const;

function TextField(props: { id: string; name: string; label: string; value: string; onInput: (value: string) => void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type="text"
        value={props.value}
        onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
      />
    </div>
  );
}

export function BrowseView(props: { query: URLSearchParams }) {
  const session = useSession();
  const q = props.query;
  const [scope, setScope] = useState(q.get('scope') ?? allScopesText(session));
  const [layer, setLayer] = useState(q.get('layer') ?? '');
  const [status, setStatus] = useState(q.get('status') ?? '');
  const [text, setText] = useState(q.get('text') ?? '');
  const [tag, setTag] = useState(q.get('tag') ?? '');
  const [sort, setSort] = useState(q.get('sort') ?? 'recordedAt');
  const [order, setOrder] = useState(q.get('order') ?? 'desc');
  const [items, setItems] = useState<Memory[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(480);
  const box = useRef<HTMLDivElement>(null);
  const loadingRef = useRef(false);

  const filters = {
    scope: scopeList(q.get('scope') ?? allScopesText(session)),
    layer: q.get('layer') ?? undefined,
    status: q.get('status') ?? undefined,
    text: q.get('text') ?? undefined,
    tag: q.get('tag') ?? undefined,
    sort: q.get('sort') ?? undefined,
    order: q.get('order') ?? undefined,
  };

  const loadMore = async (from: string | null) => {
    if (loadingRef.current) return;
    loadingRef.current = true;
    setLoading(true);
    try {
      const page = await api<{ items: Memory[]; nextCursor: string | null }>('GET', '/v1/memories', {
        query: { ...filters, limit: PAGE, cursor: from ?? undefined },
      });
      setItems((prev) => (from === null ? page.items : [...prev, ...page.items]));
      setCursor(page.nextCursor);
      setDone(page.nextCursor === null);
    } catch (e) {
      setError(errorText(e));
      setDone(true);
    } finally {
      loadingRef.current = false;
      setLoading(false);
    }
  };

  useEffect(() => {
    void loadMore(null);
    const measure = () => setHeight(box.current?.clientHeight ?? 480);
    measure();
    addEventListener('resize', measure);
    return () => removeEventListener('resize', measure);
  }, []);

  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  useEffect(() => {
    if (!done && !loading && last >= items.length - PREFETCH && items.length > 0) void loadMore(cursor);
  }, [last, items.length, done, loading]);

  const submit = (event: Event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    params.set('scope', scope);
    for (const [name, value] of Object.entries({ layer, status, text, tag, sort, order })) if (value !== '') params.set(name, value);
    navigate(`/browse?${params.toString()}`);
  };

  const total = session.scopes.filter((s) => filters.scope.includes(s.scope)).reduce((n, s) => n + s.total, 0);

  return (
    <section>
      <ViewTitle>Browse</ViewTitle>
      <form class="filters" onSubmit={submit}>
        <ScopeField value={scope} onInput={setScope} />
        <Select id="b-layer" name="layer" label="Layer" value={layer} options={[['', 'any'], ...LAYERS]} onChange={setLayer} />
        <Select id="b-status" name="status" label="Status" value={status} options={[['', 'any'], ...STATUSES]} onChange={setStatus} />
        <TextField id="b-text" name="text" label="Contains text" value={text} onInput={setText} />
        <TextField id="b-tag" name="tag" label="Tag" value={tag} onInput={setTag} />
        <Select id="b-sort" name="sort" label="Sort by" value={sort} options={SORTS} onChange={setSort} />
        <Select id="b-order" name="order" label="Order" value={order} options={ORDERS} onChange={setOrder} />
        <button type="submit">Apply filters</button>
      </form>
      <ErrorMessage error={error} />
      <Status>
        {items.length} loaded{done ? '' : ' so far'}
        {total > 0 ? ` · ${total} in these scopes` : ''}
        {loading ? ' · loading…' : ''}
      </Status>
      <div
        ref={box}
        class="virtual"
        role="region"
        aria-label="Memories"
        tabIndex={0}
        onScroll={(e) => setScrollTop((e.target as HTMLDivElement).scrollTop)}
      >
        <ul
          style={{ height: `${items.length * ROW}px` }}
          class="virtual-inner"
          aria-label={`Memories ${first + 1} to ${last} of ${items.length}${done ? '' : '+'}`}
        >
          {items.slice(first, last).map((m, i) => (
            <li
              key={m.id}
              class="row"
              style={{ top: `${(first + i) * ROW}px`, height: `${ROW}px` }}
              aria-setsize={done ? items.length : -1}
              aria-posinset={first + i + 1}
            >
              <a href={memoryHref(m.id, m.scope)} class="row-link">
                <span class="row-content">{m.content}</span>
                <span class="row-meta">
                  <LayerBadge layer={m.layer} /> <StatusBadge status={m.status} /> {m.pinned ? <span class="badge">pinned</span> : null}{' '}
                  <span>{m.scope}</span> <span>recorded {formatTime(m.recordedAt)}</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      </div>
      {!done ? (
        <button type="button" onClick={() => void loadMore(cursor)} disabled={loading}>
          Load the next {PAGE}
        </button>
      ) : null}
    </section>
  );
}
