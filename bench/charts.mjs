#!/usr/bin/env node
// SVG charts of the benchmarks that print tables only, written by hand (no dependencies): horizontal bars
// in panels stacked one above the other, each with its unit and the issue's target as a line.
//   node bench/charts.mjs [NAME…]   (npm run bench:charts)
// re-renders bench/results/<NAME>.svg from bench/results/<NAME>.json: the results of bench:ingest,
// bench:ingest-model, bench:postgres-scale and bench:shapes and their variants (ingest-hnsw,
// postgres-scale-1m, shapes-postgres…), every one there when no name is given. The benchmarks write
// their chart beside their JSON at the end of a run.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RESULTS_DIR } from './lib.mjs';

const WIDTH = 900;
const LEFT = 300;
const RIGHT = 90;
const BAR = 18;
const GAP = 6;
const PANEL_TITLE = 34;
const PANEL_GAP = 26;
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];

/**
 * @typedef {{ label: string, value: number | null | undefined, color?: string, note?: string }} Bar
 * @typedef {{ value: number, label: string }} Target
 * @typedef {{ title: string, unit: string, bars: Bar[], targets?: Target[], better?: 'higher' | 'lower', max?: number }} Panel
 * @typedef {{ title: string, note?: string, panels: Panel[] }} Chart
 */

/**
 * A chart of horizontal bars as SVG text: each panel has its own linear scale from 0, its targets drawn
 * as vertical lines, and each bar its value printed beside it (a bar without a value reads "not run").
 * @param {Chart} chart
 */
