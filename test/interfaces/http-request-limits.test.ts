/**
 * Requests past the parser's limits get the JSON error body every other error has: a request line too
 * long (431), malformed HTTP (400), and JSON nested far too deep (400, not a store failure). Against a
 * real Node server on 127.0.0.1, as `engram serve` runs it.
 */
import { connect } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrors, createHttpApp, toHttpError } from '../../src/interfaces/http/index.js';
import type { Engram } from '../../src/index.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempEngram } from '../helpers/temp.js';

let engram: Engram;
let cleanup: () => Promise<void>;
let server: ServerType;
let base: string;
let port: number;

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
  const app = createHttpApp({ engram, auth: 'open' });
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  answerClientErrors(server);
  await new Promise<void>((ready) => server.once('listening', () => ready()));
  port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  await cleanup();
});

/** Sends raw bytes and returns everything the server answers before it closes. */
function rawExchange(text: string, toPort = port): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(toPort, '127.0.0.1');
    let answer = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(text);
  });
}

function bodyOf(answer: string): { error: { code: string; message: string } } {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
}

const nested = (depth: number) =>
  `{"scope":"acme/a","content":"deep","layer":"semantic","properties":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

describe('HTTP requests past the limits', () => {
  it('answers a request line too long with 431 and a JSON error', async () => {
    const response = await fetch(`${base}/v1/memories/x?scope=${'a'.repeat(20_000)}`);
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('HEADERS_TOO_LARGE');
    expect(body.error.message).toMatch(/shorten the URL/);
  });

  it('answers malformed HTTP with 400 and a JSON error', async () => {
    const answer = await rawExchange('NOT-HTTP\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer).error.code).toBe('BAD_REQUEST');
  });

  it.each([1_000, 5_000, 100_000])('answers JSON nested %i levels deep with 400, and stores nothing', async (depth) => {
    const response = await fetch(`${base}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nested(depth),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_INPUT');
    expect(body.error.message).toMatch(/nests JSON more than \d+ levels deep/);
    expect((await engram.stats({ scopes: ['acme/a'] })).total).toBe(0);
  });

  it('still accepts free-form fields nested a few levels deep', async () => {
    const response = await fetch(`${base}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nested(10),
    });
    expect(response.status).toBe(200);
  });

  it('rejects deep free-form fields on the library too (what the store cannot index)', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    await expect(
      engram.remember({ scope: 'acme/b', layer: 'semantic', content: 'deep library', properties: { a: deep } }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/properties nests more than 64 levels deep/) as unknown as string,
    });
  });
});

describe('a client that disconnects mid-body', () => {
  it('is not an internal error: nothing is logged and nothing is written', async () => {
    const logged: unknown[] = [];
    const app = createHttpApp({ engram, auth: 'open', ui: false, log: (error) => logged.push(error) });
    const quiet = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((ready) => quiet.once('listening', () => ready()));
    try {
      const to = (quiet.address() as { port: number }).port;
      const before = (await engram.stats({ scopes: ['acme/cut'] })).total;
      for (const [path, type, piece] of [
        ['/v1/memories', 'application/json', '{"scope":"acme/cut","content":"half a memo'],
        ['/v1/import', 'application/x-ndjson', '{"format":"engram-dump","version":1,"embedder":{"name":"hash'],
      ]) {
        const socket = connect(to, '127.0.0.1');
        await new Promise<void>((open) => socket.once('connect', () => open()));
        const chunk = Buffer.from(piece as string);
        socket.write(
          `POST ${path as string} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type as string}\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${piece as string}\r\n`,
        );
        await new Promise((wait) => setTimeout(wait, 200));
        socket.destroy();
      }
      // the server notices the closed sockets and fails the body reads
      await new Promise((wait) => setTimeout(wait, 500));
      expect(logged, 'a request abort was logged as an internal error').toEqual([]);
      expect((await engram.stats({ scopes: ['acme/cut'] })).total).toBe(before);
      // the server still answers
      expect((await fetch(`http://127.0.0.1:${to}/health`)).status).toBe(200);
    } finally {
      await new Promise<void>((done) => quiet.close(() => done()));
    }
  });

  it("is answered as the client's doing (499 CLIENT_CLOSED_REQUEST), never INTERNAL", () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    const logged: unknown[] = [];
    const answer = toHttpError(aborted, (error) => logged.push(error));
    expect(answer.status).toBe(499);
    expect(answer.body.error.code).toBe('CLIENT_CLOSED_REQUEST');
    expect(answer.body.error.message).toMatch(/send the request again/);
    expect(logged).toEqual([]);
    // any other failure is still internal and logged
    expect(toHttpError(new Error('boom'), (error) => logged.push(error)).status).toBe(500);
    expect(logged).toHaveLength(1);
  });
});

describe('engram serve', () => {
  let running: RunningServer;
  let dir: { cleanup: () => Promise<void>; path: string };
  beforeAll(async () => {
    const temp = await tempEngram();
    await temp.engram.close();
    dir = { cleanup: temp.cleanup, path: temp.path };
    running = await startServe(['--db', dir.path, '--embedder', 'hash', '--scope', 'acme/a']);
  }, 90_000);
  afterAll(async () => {
    await running.stop();
    await dir.cleanup();
  });

  it('answers a request line too long with a JSON 431', async () => {
    const response = await fetch(`${running.url}/v1/memories/x?scope=${'a'.repeat(20_000)}`);
    expect(response.status).toBe(431);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('HEADERS_TOO_LARGE');
  });
});
