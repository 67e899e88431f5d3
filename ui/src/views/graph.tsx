/**
 * Knowledge graph (Cytoscape.js): records, concepts and their relations; pan, zoom, filter by relation
 * type, select a node (on the canvas or in the list beside it) to read its evidence and statistics, and
 * spread activation from it step by step.
 */
import cytoscape, { type Core } from 'cytoscape';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, formatTime, type Memory } from '../api.js';
import { memoryHref, navigate } from '../router.js';
import { ErrorMessage, LayerBadge, ScopeSelect, Status, useSession, ViewTitle } from '../shared.js';

interface GraphNode {
  id: string;
  label: string;
  layer: string;
  kind: string;
  salience: number;
}
interface GraphEdge {
  id: string;
  from: string;
  to: string;
  type: string;
  weight: number;
}
interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  truncated: boolean;
}
interface ActivationStep {
  hop: number;
  activated: Array<{ id: string; activation: number }>;
}
interface ActivateResult {
  steps?: ActivationStep[];
  ranked?: Array<{ id: string; activation: number; hops: number }>;
}

const COLORS: Record<string, string> = { episodic: '#1f6feb', semantic: '#8250df', procedural: '#1a7f37', statistical: '#bf5700' };

export function GraphView(props: { query: URLSearchParams }) {
  const session = useSession();
  const [scope, setScope] = useState(props.query.get('scope') ?? session.scopes[0]?.scope ?? '');
  const [relationType, setRelationType] = useState(props.query.get('relationType') ?? '');
  const [graph, setGraph] = useState<Graph | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<GraphNode | null>(null);
  const [detail, setDetail] = useState<Memory | null>(null);
  const [evidence, setEvidence] = useState<unknown[]>([]);
  const [log, setLog] = useState<string[]>([]);
  const [spreading, setSpreading] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | null>(null);
  const types = [...new Set((graph?.edges ?? []).map((e) => e.type))].sort();
  const [allTypes, setAllTypes] = useState<string[]>([]);

  useEffect(() => {
    if (scope === '') return;
    const query: Record<string, string | number> = { scope, limit: 200 };
    if (relationType !== '') query.relationType = relationType;
    const focus = props.query.get('focus');
    if (focus !== null) query.focus = focus;
    api<Graph>('GET', '/v1/graph', { query })
      .then((g) => {
        setGraph(g);
        const focused = g.nodes.find((n) => n.id === focus);
        if (focused !== undefined) setSelected(focused);
        if (relationType === '') setAllTypes([...new Set(g.edges.map((e) => e.type))].sort());
      })
      .catch((e) => setError(errorText(e)));
  }, []);

  useEffect(() => {
    if (graph === null || box.current === null) return;
    const ids = new Set(graph.nodes.map((n) => n.id));
    const instance = cytoscape({
      container: box.current,
      elements: [
        ...graph.nodes.map((n) => ({
          data: {
            id: n.id,
            label: n.label.length > 40 ? n.label.slice(0, 39) + '…' : n.label,
            layer: n.layer,
            kind: n.kind,
            size: 18 + 30 * Math.min(1, n.salience),
          },
        })),
        ...graph.edges
          .filter((e) => ids.has(e.from) && ids.has(e.to))
          .map((e) => ({ data: { id: `e-${e.id}`, source: e.from, target: e.to, type: e.type, weight: e.weight } })),
      ],
      style: [
        {
          selector: 'node',
          style: {
            label: 'data(label)',
            width: 'data(size)',
            height: 'data(size)',
            'font-size': 10,
            'text-wrap': 'ellipsis',
            'text-max-width': '120px',
            color: '#222',
            'text-background-color': '#fff',
            'text-background-opacity': 0.8,
            'background-color': '#777',
          },
        },
        ...Object.entries(COLORS).map(([layer, color]) => ({ selector: `node[layer = "${layer}"]`, style: { 'background-color': color } })),
        { selector: 'node[kind = "concept"]', style: { shape: 'round-rectangle' } },
        {
          selector: 'edge',
          style: {
            width: 1.5,
            'line-color': '#aaa',
            'target-arrow-color': '#aaa',
            'target-arrow-shape': 'triangle',
            'curve-style': 'bezier',
            label: 'data(type)',
            'font-size': 8,
            color: '#555',
          },
        },
        { selector: 'node:selected', style: { 'border-width': 4, 'border-color': '#d4a72c' } },
        { selector: 'node.active', style: { 'border-width': 6, 'border-color': '#cf222e', 'background-blacken': -0.2 } },
      ],
      layout: { name: 'cose', animate: false, randomize: false, nodeRepulsion: () => 8000, idealEdgeLength: () => 80 },
      wheelSensitivity: 0.3,
      minZoom: 0.1,
      maxZoom: 4,
    });
    // a graph of a few nodes would otherwise fill the canvas with one giant node
    if (instance.zoom() > 1.3) {
      instance.zoom(1.3);
      instance.center();
    }
    instance.on('tap', 'node', (event) => {
      const node = graph.nodes.find((n) => n.id === event.target.id());
      if (node !== undefined) setSelected(node);
    });
    cy.current = instance;
    return () => instance.destroy();
  }, [graph]);

  useEffect(() => {
    if (selected === null) return;
    setDetail(null);
    setEvidence([]);
    cy.current?.nodes().unselect();
    cy.current?.getElementById(selected.id).select();
    api<Memory>('GET', `/v1/memories/${encodeURIComponent(selected.id)}`, { query: { scopes: scope } })
      .then(setDetail)
      .catch((e) => setError(errorText(e)));
    api<{ sources: unknown[]; derived: unknown[] }>('GET', `/v1/memories/${encodeURIComponent(selected.id)}/provenance`, {
      query: { scope },
    })
      .then((p) => setEvidence([...p.sources, ...p.derived]))
      .catch(() => setEvidence([]));
  }, [selected]);

  const spread = async () => {
    if (selected === null) return;
    setSpreading(true);
    setLog([]);
    try {
      const result = await api<ActivateResult>('POST', '/v1/activate', { body: { id: selected.id, scopes: [scope] } });
      const steps: ActivationStep[] =
        result.steps ??
        Object.values(
          (result.ranked ?? []).reduce<Record<number, ActivationStep>>((acc, r) => {
            (acc[r.hops] ??= { hop: r.hops, activated: [] }).activated.push({ id: r.id, activation: r.activation });
            return acc;
          }, {}),
        ).sort((a, b) => a.hop - b.hop);
      cy.current?.nodes().removeClass('active');
      cy.current?.getElementById(selected.id).addClass('active');
      const lines: string[] = [];
      for (const step of steps) {
        await new Promise((r) => setTimeout(r, 500));
        for (const a of step.activated) cy.current?.getElementById(a.id).addClass('active');
        const labels = step.activated.map(
          (a) => `${graph?.nodes.find((n) => n.id === a.id)?.label ?? a.id.slice(-8)} (${a.activation.toFixed(2)})`,
        );
        lines.push(`Step ${step.hop}: ${step.activated.length} activated${labels.length > 0 ? ': ' + labels.slice(0, 8).join(', ') : ''}`);
        setLog([...lines]);
      }
      if (steps.length === 0) setLog(['Nothing linked to spread to.']);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSpreading(false);
    }
  };

  const zoom = (factor: number) => {
    const c = cy.current;
    if (c === null) return;
    c.zoom({ level: c.zoom() * factor, renderedPosition: { x: c.width() / 2, y: c.height() / 2 } });
  };
  const pan = (dx: number, dy: number) => cy.current?.panBy({ x: dx, y: dy });

  return (
    <section>
      <ViewTitle>Knowledge graph</ViewTitle>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          const params = new URLSearchParams({ scope });
          if (relationType !== '') params.set('relationType', relationType);
          const focus = props.query.get('focus');
          if (focus !== null) params.set('focus', focus);
          navigate(`/graph?${params.toString()}`);
        }}
      >
        <ScopeSelect id="g-scope" value={scope} onChange={setScope} />
        <div class="field">
          <label for="g-type">Relation type</label>
          <select
            id="g-type"
            name="relationType"
            value={relationType}
            onChange={(e) => setRelationType((e.target as HTMLSelectElement).value)}
          >
            <option value="">every type</option>
            {[...new Set([...allTypes, ...types, 'REF', ...(relationType !== '' ? [relationType] : [])])].sort().map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Show graph</button>
      </form>
      {props.query.get('focus') !== null ? (
        <p>
          Showing the neighbourhood of one node (its links and the concepts it feeds, one hop).{' '}
          <a href={`/graph?scope=${encodeURIComponent(scope)}`}>Back to every concept</a>
        </p>
      ) : (
        <p>Showing the concepts and the relations between them; a node's neighbourhood shows the records behind it.</p>
      )}
      <ErrorMessage error={error} />
      {graph !== null ? (
        <Status>
          {graph.nodes.length} nodes, {graph.edges.length} edges{graph.truncated ? ' (truncated: narrow the scope or filter by type)' : ''}
        </Status>
      ) : null}
      <div class="graph-layout">
        <div class="graph-canvas-wrap">
          <div class="graph-controls" role="group" aria-label="Pan and zoom">
            <button type="button" onClick={() => zoom(1.25)} aria-label="Zoom in">
              +
            </button>
            <button type="button" onClick={() => zoom(0.8)} aria-label="Zoom out">
              −
            </button>
            <button type="button" onClick={() => cy.current?.fit(undefined, 20)}>
              Fit
            </button>
            <button type="button" onClick={() => pan(60, 0)} aria-label="Pan left">
              ←
            </button>
            <button type="button" onClick={() => pan(-60, 0)} aria-label="Pan right">
              →
            </button>
            <button type="button" onClick={() => pan(0, 60)} aria-label="Pan up">
              ↑
            </button>
            <button type="button" onClick={() => pan(0, -60)} aria-label="Pan down">
              ↓
            </button>
          </div>
          <div ref={box} class="graph-canvas" role="img" aria-label="Graph drawing; the same nodes are listed beside it" />
        </div>
        <aside class="graph-side" aria-label="Nodes and selection">
          {selected !== null ? (
            <div class="card" aria-live="polite">
              <h2>{selected.label}</h2>
              <p>
                <LayerBadge layer={selected.layer} /> {selected.kind} · salience {selected.salience.toFixed(2)}
              </p>
              {detail !== null ? <NodeStatistics memory={detail} /> : null}
              {evidence.length > 0 ? (
                <>
                  <h3>Evidence</h3>
                  <ul>
                    {evidence.slice(0, 10).map((e, i) => {
                      const o = e as { id?: string; content?: string };
                      return (
                        <li key={i}>
                          {o.id !== undefined ? <a href={memoryHref(o.id, scope)}>{o.content ?? o.id}</a> : JSON.stringify(e)}
                        </li>
                      );
                    })}
                  </ul>
                </>
              ) : null}
              <p>
                <a href={memoryHref(selected.id, scope)}>Open this record</a>
                {' · '}
                <a href={`/graph?scope=${encodeURIComponent(scope)}&focus=${encodeURIComponent(selected.id)}`}>Show its neighbourhood</a>
              </p>
              <button type="button" onClick={spread} disabled={spreading}>
                {spreading ? 'Spreading…' : 'Spread activation from here'}
              </button>
              {log.length > 0 ? (
                <ol class="activation-log" aria-label="Activation steps" aria-live="polite">
                  {log.map((l, i) => (
                    <li key={i}>{l}</li>
                  ))}
                </ol>
              ) : null}
            </div>
          ) : (
            <p>Select a node to see its evidence and statistics.</p>
          )}
          <h2>Nodes</h2>
          <ul class="node-list">
            {(graph?.nodes ?? []).map((n) => (
              <li key={n.id}>
                <button
                  type="button"
                  class="link"
                  aria-pressed={selected?.id === n.id}
                  onClick={() => {
                    setSelected(n);
                    cy.current?.center(cy.current.getElementById(n.id));
                  }}
                >
                  {n.label}
                </button>{' '}
                <span class="muted">{n.kind}</span>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </section>
  );
}

function NodeStatistics(props: { memory: Memory }) {
  const m = props.memory;
  const rows: Array<[string, string]> = [
    ['status', m.status],
    ['mentions', String(m.mentionCount)],
    ['accesses', String(m.accessCount)],
    ['confidence', m.confidence.toFixed(2)],
    ['recorded', formatTime(m.recordedAt)],
  ];
  for (const key of ['category', 'statistics', 'stats', 'count', 'support']) {
    if (m[key] !== undefined) rows.push([key, typeof m[key] === 'object' ? JSON.stringify(m[key]) : String(m[key])]);
  }
  return (
    <dl class="fields compact">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
