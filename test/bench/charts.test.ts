/**
 * The benchmark charts (`bench/charts.mjs`): each result kind draws its bars with the values of its JSON,
 * its targets as lines, and a bar without a value as "not run"; variants of a result name find their kind.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const charts = () => import(new URL('../../bench/charts.mjs', import.meta.url).href);

const environment = {
  timestamp: '2026-12-04T04:00:00.000Z',
  cpuCount: 2,
  cpuModel: 'Test CPU',
  loadAverage: [1.2, 1, 1],
  gitCommit: 'abcdef123456',
};

describe('benchmark charts', () => {
  it('draws each bar at its share of the panel, with its value, and the target as a line', async () => {
    const { renderBarChart } = await charts();
    const svg: string = renderBarChart({
      title: 'A & B',
      panels: [
        {
          title: 'ingest',
          unit: 'memories/s',
          better: 'higher',
          bars: [
            { label: 'fast', value: 4000 },
            { label: 'slow', value: 1000 },
            { label: 'absent', value: undefined },
          ],
          targets: [{ value: 3000, label: 'target 3,000' }],
        },
      ],
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('A &amp; B');
    expect(svg).toContain('<title>fast: 4,000 memories/s</title>');
    expect(svg).toContain('not run');
    const widths = [...svg.matchAll(/<rect x="300" y="[\d.]+" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(2);
    expect(widths[0]! / widths[1]!).toBeCloseTo(4, 1);
    expect(svg).toMatch(/stroke="#d62728"/);
    expect(svg).toContain('target 3,000');
  });

  it('finds the kind of a result by its name and writes the chart beside the JSON', async () => {
    const { chartKind, writeChartOf } = await charts();
    expect(chartKind('ingest')).toBe('ingest');
    expect(chartKind('ingest-hnsw')).toBe('ingest');
    expect(chartKind('ingest-model')).toBe('ingest-model');
    expect(chartKind('postgres-scale-1m')).toBe('postgres-scale');
    expect(chartKind('shapes-postgres')).toBe('shapes');
    expect(chartKind('locomo')).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'engram-charts-'));
    try {
      const path = join(dir, 'postgres-scale-test.json');
      writeFileSync(
        path,
        JSON.stringify({
          ...environment,
          results: [
            {
              size: 100000,
              rows: [
                {
                  size: 100000,
                  servers: 1,
                  connections: 4,
                  requestsPerSecond: 21.1,
                  p50: 184,
                  p95: 258,
                  cpuMsPerRequest: { servers: 45, postgres: 16 },
                },
                {
                  size: 100000,
                  servers: 2,
                  connections: 4,
                  requestsPerSecond: 30.9,
                  p50: 125,
                  p95: 185,
                  cpuMsPerRequest: { servers: 46, postgres: 16 },
                },
              ],
            },
          ],
        }),
      );
      const written: string = writeChartOf(path);
      expect(written).toBe(join(dir, 'postgres-scale-test.svg'));
      const svg = readFileSync(written, 'utf8');
      expect(svg).toContain('<title>100,000: 2 servers, 4 conn.: 30.9 requests/s</title>');
      expect(svg).toContain('<title>100,000: 1 server, 4 conn.: 61.0 ms</title>');
      expect(svg).toContain('commit abcdef123456');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('draws the ingest, ingest-model and shapes results with their targets', async () => {
    const { ingestChart, ingestModelChart, shapesChart } = await charts();
    const ingest: string = ingestChart({
      ...environment,
      targets: { staticMemoriesPerSecond: 3000, useMemoriesPerSecond: 100 },
      cases: [{ size: 10000, mode: 'static', label: 'static', perSecond: 3237, batchMs: { p50: 18.3 } }],
    });
    expect(ingest).toContain('<title>static, into 10,000: 3,237 memories/s</title>');
    expect(ingest).toContain('static target 3,000');
    expect(ingest).not.toContain('model target');
    const model: string = ingestModelChart({
      ...environment,
      locomo: { embedder: 'onnx:test', modelPerSecond: 249, ingest: { batches: { perSecond: 228, ofModel: 0.915 } } },
      long: { ingest: { batches: { ofModel: 0.997 } } },
    });
    expect(model).toContain('<title>engram.remember, batches: 228 turns/s</title>');
    expect(model).toContain('<title>2,000-character messages: 99.7 %</title>');
    expect(model).toContain('#20: 150');
    const shapes: string = shapesChart({
      ...environment,
      backend: 'postgres',
      rows: [{ shape: '1000 scopes × 20', perSecond: 4421, p50: 8.35, p95: 11.9, fileMb: 60 }],
    });
    expect(shapes).toContain('schema size');
    expect(shapes).toContain('<title>1000 scopes × 20: 8.35 ms</title>');
  });
});
