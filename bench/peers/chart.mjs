// The SVG chart of bench/peers.mjs, written by hand (no dependencies): one column per conversation set;
// the top row shows any@10 and frac@10 per system, the bottom row query p50 (log scale, p95 as a tick).
import { escape } from '../charts.mjs';

const COLORS = {
  engram: '#1f77b4',
  mem0: '#ff7f0e',
  orama: '#2ca02c',
  'server-memory': '#9467bd',
  'server-memory-keywords': '#c5b0d5',
  openmemory: '#8c564b',
};
const PANEL = { width: 280, height: 200 };
const LEFT = 70;
const GAP = 40;
const TOPS = [100, 380];

/** @param {any} report the object bench/peers.mjs writes to peers.json */
export function renderPeersChart(report) {
  const sets = Object.entries(report.sets);
  const systems = [...new Set(report.runs.filter((r) => r.status === 'ok').map((r) => r.system))];
  const width = LEFT + sets.length * (PANEL.width + GAP) + 10;
  const height = 610;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">Engram and its peers on the same conversations (bench/peers.mjs, ${escape(report.embeddingModel)})</text>`,
  ];
  systems.forEach((s, i) => {
    const x = LEFT + i * 160;
    parts.push(`<rect x="${x}" y="40" width="12" height="12" fill="${color(s)}"/><text x="${x + 16}" y="50">${escape(s)}</text>`);
  });
  parts.push(
    `<text x="${LEFT}" y="72" font-size="11" fill="#555">top: solid bar any@10, light bar frac@10 (share of evidence turns in the top 10); bottom: log scale</text>`,
  );
  const allLatencies = report.runs.filter((r) => r.status === 'ok').flatMap((r) => [r.query.p50, r.query.p95]);
  const yMin = 10 ** Math.floor(Math.log10(Math.max(0.01, Math.min(...allLatencies))));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...allLatencies)));
  sets.forEach(([set, label], column) => {
    const left = LEFT + column * (PANEL.width + GAP);
    const runs = systems.map((s) => report.runs.find((r) => r.set === set && r.system === s && r.status === 'ok'));
    parts.push(recallPanel(left, TOPS[0], `${label}: recall of the evidence`, runs));
    parts.push(latencyPanel(left, TOPS[1], `${label}: query p50 ms (p95 tick)`, runs, yMin, yMax));
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function recallPanel(left, top, title, runs) {
  const { width, height } = PANEL;
  const out = [frame(left, top, title)];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    const y = top + height - t * height;
    out.push(`<line x1="${left}" x2="${left + width}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end" font-size="10">${t}</text>`);
  }
  const slot = width / runs.length;
  runs.forEach((r, i) => {
    if (!r) return;
    const bar = slot * 0.36;
    const x0 = left + i * slot + slot * 0.14;
    const any = r.metrics['any@10'];
    const frac = r.metrics['frac@10'];
    out.push(
      `<rect x="${x0.toFixed(1)}" y="${(top + height - any * height).toFixed(1)}" width="${bar.toFixed(1)}" height="${(any * height).toFixed(1)}" fill="${color(r.system)}"><title>${escape(r.system)} any@10 ${any}</title></rect>`,
      `<rect x="${(x0 + bar).toFixed(1)}" y="${(top + height - frac * height).toFixed(1)}" width="${bar.toFixed(1)}" height="${(frac * height).toFixed(1)}" fill="${color(r.system)}" fill-opacity="0.45"><title>${escape(r.system)} frac@10 ${frac}</title></rect>`,
      `<text x="${(x0 + bar).toFixed(1)}" y="${(top + height - Math.max(any, frac) * height - 4).toFixed(1)}" text-anchor="middle" font-size="9">${any.toFixed(2)}</text>`,
    );
  });
  return out.join('\n');
}

function latencyPanel(left, top, title, runs, yMin, yMax) {
  const { width, height } = PANEL;
  const y = (v) => top + height - ((Math.log10(v) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * height;
  const out = [frame(left, top, title)];
  for (let decade = yMin; decade <= yMax * 1.0001; decade *= 10) {
    out.push(`<line x1="${left}" x2="${left + width}" y1="${y(decade)}" y2="${y(decade)}" stroke="#ddd"/>`);
    out.push(
      `<text x="${left - 6}" y="${y(decade) + 4}" text-anchor="end" font-size="10">${decade >= 1 ? decade : decade.toFixed(2)}</text>`,
    );
  }
  const slot = width / runs.length;
  runs.forEach((r, i) => {
    if (!r) return;
    const x0 = left + i * slot + slot * 0.2;
    const bar = slot * 0.6;
    const p50 = Math.max(r.query.p50, yMin);
    const p95 = Math.max(r.query.p95, yMin);
    out.push(
      `<rect x="${x0.toFixed(1)}" y="${y(p50).toFixed(1)}" width="${bar.toFixed(1)}" height="${(top + height - y(p50)).toFixed(1)}" fill="${color(r.system)}"><title>${escape(r.system)} p50 ${r.query.p50} ms, p95 ${r.query.p95} ms</title></rect>`,
      `<line x1="${x0.toFixed(1)}" x2="${(x0 + bar).toFixed(1)}" y1="${y(p95).toFixed(1)}" y2="${y(p95).toFixed(1)}" stroke="#222" stroke-width="2"/>`,
      `<text x="${(x0 + bar / 2).toFixed(1)}" y="${(y(p95) - 4).toFixed(1)}" text-anchor="middle" font-size="9">${format(r.query.p50)}</text>`,
    );
  });
  return out.join('\n');
}

function frame(left, top, title) {
  return [
    `<text x="${left + PANEL.width / 2}" y="${top - 10}" text-anchor="middle" font-size="12" font-weight="bold">${escape(title)}</text>`,
    `<rect x="${left}" y="${top}" width="${PANEL.width}" height="${PANEL.height}" fill="none" stroke="#444"/>`,
  ].join('\n');
}

function format(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function color(system) {
  return COLORS[system] ?? '#7f7f7f';
}
