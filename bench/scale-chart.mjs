// The SVG chart of bench/scale.mjs, written by hand (no dependencies): two log-log panels against the
// number of memories, (1) vector search p50 by index and (2) engine recall p50/p95 with the targets.

const WIDTH = 960;
const HEIGHT = 420;
const PANEL = { width: 380, height: 290, top: 70 };
const LEFTS = [80, 560];
const COLORS = {
  sqliteVec: '#9467bd',
  exact: '#d62728',
  hnsw: '#1f77b4',
  recallP50: '#1f77b4',
  recallP95: '#6baed6',
  exactRecall: '#d62728',
  target: '#2ca02c',
};

/** The chart as SVG text. */
export function renderScaleChart(cases, targets) {
  const sizes = cases.map((c) => c.size);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">Engram at scale: one scope, 512-d static-table embeddings (bench/scale.mjs)</text>`,
  ];
  parts.push(
    panel(LEFTS[0], 'vector search p50, ms (k=10)', sizes, [
      { label: 'sqlite-vec (exact)', color: COLORS.sqliteVec, points: cases.map((c) => [c.size, c.sqliteVec?.search.p50]) },
      { label: 'in-memory exact', color: COLORS.exact, points: cases.map((c) => [c.size, c.exact.search.p50]) },
      { label: `HNSW (recall@10 ${recallRange(cases)})`, color: COLORS.hnsw, points: cases.map((c) => [c.size, c.hnsw.search.p50]) },
    ]),
  );
  parts.push(
    panel(
      LEFTS[1],
      'engine recall, ms (static embedder, query embedding included)',
      sizes,
      [
        { label: 'default (HNSW) p50', color: COLORS.recallP50, points: cases.map((c) => [c.size, c.hnsw.engine.recall.p50]) },
        {
          label: 'default (HNSW) p95',
          color: COLORS.recallP95,
          dashed: true,
          points: cases.map((c) => [c.size, c.hnsw.engine.recall.p95]),
        },
        { label: 'exact index p50', color: COLORS.exactRecall, points: cases.map((c) => [c.size, c.exact.engine.recall.p50]) },
      ],
      targets.flatMap((t) => [
        { size: t.size, value: t.p50, label: `target p50 ≤ ${t.p50}` },
        ...(t.p95 === undefined ? [] : [{ size: t.size, value: t.p95, label: `p95 ≤ ${t.p95}` }]),
      ]),
    ),
  );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function recallRange(cases) {
  const values = cases.map((c) => c.hnsw.recall).filter((v) => typeof v === 'number');
  if (values.length === 0) return '–';
  return `${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)}`;
}

function panel(left, title, sizes, series, marks = []) {
  const values = [...series.flatMap((s) => s.points.map(([, v]) => v)), ...marks.map((m) => m.value)].filter(
    (v) => typeof v === 'number' && v > 0,
  );
  const yMin = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const xMin = 10 ** Math.floor(Math.log10(Math.min(...sizes)) - 0.15);
  const xMax = 10 ** Math.ceil(Math.log10(Math.max(...sizes)) + 0.15);
  const { width, height, top } = PANEL;
  const x = (size) => left + ((Math.log10(size) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * width;
  const y = (value) => top + height - ((Math.log10(value) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * height;
  const out = [
    `<text x="${left + width / 2}" y="${top - 22}" text-anchor="middle" font-size="13" font-weight="bold">${escape(title)}</text>`,
  ];
  out.push(`<rect x="${left}" y="${top}" width="${width}" height="${height}" fill="none" stroke="#444"/>`);
  for (let decade = yMin; decade <= yMax * 1.0001; decade *= 10) {
    out.push(`<line x1="${left}" x2="${left + width}" y1="${y(decade)}" y2="${y(decade)}" stroke="#ddd"/>`);
    out.push(`<text x="${left - 6}" y="${y(decade) + 4}" text-anchor="end">${formatValue(decade)}</text>`);
  }
  for (const size of sizes) {
    out.push(`<line x1="${x(size)}" x2="${x(size)}" y1="${top}" y2="${top + height}" stroke="#eee"/>`);
    out.push(`<text x="${x(size)}" y="${top + height + 16}" text-anchor="middle">${formatSize(size)}</text>`);
  }
  out.push(`<text x="${left + width / 2}" y="${top + height + 34}" text-anchor="middle">memories in the scope</text>`);
  for (const mark of marks) {
    if (mark.size < xMin || mark.size > xMax) continue;
    const cx = x(mark.size);
    const cy = y(mark.value);
    out.push(`<line x1="${cx - 12}" x2="${cx + 12}" y1="${cy}" y2="${cy}" stroke="${COLORS.target}" stroke-width="3"/>`);
    out.push(`<text x="${cx + 15}" y="${cy + 4}" fill="${COLORS.target}" font-size="11">${escape(mark.label)}</text>`);
  }
  series.forEach((s, i) => {
    const points = s.points.filter(([, v]) => typeof v === 'number' && v > 0);
    if (points.length > 0) {
      const path = points.map(([size, v]) => `${x(size).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      out.push(`<polyline points="${path}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
      for (const [size, v] of points)
        out.push(
          `<circle cx="${x(size).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5" fill="${s.color}"><title>${escape(`${s.label}: ${formatSize(size)} → ${v.toFixed(2)} ms`)}</title></circle>`,
        );
    }
    const ly = top + 14 + i * 16;
    out.push(
      `<line x1="${left + 10}" x2="${left + 30}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
    );
    out.push(`<text x="${left + 36}" y="${ly}">${escape(s.label)}</text>`);
  });
  return out.join('\n');
}

function formatSize(size) {
  if (size >= 1_000_000) return `${size / 1_000_000}M`;
  if (size >= 1000) return `${size / 1000}k`;
  return String(size);
}

function formatValue(value) {
  return value >= 1 ? String(Math.round(value)) : String(value);
}

function escape(text) {
  return String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
