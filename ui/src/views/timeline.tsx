/**
 * Timeline: memories over time with their validity intervals, and a slider that replays an instant:
 * what was true then (valid time) or what we believed then (transaction time).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, formatTime, scopeList, type Memory } from '../api.js';
import { memoryHref } from '../router.js';
import { allScopesText, ErrorMessage, LayerBadge, ScopeForm, Status, useSession, ViewTitle } from '../shared.js';

const STEPS = 1000;

/** Was `m` true at `t` (valid time, as known now)? Forgotten records are not. */
export function trueAt(m: Memory, t: number): boolean {
  if (m.status === 'deleted') return false;
  return Date.parse(m.validFrom) <= t && (m.validTo === null || t < Date.parse(m.validTo));
}

/** Did we believe `m` at `t` (transaction time)? */
export function believedAt(m: Memory, t: number): boolean {
  return Date.parse(m.recordedAt) <= t && (m.invalidatedAt === null || t < Date.parse(m.invalidatedAt));
}

export function TimelineView() {
  const session = useSession();
  const [scope, setScope] = useState(allScopesText(session));
  const [items, setItems] = useState<Memory[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [mode, setMode] = useState<'valid' | 'known'>('valid');
  const [step, setStep] = useState(STEPS);
  // The slider's right end is when the records were loaded, not each render's clock: an instant that
  // moved on every render would ask the server again after each answer, for as long as the view is open.
  const [loadedAt, setLoadedAt] = useState(() => Date.now());

  const load = async (scopes: string[]) => {
    setError(null);
    try {
      const page = await api<{ items: Memory[] }>('GET', '/v1/memories', {
        query: { scope: scopes, sort: 'validFrom', order: 'asc', limit: 200, layer: ['semantic', 'procedural', 'episodic'] },
      });
      setItems(page.items.filter((m) => !('concept' in m && m.concept === true)));
      setLoadedAt(Date.now());
    } catch (e) {
      setError(errorText(e));
    }
    setLoaded(true);
  };
  useEffect(() => {
    void load(scopeList(scope));
  }, []);

  const now = loadedAt;
  const times = items.flatMap((m) => [m.validFrom, m.recordedAt]).map((t) => Date.parse(t));
  const min = times.length === 0 ? now - 86_400_000 : Math.min(...times) - 1000;
  const max = now;
  const instant = min + ((max - min) * step) / STEPS;
  // The list at the instant comes from the server (GET /v1/memories with asOf or knownAt), so it holds
  // at any size; until it answers, the loaded records stand in.
  const [atInstant, setAtInstant] = useState<{ key: string; items: Memory[] } | null>(null);
  const instantKey = `${mode}:${Math.round(instant)}:${loaded}`;
  useEffect(() => {
    if (!loaded || items.length === 0) return;
    const timer = setTimeout(() => {
      const at = new Date(instant).toISOString();
      api<{ items: Memory[] }>('GET', '/v1/memories', {
        query: {
          scope: scopeList(scope),
          limit: 100,
          sort: 'validFrom',
          order: 'asc',
          ...(mode === 'valid' ? { asOf: at } : { knownAt: at }),
        },
      })
        .then((page) => setAtInstant({ key: instantKey, items: page.items.filter((m) => !('concept' in m && m.concept === true)) }))
        .catch((e) => setError(errorText(e)));
    }, 150);
    return () => clearTimeout(timer);
  }, [instantKey]);
  const local = items.filter((m) => (mode === 'valid' ? trueAt(m, instant) : believedAt(m, instant)));
  const shown = atInstant !== null && atInstant.key === instantKey ? atInstant.items : local;
  const width = 800;
  const x = (t: number) => 8 + ((t - min) / Math.max(1, max - min)) * (width - 16);
  const rowH = 18;
  const rows = items.slice(0, 60);

  return (
    <section>
      <ViewTitle>Timeline</ViewTitle>
      <ScopeForm value={scope} onInput={setScope} onShow={(scopes) => void load(scopes)} />
      <ErrorMessage error={error} />
      <fieldset class="mode">
        <legend>Replay</legend>
        <label class="check">
          <input type="radio" name="mode" value="valid" checked={mode === 'valid'} onChange={() => setMode('valid')} /> what was true (valid
          time)
        </label>
        <label class="check">
          <input type="radio" name="mode" value="known" checked={mode === 'known'} onChange={() => setMode('known')} /> what we believed
          (transaction time)
        </label>
      </fieldset>
      <div class="field slider">
        <label for="instant">Instant</label>
        <input
          id="instant"
          type="range"
          min={0}
          max={STEPS}
          step={1}
          value={step}
          aria-valuetext={formatTime(instant)}
          onInput={(e) => setStep(Number((e.target as HTMLInputElement).value))}
        />
        <output for="instant" id="instant-value">
          {formatTime(instant)}
        </output>
      </div>
      {loaded && items.length === 0 ? <p>No memories in these scopes.</p> : null}
      {rows.length > 0 ? (
        <svg
          viewBox={`0 0 ${width} ${rows.length * rowH + 10}`}
          class="timeline-svg"
          role="img"
          aria-label={`Validity intervals of ${rows.length} memories, with the chosen instant marked`}
        >
          {rows.map((m, i) => {
            const from = Date.parse(mode === 'valid' ? m.validFrom : m.recordedAt);
            const toText = mode === 'valid' ? m.validTo : m.invalidatedAt;
            const to = toText === null ? max : Date.parse(toText);
            const on = mode === 'valid' ? trueAt(m, instant) : believedAt(m, instant);
            return (
              <rect
                key={m.id}
                x={x(from)}
                y={i * rowH + 4}
                width={Math.max(2, x(to) - x(from))}
                height={rowH - 6}
                class={`bar ${mode} ${on ? 'on' : 'off'}`}
              />
            );
          })}
          <line x1={x(instant)} x2={x(instant)} y1={0} y2={rows.length * rowH + 10} class="cursor" />
        </svg>
      ) : null}
      <h2 id="at-instant">
        {mode === 'valid' ? 'True at' : 'Believed at'} {formatTime(instant)}
      </h2>
      <Status>{`${shown.length} memor${shown.length === 1 ? 'y' : 'ies'}`}</Status>
      <ul class="at-instant" aria-labelledby="at-instant">
        {shown.map((m) => (
          <li key={m.id}>
            <a href={memoryHref(m.id, m.scope)}>{m.content}</a> <LayerBadge layer={m.layer} />{' '}
            <span class="muted">
              {mode === 'valid'
                ? `true ${formatTime(m.validFrom)} → ${m.validTo === null ? 'now' : formatTime(m.validTo)}`
                : `believed ${formatTime(m.recordedAt)} → ${m.invalidatedAt === null ? 'now' : formatTime(m.invalidatedAt)}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
