/** Overview: counts per layer and status, growth over time, decay candidates, pending jobs, the last run. */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, errorText, formatTime, LAYERS, scopeList, STATUSES } from '../api.js';
import { BarChart, StackedColumns } from '../charts.js';
import { memoryHref } from '../router.js';
import { allScopesText, ErrorMessage, ScopeForm, Status, TableHead, useSession, ViewTitle } from '../shared.js';
import type { Report } from './consolidation.js';

interface Overview {
  totals: { total: number; byLayer: Record<string, number>; byStatus: Record<string, number> };
  growth: Array<{ day: string; byLayer: Record<string, number>; total: number }>;
  decayCandidates: Array<{ id: string; scope: string; layer: string; content: string; salience: number; accessedAt: string | null }>;
  pendingJobs: { total: number; byKind: Record<string, number>; failed?: number };
  lastRun: Pick<Report, 'id' | 'scope' | 'finishedAt'> | null;
}

export function OverviewView() {
  const session = useSession();
  const [scope, setScope] = useState(allScopesText(session));
  const [data, setData] = useState<Overview | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async (scopes: string[]) => {
    setError(null);
    if (scopes.length === 0) {
      setData(null);
      return;
    }
    try {
      setData(await api<Overview>('GET', '/v1/overview', { query: { scope: scopes } }));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && /No endpoint/.test(e.message)) {
        // An older server: totals from /v1/scopes and jobs from /v1/stats.
        const chosen = session.scopes.filter((s) => scopes.includes(s.scope));
        const sum = (key: 'byLayer' | 'byStatus') =>
          Object.fromEntries((key === 'byLayer' ? LAYERS : STATUSES).map((k) => [k, chosen.reduce((n, s) => n + (s[key][k] ?? 0), 0)]));
        const stats = await api<{ jobs?: { pending: number; byKind: Record<string, number> } }>('GET', '/v1/stats', {
          query: { scopes },
        }).catch(() => ({ jobs: undefined }));
        setData({
          totals: { total: chosen.reduce((n, s) => n + s.total, 0), byLayer: sum('byLayer'), byStatus: sum('byStatus') },
          growth: [],
          decayCandidates: [],
          pendingJobs: { total: stats.jobs?.pending ?? 0, byKind: stats.jobs?.byKind ?? {} },
          lastRun: null,
        });
      } else setError(errorText(e));
    }
  };
  useEffect(() => {
    void load(scopeList(scope));
  }, []);

  return (
    <section>
      <ViewTitle>Overview</ViewTitle>
      <ScopeForm value={scope} onInput={setScope} onShow={(scopes) => void load(scopes)} />
      <ErrorMessage error={error} />
      {session.scopes.length === 0 ? <p>No memories yet: nothing is stored in the scopes you can see.</p> : null}
      {data === null ? (
        error === null && session.scopes.length > 0 ? (
          <Status>Loading…</Status>
        ) : null
      ) : (
        <>
          <p class="big">
            <strong>{data.totals.total}</strong> memories
          </p>
          <div class="charts">
            <BarChart id="by-layer" title="Memories per layer" data={LAYERS.map((l) => [l, data.totals.byLayer[l] ?? 0])} />
            <BarChart id="by-status" title="Memories per status" data={STATUSES.map((s) => [s, data.totals.byStatus[s] ?? 0])} />
            <BarChart
              id="jobs"
              title={`Pending jobs (${data.pendingJobs.total}${data.pendingJobs.failed ? `, ${data.pendingJobs.failed} failed` : ''})`}
              data={Object.entries(data.pendingJobs.byKind).length > 0 ? Object.entries(data.pendingJobs.byKind) : [['none', 0]]}
            />
          </div>
          <StackedColumns id="growth" title="Growth: memories recorded per day" days={data.growth} keys={LAYERS} />
          <h2>Decay candidates</h2>
          {data.decayCandidates.length === 0 ? (
            <p>None: nothing is close to fading.</p>
          ) : (
            <table>
              <caption class="sr-only">Memories closest to decaying</caption>
              <TableHead columns={['Memory', 'Layer', 'Salience', 'Last accessed']} />
              <tbody>
                {data.decayCandidates.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <a href={memoryHref(d.id, d.scope)}>{d.content}</a>
                    </td>
                    <td>{d.layer}</td>
                    <td>{d.salience.toFixed(2)}</td>
                    <td>{formatTime(d.accessedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>Last consolidation</h2>
          {data.lastRun === null ? (
            <p>
              No run yet. <a href="/consolidation">Run one</a>.
            </p>
          ) : (
            <p>
              Finished {formatTime(data.lastRun.finishedAt)} on {data.lastRun.scope}.{' '}
              <a href={`/consolidation?scope=${encodeURIComponent(data.lastRun.scope)}&run=${encodeURIComponent(data.lastRun.id)}`}>
                Read its report
              </a>
              .
            </p>
          )}
        </>
      )}
    </section>
  );
}