export function renderBarChart(chart) {
  const heights = chart.panels.map((panel) => PANEL_TITLE + panel.bars.length * (BAR + GAP));
  const top = chart.note === undefined ? 50 : 68;
  const height = top + heights.reduce((sum, h) => sum + h + PANEL_GAP, 0) + 10;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escape(chart.title)}</text>`,
  ];
  if (chart.note !== undefined)
    parts.push(`<text x="${WIDTH / 2}" y="46" text-anchor="middle" font-size="11" fill="#555">${escape(chart.note)}</text>`);
  let y = top;
  chart.panels.forEach((panel, index) => {
    parts.push(renderPanel(panel, y));
    y += (heights[index] ?? 0) + PANEL_GAP;
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** @param {Panel} panel @param {number} top */
function renderPanel(panel, top) {
  const width = WIDTH - LEFT - RIGHT;
  const values = panel.bars.flatMap((b) => (typeof b.value === 'number' && Number.isFinite(b.value) ? [b.value] : []));
  const limits = [...values, ...(panel.targets ?? []).map((t) => t.value)];
  const max = panel.max ?? niceMax(Math.max(1e-9, ...limits) * 1.08);
  const x = (/** @type {number} */ v) => LEFT + (v / max) * width;
  const better = panel.better === undefined ? '' : panel.better === 'higher' ? ' (higher is better)' : ' (lower is better)';
  const out = [
    `<text x="${LEFT}" y="${top + 14}" font-size="13" font-weight="bold">${escape(panel.title)}, ${escape(panel.unit)}${better}</text>`,
  ];
  const barsTop = top + PANEL_TITLE;
  const barsHeight = panel.bars.length * (BAR + GAP) - GAP;
  for (const tick of ticks(max)) {
    out.push(
      `<line x1="${x(tick).toFixed(1)}" x2="${x(tick).toFixed(1)}" y1="${barsTop - 4}" y2="${barsTop + barsHeight + 2}" stroke="#e5e5e5"/>`,
      `<text x="${x(tick).toFixed(1)}" y="${barsTop - 7}" text-anchor="middle" font-size="9" fill="#777">${tick.toLocaleString('en-US', { maximumFractionDigits: 3 })}</text>`,
    );
  }
  panel.bars.forEach((bar, i) => {
    const y = barsTop + i * (BAR + GAP);
    const color = bar.color ?? PALETTE[i % PALETTE.length];
    out.push(`<text x="${LEFT - 8}" y="${y + BAR / 2 + 4}" text-anchor="end">${escape(bar.label)}</text>`);
    if (typeof bar.value !== 'number' || !Number.isFinite(bar.value)) {
      out.push(`<text x="${LEFT + 4}" y="${y + BAR / 2 + 4}" fill="#999">not run</text>`);
      return;
    }
    const w = Math.max(1, x(bar.value) - LEFT);
    const text = `${format(bar.value)}${bar.note === undefined ? '' : ` ${bar.note}`}`;
    out.push(
      `<rect x="${LEFT}" y="${y}" width="${w.toFixed(1)}" height="${BAR}" fill="${color}"><title>${escape(`${bar.label}: ${text} ${panel.unit}`)}</title></rect>`,
      `<text x="${(LEFT + w + 4).toFixed(1)}" y="${y + BAR / 2 + 4}" font-size="11">${escape(text)}</text>`,
    );
  });
  for (const target of panel.targets ?? []) {
    const tx = x(target.value).toFixed(1);
    out.push(
      `<line x1="${tx}" x2="${tx}" y1="${barsTop - 2}" y2="${barsTop + barsHeight + 4}" stroke="#d62728" stroke-width="2" stroke-dasharray="5,3"/>`,
      `<text x="${tx}" y="${barsTop + barsHeight + 16}" text-anchor="middle" font-size="10" fill="#d62728">${escape(target.label)}</text>`,
    );
  }
  return out.join('\n');
}

/** The smallest 1, 2, 2.5 or 5 × 10^n at or above `value`. */
function niceMax(value) {
  const decade = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * decade >= value) return step * decade;
  return 10 * decade;
}

/** Round ticks from 0 to at most `max`, four to six of them. */
function ticks(max) {
  const step = niceMax(max / 5);
  return Array.from({ length: Math.floor(max / step + 1e-9) + 1 }, (_, i) => i * step);
}

function format(value) {
  if (value === 0) return '0';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** `text` safe inside SVG text and attributes. */
export function escape(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** When and where a result was measured, for the chart's note. */
function measured(report) {
  const load = Array.isArray(report.loadAverage) ? report.loadAverage[0] : report.loadAverage;
  return `measured ${String(report.timestamp ?? '').slice(0, 10)} on ${report.cpuCount ?? '?'} × ${report.cpuModel ?? '?'}${typeof load === 'number' ? `, load ${load.toFixed(1)}` : ''}, commit ${String(report.gitCommit ?? '?').slice(0, 12)}`;
}

/** `bench/ingest.mjs`: memories/s per corpus size and mode, against the targets. */
export function ingestChart(report) {
  const cases = report.cases ?? [];
  const bars = cases.map((c) => ({ label: `${c.label ?? c.mode}, into ${Number(c.size).toLocaleString('en-US')}`, value: c.perSecond }));
  const targets = [];
  const staticTarget = report.targets?.staticMemoriesPerSecond ?? 3000;
  const modelTarget = report.targets?.useMemoriesPerSecond ?? 100;
  if (cases.some((c) => c.mode === 'static')) targets.push({ value: staticTarget, label: `static target ${format(staticTarget)}` });
  if (cases.some((c) => c.mode !== 'static')) targets.push({ value: modelTarget, label: `model target ${format(modelTarget)}` });
  return renderBarChart({
    title: 'Ingest: engram.remember in batches of 64 (bench/ingest.mjs)',
    note: measured(report),
    panels: [
      { title: 'memories written', unit: 'memories/s', better: 'higher', bars, targets },
      {
        title: 'batch latency p50',
        unit: 'ms',
        better: 'lower',
        bars: cases.map((c) => ({ label: `${c.label ?? c.mode}, into ${Number(c.size).toLocaleString('en-US')}`, value: c.batchMs?.p50 })),
      },
    ],
  });
}

/** `bench/ingest-model.mjs`: LoCoMo turns/s and long messages against the model's own throughput. */
export function ingestModelChart(report) {
  const sets = [
    ['LoCoMo turns', report.locomo],
    ['2,000-character messages', report.long],
  ];
  return renderBarChart({
    title: `Ingest with the default model, ${report.locomo?.embedder ?? ''} (bench/ingest-model.mjs)`,
    note: measured(report),
    panels: [
      {
        title: 'LoCoMo turns written',
        unit: 'turns/s',
        better: 'higher',
        bars: [
          { label: 'the model alone (2 workers)', value: report.locomo?.modelPerSecond, color: '#7f7f7f' },
          { label: 'engram.remember, batches', value: report.locomo?.ingest?.batches?.perSecond },
          // from the first write until the work left for later (concepts, part vectors, dates) is done too
          ...(report.locomo?.ingest?.batches?.deferred === undefined
            ? []
            : [{ label: 'and its deferred work', value: report.locomo.ingest.batches.deferred.completePerSecond, color: '#9467bd' }]),
        ],
        targets: [
          { value: 100, label: '#14: 100' },
          { value: 150, label: '#20: 150' },
        ],
      },
      {
        title: 'share of the model’s own throughput',
        unit: '%',
        better: 'higher',
        bars: sets.map(([label, set]) => ({
          label: String(label),
          value: typeof set?.ingest?.batches?.ofModel === 'number' ? set.ingest.batches.ofModel * 100 : undefined,
        })),
        targets: [{ value: 80, label: 'target 80 %' }],
        max: 120,
      },
    ],
  });
}

/** `bench/postgres-scale.mjs`: requests/s and latency per number of serve processes, per corpus size. */
export function postgresScaleChart(report) {
  const rows = (report.results ?? []).flatMap((r) => r.rows ?? []);
  const label = (row) =>
    `${Number(row.size).toLocaleString('en-US')}: ${row.servers} server${row.servers === 1 ? '' : 's'}, ${row.connections} conn.`;
  return renderBarChart({
    title: 'PostgreSQL: POST /v1/recall over loopback, several engram serve (bench/postgres-scale.mjs)',
    note: measured(report),
    panels: [
      {
        title: 'throughput',
        unit: 'requests/s',
        better: 'higher',
        bars: rows.map((row) => ({ label: label(row), value: row.requestsPerSecond })),
      },
      { title: 'latency p50', unit: 'ms', better: 'lower', bars: rows.map((row) => ({ label: label(row), value: row.p50 })) },
      { title: 'latency p95', unit: 'ms', better: 'lower', bars: rows.map((row) => ({ label: label(row), value: row.p95 })) },
      {
        title: 'CPU a request, serve processes and PostgreSQL',
        unit: 'ms',
        better: 'lower',
        bars: rows.map((row) => ({ label: label(row), value: (row.cpuMsPerRequest?.servers ?? 0) + (row.cpuMsPerRequest?.postgres ?? 0) })),
      },
    ],
  });
}

/** `bench/shapes.mjs`: ingest and recall for each store shape. */
export function shapesChart(report) {
  const rows = report.rows ?? [];
  return renderBarChart({
    title: `Store shapes on ${report.backend ?? 'sqlite'}, hash embedder (bench/shapes.mjs)`,
    note: measured(report),
    panels: [
      { title: 'ingest', unit: 'memories/s', better: 'higher', bars: rows.map((r) => ({ label: r.shape, value: r.perSecond })) },
      { title: 'recall p50', unit: 'ms', better: 'lower', bars: rows.map((r) => ({ label: r.shape, value: r.p50 })) },
      { title: 'recall p95', unit: 'ms', better: 'lower', bars: rows.map((r) => ({ label: r.shape, value: r.p95 })) },
      {
        title: report.backend === 'postgres' ? 'schema size' : 'file size',
        unit: 'MB',
        better: 'lower',
        bars: rows.map((r) => ({ label: r.shape, value: r.fileMb })),
      },
    ],
  });
}

/** The chart of each kind of result, by the benchmark that writes it. */
export const CHARTS = {
  ingest: ingestChart,
  'ingest-model': ingestModelChart,
  'postgres-scale': postgresScaleChart,
  shapes: shapesChart,
};

/** The kind of chart of a result file's name (`ingest-hnsw` is an ingest, `postgres-scale-1m` a postgres-scale). */
export function chartKind(name) {
  const kinds = /** @type {(keyof typeof CHARTS)[]} */ (Object.keys(CHARTS)).sort((a, b) => b.length - a.length);
  return kinds.find((kind) => name === kind || name.startsWith(`${kind}-`));
}

/** Writes `<dir>/<name>.svg`, the chart of the result `name` (see {@link chartKind}); returns its path. */
export function writeChart(name, report, dir = RESULTS_DIR) {
  const kind = chartKind(name);
  if (kind === undefined) throw new Error(`no chart is drawn for "${name}" (known: ${Object.keys(CHARTS).join(', ')} and their variants)`);
  const path = join(dir, `${name}.svg`);
  writeFileSync(path, CHARTS[kind](report));
  return path;
}

/** Writes the chart of the result file at `path` (a `<name>.json`) beside it; returns the chart's path. */
export function writeChartOf(path) {
  return writeChart(basename(path, '.json'), JSON.parse(readFileSync(path, 'utf8')), dirname(path));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const asked = process.argv.slice(2);
  const names =
    asked.length > 0
      ? asked
      : readdirSync(RESULTS_DIR)
          .filter((file) => file.endsWith('.json') && chartKind(file.slice(0, -5)) !== undefined)
          .map((file) => file.slice(0, -5));
  for (const name of names) {
    const source = join(RESULTS_DIR, `${name}.json`);
    if (!existsSync(source)) {
      process.stderr.write(`skipped ${name}: ${source} does not exist (run its benchmark first)\n`);
      continue;
    }
    process.stdout.write(`wrote ${writeChart(name, JSON.parse(readFileSync(source, 'utf8')))}\n`);
  }
}
