/**
 * A request body is UTF-8 or refused: bytes that are not UTF-8, or a declared charset that is not, are
 * 400 INVALID_INPUT saying where and how to fix it, and nothing is written; never text with U+FFFD
 * where the sender's bytes were. In process through `app.request()`, on a real SQLite store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, type HttpApp } from '../../src/interfaces/http/index.js';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

let engram: Engram;
let cleanup: () => Promise<void>;
let app: HttpApp;

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
  app = createHttpApp({ engram, auth: 'open', log: () => undefined, ui: false });
});
afterAll(async () => cleanup());

async function post(path: string, body: Uint8Array | string, contentType: string): Promise<{ status: number; json: unknown }> {
  const response = await app.request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: response.status, json: await response.json() };
}

const stored = async (scope: string) => (await engram.store.listMemories({ scopes: [scope], limit: 10 })).map((r) => r.content);

describe('POST /v1/memories', () => {
  it('refuses a body that is not UTF-8 with 400, naming the byte, and stores nothing', async () => {
    const body = Buffer.concat([Buffer.from('{"scope":"t/h","content":"bad '), Buffer.from([0xff, 0xfe]), Buffer.from(' bytes"}')]);
    const answer = await post('/v1/memories', body, 'application/json');
    expect(answer.status).toBe(400);
    const { error } = answer.json as ErrorBody;
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain(`the request body is not valid UTF-8: byte ${body.indexOf(0xff)} (0xff)`);
    expect(error.message).toMatch(/Send the body as UTF-8/);
    expect(error.details).toEqual({ offset: body.indexOf(0xff) });
    expect(await stored('t/h')).toEqual([]);
  });

  it('refuses a body declared in another charset, naming it, and stores nothing', async () => {
    const body = Buffer.from('{"scope":"t/l","content":"café in latin-1"}', 'latin1');
    const answer = await post('/v1/memories', body, 'application/json; charset=ISO-8859-1');
    expect(answer.status).toBe(400);
    const { error } = answer.json as ErrorBody;
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('declared as charset=iso-8859-1');
    expect(error.message).toContain('charset=utf-8');
    expect(await stored('t/l')).toEqual([]);
  });

  it('reads UTF-8 as it was sent, with or without a charset, and a byte order mark in front', async () => {
    for (const [contentType, content] of [
      ['application/json', 'Lunch at the café in São Paulo 🙂'],
      ['application/json; charset=utf-8', 'Tea at the café in Kraków'],
      ['application/json; charset="UTF-8"', 'Dinner at the café in Zürich'],
      ['application/json; charset=us-ascii', 'Breakfast in plain ASCII'],
    ] as const) {
      const answer = await post('/v1/memories', JSON.stringify({ scope: 't/ok', content }), contentType);
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    }
    const withBom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify({ scope: 't/bom', content: 'Crème brûlée' })),
    ]);
    expect((await post('/v1/memories', withBom, 'application/json')).status).toBe(200);
    expect((await stored('t/ok')).sort()).toEqual(
      ['Breakfast in plain ASCII', 'Dinner at the café in Zürich', 'Lunch at the café in São Paulo 🙂', 'Tea at the café in Kraków'].sort(),
    );
    expect(await stored('t/bom')).toEqual(['Crème brûlée']);
  });
});

describe('POST /v1/import', () => {
  async function dumpOf(scope: string, content: string): Promise<string> {
    const { engram: source, cleanup: done } = await tempEngram();
    try {
      await source.remember({ scope, content });
      let dump = '';
      for await (const line of source.exportJsonl({ scopes: [scope] })) dump += line;
      return dump;
    } finally {
      await done();
    }
  }

  it('refuses a dump line that is not UTF-8, naming the line, and writes nothing of it', async () => {
    const dump = await dumpOf('t/du', 'Lunch at the café in São Paulo');
    const lines = dump.split('\n');
    const recordLine = lines.findIndex((line) => line.includes('"kind":"record"'));
    const body = Buffer.concat(
      lines.map((line, i) => Buffer.from(i === lines.length - 1 ? line : `${line}\n`, i === recordLine ? 'latin1' : 'utf8')),
    );
    const answer = await post('/v1/import', body, 'application/x-ndjson');
    expect(answer.status).toBe(400);
    const { error } = answer.json as ErrorBody;
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain(`line ${recordLine + 1} is not valid UTF-8`);
    expect(error.details).toMatchObject({ line: recordLine + 1 });
    expect(await stored('t/du')).toEqual([]);
    const fixed = await post('/v1/import', dump, 'application/x-ndjson; charset=utf-8');
    expect(fixed.status, JSON.stringify(fixed.json)).toBe(200);
    expect(await stored('t/du')).toEqual(['Lunch at the café in São Paulo']);
  });

  it('refuses a dump declared in another charset before reading it', async () => {
    const dump = await dumpOf('t/w', 'Tea at the café in Kraków');
    const answer = await post('/v1/import', Buffer.from(dump, 'latin1'), 'application/x-ndjson; charset=windows-1252');
    expect(answer.status).toBe(400);
    expect((answer.json as ErrorBody).error).toMatchObject({ code: 'INVALID_INPUT', details: { charset: 'windows-1252' } });
    expect(await stored('t/w')).toEqual([]);
  });
});
