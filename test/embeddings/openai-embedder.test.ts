import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EngramError } from '../../src/core/errors.js';
import { OpenAiEmbedder, createOpenAiEmbedder, openAiEmbedderFromEnv } from '../../src/embeddings/openai/index.js';
import { Engram } from '../../src/index.js';
import { tempDir } from '../helpers/temp.js';

interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; input?: string[]; dimensions?: number };
}

interface Answer {
  status?: number;
  raw?: string;
  headers?: Record<string, string>;
  /** Never answer (the client must time out). */
  hang?: boolean;
}

interface EmbeddingsServer {
  url: string;
  requests: SeenRequest[];
  respond: (request: SeenRequest) => Answer;
  close(): Promise<void>;
}

/** A vector per text whose direction depends on the text, so order mix-ups show. */
function vectorOf(text: string, dimension: number): number[] {
  return Array.from({ length: dimension }, (_, i) => ((text.charCodeAt(i % Math.max(1, text.length)) || 1) % 7) + i + 1);
}

/** Answers in the OpenAI embeddings shape, `data` in reverse order (index says which text it is). */
function embeddingsAnswer(input: readonly string[], dimension: number): Answer {
  const data = input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text, dimension) })).reverse();
  return { raw: JSON.stringify({ object: 'list', data, model: 'm', usage: { prompt_tokens: 1, total_tokens: 1 } }) };
}

async function startServer(respond: EmbeddingsServer['respond']): Promise<EmbeddingsServer> {
  const sockets = new Set<Socket>();
  const server: EmbeddingsServer = { url: '', requests: [], respond, close: async () => undefined };
  const http: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const request: SeenRequest = { path: req.url ?? '', headers: req.headers, body: JSON.parse(text) as SeenRequest['body'] };
      server.requests.push(request);
      const answer = server.respond(request);
      if (answer.hang === true) return;
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.raw ?? '');
    });
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
  server.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      http.close(() => resolve());
    });
  return server;
}

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
}

async function failureOf(promise: Promise<unknown>): Promise<EngramError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngramError);
  return error as EngramError;
}

