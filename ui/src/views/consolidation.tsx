/** Consolidation: the runs of a scope, each run's report (phases, counts, durations, what changed), and run it now. */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, errorText, formatTime } from '../api.js';
import { memoryHref, navigate } from '../router.js';
import { ErrorMessage, ScopeSelect, Status, TableHead, useSession, ViewTitle } from '../shared.js';

/** One phase of a run as the server reports it: counts, duration, a note, and the ids it changed. */
type Phase = { name: string; note: string; examined: number; created: number; updated: number; durationMs: number } & Partial<
  Record<'ids' | 'superseded' | 'merged' | 'decayed' | 'expired', string[]>
>;

/** The report of one run (GET /v1/consolidation/runs, POST /v1/consolidate). */
export interface Report {
  id: string;
  scope: string;
  trigger: string;
  startedAt: string;
  finishedAt: string;
  resumed: boolean;
  phases: Phase[];
}

export function ConsolidationView(props: { query: URLSearchParams }) {
  const session = useSession();
  const [scope, setScope] = useState(props.query.get('scope') ?? session.scopes[0]?.scope ?? '');
  const [runs, setRuns] = useState<Report[] | null>(null);
  const [selected, setSelected] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [runsMissing, setRunsMissing] = useState(false);

  const loadRuns = async (s: string, pick?: string) => {
    if (s === '') return;
    try {
      const page = await api<{ items: Report[]; nextCursor: string | null }>('GET', '/v1/consolidation/runs', {
        query: { scope: s, limit: 50 },
      });
      setRuns(page.items);
      const wanted = pick ?? props.query.get('run');
      const found = page.items.find((r) => r.id === wanted);
      if (found !== undefined) setSelected(found);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && /No endpoint/.test(e.message)) setRunsMissing(true);
      else setError(errorText(e));
    }
  };
  useEffect(() => {
    void loadRuns(scope);
  }, []);

  const runNow = async () => {
    setBusy(true);
    setError(null);
    try {
      const report = await api<Report>('POST', '/v1/consolidate', { body: { scope } });
      setSelected(report);
      await loadRuns(scope, report.id);
      void session.reloadScopes();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <ViewTitle>Consolidation</ViewTitle>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(`/consolidation?scope=${encodeURIComponent(scope)}`);
        }}
      >
        <ScopeSelect id="c-scope" value={scope} onChange={setScope} />
        <button type="submit">Show runs</button>
        <button type="button" onClick={runNow} disabled={busy || scope === ''}>
          {busy ? 'Running…' : 'Run consolidation now'}
        </button>
      </form>
      <ErrorMessage error={error} />
      {busy ? <Status>Consolidating {scope}…</Status> : null}
      <div class="split">
        <div>
          <h2>Runs</h2>
          {runsMissing ? <p>This server does not list past runs; run one now to see its report.</p> : null}
          {runs !== null && runs.length === 0 ? <p>No run yet for this scope.</p> : null}
          {runs !== null && runs.length > 0 ? (
            <ul class="runs">
              {runs.map((r) => (
                <li key={r.id}>
                  <button type="button" class="link" aria-pressed={selected?.id === r.id} onClick={() => setSelected(r)}>
                    {formatTime(r.startedAt)} · {r.trigger} · {changed(r)} changed
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div>{selected !== null ? <RunReport report={selected} /> : <p>Choose a run, or run one now.</p>}</div>
      </div>
    </section>
  );
}

function changed(r: Report): number {
  return r.phases.reduce((n, p) => n + p.created + p.updated, 0);
}

const CHANGE_KINDS = [
  ['ids', 'created'],
  ['superseded', 'superseded'],
  ['merged', 'merged'],
  ['decayed', 'decayed'],
  ['expired', 'expired'],
] as const;

function idsOf(phase: Phase): Array<[string, string[]]> {
  return CHANGE_KINDS.map(([field, label]): [string, string[]] => [label, phase[field] ?? []]).filter(([, ids]) => ids.length > 0);
}

export function RunReport(props: { report: Report }) {
  const r = props.report;
  const duration = Date.parse(r.finishedAt) - Date.parse(r.startedAt);
  return (
    <article class="report" aria-labelledby="report-title">
      <h2 id="report-title">Run report</h2>
      <p>
        {r.scope} · {r.trigger} · started {formatTime(r.startedAt)} · {Number.isNaN(duration) ? '' : `${duration} ms`}
        {r.resumed ? ' · resumed' : ''} · {changed(r)} records created or updated
      </p>
      <table>
        <caption class="sr-only">Phases of the run</caption>
        <TableHead columns={['Phase', 'Examined', 'Created', 'Updated', 'ms', 'What happened']} />
        <tbody>
          {r.phases.map((p) => (
            <tr key={p.name}>
              <th scope="row">{p.name}</th>
              <td>{p.examined}</td>
              <td>{p.created}</td>
              <td>{p.updated}</td>
              <td>{p.durationMs}</td>
              <td>{p.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>What it changed</h3>
      {r.phases.every((p) => idsOf(p).length === 0) ? (
        <p>No record ids reported{changed(r) === 0 ? ': nothing changed' : ''}.</p>
      ) : (
        <ul>
          {r.phases.flatMap((p) =>
            idsOf(p).map(([kind, ids]) => (
              <li key={p.name + kind}>
                {p.name} {kind}:{' '}
                {ids.slice(0, 30).map((id, i) => (
                  <span key={id}>
                    {i > 0 ? ', ' : ''}
                    <a href={memoryHref(id, r.scope)}>{id.slice(-8)}</a>
                  </span>
                ))}
                {ids.length > 30 ? ` and ${ids.length - 30} more` : ''}
              </li>
            )),
          )}
        </ul>
      )}
    </article>
  );
}
