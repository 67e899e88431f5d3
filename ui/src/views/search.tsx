/** Search: ranked recall with the relevance of each hit and, channel by channel, why it was found. */
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, LAYERS, localToIso, scopeList, type ChannelWhy, type Hit } from '../api.js';
import { memoryHref, navigate } from '../router.js';
import {
  allScopesText,
  ErrorMessage,
  LayerBadge,
  percent,
  ScopeField,
  Status,
  StatusBadge,
  TableHead,
  useSession,
  ViewTitle,
} from '../shared.js';

const CHANNEL_NAMES: Record<string, string> = {
  lexical: 'Words (full-text)',
  semantic: 'Meaning (embedding)',
  entity: 'Names (entities)',
  temporal: 'Dates (when it happened)',
  mention: 'Dates (named in the text)',
  graph: 'Links (graph)',
  activation: 'Spreading activation',
};

export function SearchView(props: { query: URLSearchParams }) {
  const session = useSession();
  const initial = props.query;
  const [q, setQ] = useState(initial.get('q') ?? '');
  const [scope, setScope] = useState(initial.get('scope') ?? allScopesText(session));
  const [layers, setLayers] = useState<string[]>(initial.getAll('layer'));
  const [asOf, setAsOf] = useState(initial.get('asOf') ?? '');
  const [knownAt, setKnownAt] = useState(initial.get('knownAt') ?? '');
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const text = initial.get('q');
    if (text === null || text.trim() === '') return;
    const scopes = scopeList(initial.get('scope') ?? allScopesText(session));
    if (scopes.length === 0) {
      setError('Name at least one scope to search in.');
      return;
    }
    setBusy(true);
    const body: Record<string, unknown> = { query: text, scopes, k: 20 };
    const chosen = initial.getAll('layer');
    if (chosen.length > 0) body.layers = chosen;
    const a = localToIso(initial.get('asOf') ?? '');
    const k = localToIso(initial.get('knownAt') ?? '');
    if (a !== undefined) body.asOf = a;
    if (k !== undefined) body.knownAt = k;
    api<{ hits: Hit[] }>('POST', '/v1/recall', { body })
      .then((r) => setHits(r.hits))
      .catch((e) => setError(errorText(e)))
      .finally(() => setBusy(false));
  }, []);

  const submit = (event: Event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    params.set('q', q);
    params.set('scope', scope);
    for (const l of layers) params.append('layer', l);
    if (asOf !== '') params.set('asOf', asOf);
    if (knownAt !== '') params.set('knownAt', knownAt);
    navigate(`/search?${params.toString()}`);
  };

  return (
    <section>
      <ViewTitle>Search</ViewTitle>
      <form class="filters" role="search" onSubmit={submit}>
        <div class="field grow">
          <label for="q">Query</label>
          <input id="q" name="q" type="search" value={q} required onInput={(e) => setQ((e.target as HTMLInputElement).value)} />
        </div>
        <ScopeField value={scope} onInput={setScope} />
        <fieldset>
          <legend>Layers</legend>
          {LAYERS.map((layer) => (
            <label key={layer} class="check">
              <input
                type="checkbox"
                name="layer"
                value={layer}
                checked={layers.includes(layer)}
                onChange={(e) =>
                  setLayers((prev) => ((e.target as HTMLInputElement).checked ? [...prev, layer] : prev.filter((l) => l !== layer)))
                }
              />
              {layer}
            </label>
          ))}
        </fieldset>
        <div class="field">
          <label for="as-of">As of (what was true then)</label>
          <input
            id="as-of"
            name="asOf"
            type="datetime-local"
            step="1"
            value={asOf}
            onInput={(e) => setAsOf((e.target as HTMLInputElement).value)}
          />
        </div>
        <div class="field">
          <label for="known-at">Known at (what we believed then)</label>
          <input
            id="known-at"
            name="knownAt"
            type="datetime-local"
            step="1"
            value={knownAt}
            onInput={(e) => setKnownAt((e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={error} />
      {busy ? <Status>Searching…</Status> : null}
      {hits !== null && !busy ? (
        <>
          <Status>{hits.length === 0 ? 'No memory matches.' : `${hits.length} result${hits.length === 1 ? '' : 's'}`}</Status>
          <ol class="hits">
            {hits.map((hit) => (
              <HitCard key={hit.id} hit={hit} />
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}

function HitCard(props: { hit: Hit }) {
  const { hit } = props;
  const channels = Object.entries(hit.why.channels ?? {});
  const descId = `why-${hit.id}`;
  return (
    <li class="card hit">
      <h2 class="hit-title">
        <a href={memoryHref(hit.id, hit.scope)}>{hit.content}</a>
      </h2>
      <p class="meta">
        <LayerBadge layer={hit.layer} /> <StatusBadge status={hit.status} /> <span>{hit.scope}</span>
      </p>
      <div class="relevance">
        <span>
          Relevance <strong>{percent(hit.relevance)}</strong>
        </span>
        <meter min={0} max={1} value={hit.relevance} aria-label={`Relevance ${percent(hit.relevance)}`} />
      </div>
      <p id={descId} class="why-summary">
        <strong>Why:</strong>{' '}
        {channels.length === 0
          ? 'found by no retrieval channel (reached through links).'
          : `found by ${channels.map(([name, c]) => `${CHANNEL_NAMES[name] ?? name}, ${strength(c)}`).join('; ')}.`}
      </p>
      <details class="why">
        <summary aria-describedby={descId}>Channel details</summary>
        <table>
          <caption class="sr-only">How each channel found this memory</caption>
          <TableHead columns={['Channel', 'Rank', 'Strength', 'Query covered']} />
          <tbody>
            {channels.map(([name, c]) => (
              <tr key={name}>
                <th scope="row">{CHANNEL_NAMES[name] ?? name}</th>
                <td>{c.rank ?? '—'}</td>
                <td>{strength(c)}</td>
                <td>{c.coverage !== undefined ? percent(c.coverage) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="why-extra">
          {['recency', 'importance', 'activation']
            .map((k) => (typeof hit.why[k] === 'number' ? `${k} ${(hit.why[k] as number).toFixed(2)}` : null))
            .filter((x) => x !== null)
            .join(' · ')}
        </p>
      </details>
    </li>
  );
}

function strength(c: ChannelWhy): string {
  if (c.score === undefined) return '—';
  const word = c.score >= 0.75 ? 'strong' : c.score >= 0.3 ? 'medium' : 'weak';
  return `${word} (${c.score.toFixed(2)})`;
}