describe('OpenAiEmbedder against a local embeddings server', () => {
  let server: EmbeddingsServer | undefined;
  afterEach(async () => server?.close());

  it('learns the dimension from a first call, then splits texts into batches and keeps their order', async () => {
    server = await startServer((r) => embeddingsAnswer(r.body.input ?? [], 6));
    const embedder = await createOpenAiEmbedder({
      url: `${server.url}/`,
      model: 'nomic-embed-text:latest',
      apiKey: 'sk-test',
      batchSize: 3,
    });
    expect(embedder.name).toBe('openai:nomic-embed-text:latest:6');
    expect(embedder.dimension).toBe(6);
    const texts = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
    const vectors = await embedder.embed(texts);
    const batches = server.requests.slice(1);
    expect(batches.map((r) => r.body.input)).toEqual([texts.slice(0, 3), texts.slice(3, 6), texts.slice(6)]);
    expect(
      batches.every(
        (r) => r.path === '/v1/embeddings' && r.headers.authorization === 'Bearer sk-test' && r.body.model === 'nomic-embed-text:latest',
      ),
    ).toBe(true);
    // The model's own length is not asked for: endpoints without a `dimensions` parameter reject it.
    expect(batches.every((r) => r.body.dimensions === undefined)).toBe(true);
    const [single] = await embedder.embed(['echo']);
    expect(vectors).toHaveLength(7);
    expect([...(vectors[4] as Float32Array)]).toEqual([...(single as Float32Array)]);
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 5);
    expect(await embedder.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(1 + 3 + 1);
  });

  it('retries a 429 (honouring Retry-After) and a 503, then succeeds', async () => {
    let n = 0;
    server = await startServer((r) =>
      ++n === 1
        ? { status: 429, raw: '{"error":"slow down"}', headers: { 'retry-after': '0' } }
        : n === 2
          ? { status: 503, raw: 'busy' }
          : embeddingsAnswer(r.body.input ?? [], 4),
    );
    const embedder = new OpenAiEmbedder({ url: server.url, model: 'm', dimensions: 4, backoffMs: 5 });
    const [vector] = await embedder.embed(['hi']);
    expect(vector).toHaveLength(4);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]?.body.dimensions).toBe(4);
  });

  it('gives up after the retries on 5xx with EMBEDDING_FAILED and a message that says what and how to fix', async () => {
    server = await startServer(() => ({ status: 500, raw: 'model not loaded' }));
    const embedder = new OpenAiEmbedder({ url: server.url, model: 'm', dimensions: 4, retries: 2, backoffMs: 1 });
    const error = await failureOf(embedder.embed(['x']));
    expect(error.code).toBe('EMBEDDING_FAILED');
    expect(error.message).toContain('HTTP 500: model not loaded');
    expect(error.message).toContain('gave up after 3 attempts');
    expect(error.message).toContain('ENGRAM_EMBEDDINGS_URL');
    expect(error.details).toMatchObject({ status: 500, retryable: true });
    expect(server.requests).toHaveLength(3);
  });

  it('caps the retries, so a configuration of Infinity still ends', async () => {
    server = await startServer(() => ({ status: 503, raw: 'busy' }));
    const embedder = new OpenAiEmbedder({ url: server.url, model: 'm', dimensions: 4, retries: Number.POSITIVE_INFINITY, backoffMs: 0 });
    expect((await failureOf(embedder.embed(['x']))).message).toContain('gave up after 11 attempts');
    expect(server.requests).toHaveLength(11);
  });

  it('does not retry a 4xx other than 408 and 429, and never puts the key in the message', async () => {
    server = await startServer(() => ({ status: 401, raw: '{"error":"invalid api key"}' }));
    const embedder = new OpenAiEmbedder({ url: server.url, model: 'm', dimensions: 4, apiKey: 'sk-secret', backoffMs: 1 });
    const error = await failureOf(embedder.embed(['x']));
    expect(error.message).toContain('HTTP 401');
    expect(error.message).not.toContain('sk-secret');
    expect(server.requests).toHaveLength(1);
  });

  it('times out an endpoint that does not answer, per attempt', async () => {
    server = await startServer(() => ({ hang: true }));
    const embedder = new OpenAiEmbedder({ url: server.url, model: 'm', dimensions: 4, timeoutMs: 200, retries: 1, backoffMs: 1 });
    const error = await failureOf(embedder.embed(['x']));
    expect(error.code).toBe('EMBEDDING_FAILED');
    expect(error.message).toContain('no answer within 200 ms');
    expect(server.requests).toHaveLength(2);
  });

  it('rejects vectors of the wrong dimension', async () => {
    server = await startServer((r) => embeddingsAnswer(r.body.input ?? [], 3));
    const embedder = new OpenAiEmbedder({ url: server.url, model: 'm', dimensions: 8, retries: 0 });
    const error = await failureOf(embedder.embed(['x', 'y']));
    expect(error.code).toBe('EMBEDDING_FAILED');
    expect(error.message).toContain('vectors of 3 numbers, this embedder is set up for 8');
  });

  it('rejects bad JSON, a wrong shape and a wrong count without retrying', async () => {
    server = await startServer(() => ({ raw: '<html>proxy error</html>' }));
    const embedder = new OpenAiEmbedder({ url: server.url, model: 'm', dimensions: 2, backoffMs: 1 });
    expect((await failureOf(embedder.embed(['x']))).message).toContain('not JSON');
    expect(server.requests).toHaveLength(1);
    server.respond = () => ({ raw: '{"data": [{"index": 0, "embedding": "AAAA"}]}' });
    expect((await failureOf(embedder.embed(['x']))).message).toContain('not embeddings JSON');
    server.respond = () => ({ raw: '{"data": [{"index": 0, "embedding": [1, 0]}]}' });
    expect((await failureOf(embedder.embed(['x', 'y']))).message).toContain('1 embeddings for 2 texts');
    server.respond = () => ({ raw: '{"data": [{"index": 0, "embedding": [1, 0]}, {"index": 0, "embedding": [0, 1]}]}' });
    expect((await failureOf(embedder.embed(['x', 'y']))).code).toBe('EMBEDDING_FAILED');
    expect(server.requests).toHaveLength(4);
  });

  it('sends a space for an empty text, which endpoints reject', async () => {
    server = await startServer((r) => embeddingsAnswer(r.body.input ?? [], 2));
    const embedder = new OpenAiEmbedder({ url: server.url, model: 'm', dimensions: 2 });
    await embedder.embed(['', 'a']);
    expect(server.requests[0]?.body.input).toEqual([' ', 'a']);
  });

  it('is configured from ENGRAM_EMBEDDINGS_* and refuses a bad configuration with a fix', async () => {
    server = await startServer((r) => embeddingsAnswer(r.body.input ?? [], 5));
    const embedder = await openAiEmbedderFromEnv('openai:text-embedding-3-small', {
      ENGRAM_EMBEDDINGS_URL: server.url,
      ENGRAM_EMBEDDINGS_API_KEY: 'k1',
      ENGRAM_EMBEDDINGS_DIMENSIONS: '5',
    });
    expect(embedder.name).toBe('openai:text-embedding-3-small:5');
    await embedder.embed(['x']);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k1');
    expect(server.requests[0]?.body.dimensions).toBe(5);
    await expect(openAiEmbedderFromEnv('use', {})).rejects.toThrow(/openai:<model>/);
    await expect(openAiEmbedderFromEnv('openai:m', { ENGRAM_EMBEDDINGS_DIMENSIONS: 'big' })).rejects.toThrow(/positive integer/);
    expect(() => new OpenAiEmbedder({ url: 'localhost:11434', model: 'm', dimensions: 4 })).toThrow(/http/);
    expect(() => new OpenAiEmbedder({ url: server?.url ?? '', model: ' ', dimensions: 4 })).toThrow(/model/);
    expect(() => new OpenAiEmbedder({ url: server?.url ?? '', model: 'm', dimensions: 0 })).toThrow(/dimension/);
  });

  it('reports an unreachable endpoint as EMBEDDING_FAILED', async () => {
    server = await startServer(() => ({ raw: '{}' }));
    const url = server.url;
    await server.close();
    server = undefined;
    const embedder = new OpenAiEmbedder({ url, model: 'm', dimensions: 4, retries: 1, backoffMs: 1 });
    const error = await failureOf(embedder.embed(['x']));
    expect(error.code).toBe('EMBEDDING_FAILED');
    expect(error.message).toContain('request to');
  });

  it('is what Engram.open builds for openai:<model>: the store records the model and reopens with it', async () => {
    server = await startServer((r) => embeddingsAnswer(r.body.input ?? [], 8));
    const { dir, cleanup } = tempDir();
    const saved = process.env.ENGRAM_EMBEDDINGS_URL;
    process.env.ENGRAM_EMBEDDINGS_URL = server.url;
    try {
      const path = `${dir}/engram.db`;
      const engram = await Engram.open({ path, embedder: 'openai:nomic-embed-text' });
      expect(engram.embedder.name).toBe('openai:nomic-embed-text:8');
      await engram.remember({ scope: 'acme/a', content: 'The build runs on Debian' });
      const { hits } = await engram.recall('Debian build', { scopes: ['acme/a'] });
      expect(hits[0]?.content).toBe('The build runs on Debian');
      await engram.close();
      const reopened = await Engram.open({ path });
      expect(reopened.embedder.name).toBe('openai:nomic-embed-text:8');
      await reopened.close();
      await expect(Engram.open({ path, embedder: 'hash' })).rejects.toMatchObject({ code: 'EMBEDDING_MODEL_MISMATCH' });
    } finally {
      if (saved === undefined) delete process.env.ENGRAM_EMBEDDINGS_URL;
      else process.env.ENGRAM_EMBEDDINGS_URL = saved;
      cleanup();
    }
  });
});
