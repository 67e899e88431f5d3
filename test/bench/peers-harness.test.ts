/**
 * The parts of `npm run bench:peers` that decide what is compared, without the peers themselves (they
 * install apart, in bench/peers): the local /v1/embeddings server hands the peers exactly the vectors
 * Engram computes for the same text with its default model (spoken to by Engram's own OpenAI-compatible
 * client, the real model), as a passage unless the request says `input_type: 'query'`, refuses what it
 * cannot answer with 4xx, and the report and chart keep every system, skipped ones with their reason.
 */
import { homedir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/core/ports/embedder.js';
import { createEmbedder } from '../../src/engram.js';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { createOpenAiEmbedder } from '../../src/embeddings/openai/index.js';

const MODEL = DEFAULT_ONNX_MODEL;
const cacheDir = resolveModelCacheDir(process.env, homedir());
const installed = hasModelFiles(cacheDir, MODEL);

/** A bench module (plain .mjs, untyped). */
const benchModule = (path: string) => import(new URL(`../../bench/${path}`, import.meta.url).href);

describe.skipIf(!installed && process.env.CI !== 'true')(`the peers\u2019 embeddings server (${MODEL}, Engram's default)`, () => {
  let server: { url: string; model: string; dimension: number; stats: { requests: number; texts: number }; close(): Promise<void> };
  let engramEmbedder: Embedder;

  beforeAll(async () => {
    const { startEmbeddingsServer, PEER_MODEL } = await benchModule('peers/embeddings-server.mjs');
    expect(PEER_MODEL).toBe(MODEL);
    server = await startEmbeddingsServer({ workers: 0 });
    engramEmbedder = await createEmbedder(MODEL, { cacheDir, workers: 0 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await engramEmbedder?.close?.();
  });

  it('gives a peer the vectors Engram computes for the same texts: passages, and queries when asked', async () => {
    const client = await createOpenAiEmbedder({ url: server.url, model: MODEL });
    expect(client.dimension).toBe(engramEmbedder.dimension);
    expect(server.model).toBe(MODEL);
    const texts = ['Melanie: I painted a lake sunrise last year.', 'what did Melanie paint?'];
    const overHttp = await client.embed(texts);
    const passages = await engramEmbedder.embed(texts);
    for (const [i, vector] of overHttp.entries()) {
      expect(maxDifference(vector, passages[i]!)).toBeLessThan(1e-6);
    }
    expect(maxDifference(overHttp[0]!, overHttp[1]!)).toBeGreaterThan(0.01);
    // a question the benchmark's own client marks as one is embedded as Engram embeds its recall query
    // (one text alone on both sides: padding in a batch moves an int8 model's output a little)
    const response = await fetch(`${server.url}/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ model: MODEL, input: [texts[1]], input_type: 'query' }),
    });
    const [queryOverHttp] = ((await response.json()) as { data: { embedding: number[] }[] }).data;
    const [asQuery] = await engramEmbedder.embed([texts[1]!], { purpose: 'query' });
    const [asPassage] = await engramEmbedder.embed([texts[1]!]);
    expect(maxDifference(Float32Array.from(queryOverHttp!.embedding), asQuery!)).toBeLessThan(1e-6);
    // the default model embeds queries and passages differently (e5's prefixes), so the flag matters
    expect(maxDifference(asQuery!, asPassage!)).toBeGreaterThan(0.01);
  });

  it('answers base64 when asked, as the OpenAI SDK asks by default', async () => {
    const response = await fetch(`${server.url}/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ model: MODEL, input: 'a beagle called Biscuit', encoding_format: 'base64' }),
    });
    const body = (await response.json()) as { data: { embedding: string; index: number }[]; model: string };
    const bytes = Buffer.from(body.data[0]!.embedding, 'base64');
    const vector = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const [expected] = await engramEmbedder.embed(['a beagle called Biscuit']);
    expect(body.model).toBe(MODEL);
    expect(maxDifference(vector, expected!)).toBeLessThan(1e-6);
  });

  it('refuses malformed requests, other models, unknown input types and other routes with 4xx and an OpenAI-shaped error', async () => {
    const post = (body: string) => fetch(`${server.url}/embeddings`, { method: 'POST', body });
    const before = server.stats.requests;
    for (const [body, status] of [
      ['{', 400],
      [JSON.stringify({ input: [] }), 400],
      [JSON.stringify({ input: [1, 2] }), 400],
      [JSON.stringify({ model: 'text-embedding-3-small', input: 'x' }), 400],
      [JSON.stringify({ input: 'x', input_type: 'search' }), 400],
    ] as const) {
      const response = await post(body);
      expect(response.status, body).toBe(status);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBeTruthy();
    }
    expect((await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect(server.stats.requests).toBe(before);
  });
});

describe('the peers report', () => {
  const run = (system: string, any10: number, p50: number) => ({
    set: 'burst',
    system,
    status: 'ok',
    package: system,
    version: '1.0.0',
    embeds: 'x',
    settings: { mode: 'test' },
    conversations: 1,
    questions: 10,
    metrics: { 'any@10': any10, 'frac@10': any10 / 2, 'mrr@10': 0.3 },
    ingest: { turns: 100, perSec: 50 },
    query: { p50, p95: p50 * 2 },
  });
  const report = {
    k: 10,
    conversationsPerSet: 1,
    embeddingModel: MODEL,
    sets: { burst: 'burst-chat' },
    runs: [
      run('engram', 0.8, 10),
      { ...run('mem0', 0.4, 20), ratioToEngram: { 'any@10': 0.5, 'frac@10': 0.5, ingestPerSec: 1, queryP50: 2, queryP95: 2 } },
      { set: 'burst', system: 'openmemory', status: 'skipped', reason: 'no engine on npm' },
    ],
    timestamp: '2026-01-01T00:00:00Z',
    cpuCount: 2,
    cpuModel: 'cpu',
    node: 'v20',
    gitCommit: 'abc',
    loadAverageAtStart: [1, 1, 1],
    loadAverage: [1, 1, 1],
    command: 'npm run bench:peers -- --conversations 1',
  };

  it('puts every system in the table with its ratios, and a skipped one with its reason', async () => {
    const { peersMarkdown } = await benchModule('peers/report.mjs');
    const markdown: string = peersMarkdown(report);
    expect(markdown).toMatch(/\| \*\*engram\*\* \| 1\.0\.0 \| 0\.800 \| 0\.400 \|/);
    expect(markdown).toMatch(
      /\| mem0 \| 1\.0\.0 \| 0\.400 \| 0\.200 \| 0\.300 \| 50\.0 \| 20\.00 \| 40\.00 \| 0\.5× \| 0\.5× \| 1× \| 2× \| 2× \|/,
    );
    expect(markdown).toContain('**openmemory** (skipped, burst): no engine on npm');
    expect(markdown).toContain('npm run bench:peers -- --conversations 1');
  });

  it('draws one bar per measured system and none for a skipped one', async () => {
    const { renderPeersChart } = await benchModule('peers/chart.mjs');
    const svg: string = renderPeersChart(report);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('<title>engram any@10 0.8</title>');
    expect(svg).toContain('<title>mem0 p50 20 ms, p95 40 ms</title>');
    expect(svg).not.toContain('openmemory');
  });
});

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i += 1) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}
