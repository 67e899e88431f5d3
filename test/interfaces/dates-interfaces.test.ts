/**
 * The one date schema on every interface: HTTP bodies and query parameters, MCP tool arguments and
 * CLI flags refuse impossible dates, out-of-range and fractional epoch ms as bad input (400, a tool
 * error, exit code 2), and store nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHttpApp, type HttpApp } from '../../src/interfaces/http/index.js';
import type { Engram } from '../../src/index.js';
import { call, inMemoryClient, textOf } from '../helpers/mcp.js';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { tempDir, tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/dates';
const BAD = [1e300, 9e15, -9e15, 1.5, '2024-02-30', '10000-01-01'] as const;

let engram: Engram;
let path: string;
let cleanup: () => Promise<void>;
let app: HttpApp;
let client: Client;
let closeClient: () => Promise<void>;

beforeAll(async () => {
  ({ engram, path, cleanup } = await tempEngram());
  app = createHttpApp({ engram, auth: 'open' });
  ({ client, close: closeClient } = await inMemoryClient(engram, [SCOPE]));
  await engram.remember({ scope: SCOPE, content: 'The Leeds office opens at nine.' });
});
afterAll(async () => {
  await closeClient();
  await cleanup();
});

async function post(path: string, body: unknown): Promise<{ status: number; code: string | undefined }> {
  const response = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: json.error?.code };
}

describe('HTTP', () => {
  it.each(BAD)('refuses %j as a body date with 400', async (bad) => {
    expect(await post('/v1/memories', { scope: SCOPE, content: 'an event', occurredAt: bad })).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
    });
    expect(await post('/v1/recall', { scopes: [SCOPE], query: 'office', asOf: bad })).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect((await engram.stats({ scopes: [SCOPE] })).total).toBe(1);
  });

  it("remember takes the writer's wall clock for the text's relative dates, keeps it, and refuses a bad one with nothing written", async () => {
    // a scope of its own: the other tests count the memories of theirs
    const CLOCK_SCOPE = 'acme/dates-clock';
    const response = await app.request('/v1/memories', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scope: CLOCK_SCOPE, content: 'Yesterday the Leeds office flooded.', timeZone: 'Europe/London' }),
    });
    expect(response.status).toBe(200);
    const { id } = (await response.json()) as { id: string };
    expect((await engram.get(id, { scopes: [CLOCK_SCOPE] })).wallClock).toEqual({ timeZone: 'Europe/London' });
    const before = (await engram.stats({ scopes: [CLOCK_SCOPE] })).total;
    for (const bad of [
      { timeZone: 'Europe/Atlantis' },
      { timezoneOffsetMinutes: 9999 },
      { timeZone: 'Europe/London', timezoneOffsetMinutes: 0 },
    ])
      expect(await post('/v1/memories', { scope: CLOCK_SCOPE, content: 'Yesterday it rained.', ...bad }), JSON.stringify(bad)).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
      });
    expect((await engram.stats({ scopes: [CLOCK_SCOPE] })).total).toBe(before);
  });

  it.each(['99999999999999999999', '9000000000000000', '2024-02-30', '1.5'])(
    'refuses %j as an asOf query parameter with 400',
    async (bad) => {
      const [hit] = (await engram.recall('office', { scopes: [SCOPE] })).hits;
      const response = await app.request(`/v1/memories/${hit?.id ?? ''}/edges?scopes=${SCOPE}&asOf=${bad}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/asOf/);
      const fine = await app.request(`/v1/memories/${hit?.id ?? ''}/edges?scopes=${SCOPE}&asOf=2024-01-01`);
      expect(fine.status).toBe(200);
    },
  );

  it("takes the caller's UTC offset for the dates of a recall query or a context message, and refuses one outside UTC±14:00", async () => {
    for (const offset of [-240, 330]) {
      expect(await post('/v1/recall', { scopes: [SCOPE], query: 'office on May 1', timezoneOffsetMinutes: offset })).toEqual({
        status: 200,
        code: undefined,
      });
      expect(await post('/v1/context', { scopes: [SCOPE], message: 'office on May 1', timezoneOffsetMinutes: offset })).toEqual({
        status: 200,
        code: undefined,
      });
    }
    for (const bad of [900, 1.5, '-240']) {
      expect(await post('/v1/recall', { scopes: [SCOPE], query: 'office', timezoneOffsetMinutes: bad })).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
      });
      expect(await post('/v1/context', { scopes: [SCOPE], message: 'office', timezoneOffsetMinutes: bad })).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
      });
    }
  });

  it("takes the caller's IANA time zone for a recall query or a context message, declared in the OpenAPI document; refuses an unknown zone or a zone with an offset", async () => {
    for (const [path, text] of [
      ['/v1/recall', 'query'],
      ['/v1/context', 'message'],
    ] as const) {
      expect(await post(path, { scopes: [SCOPE], [text]: 'office yesterday', timeZone: 'Europe/Lisbon' })).toEqual({
        status: 200,
        code: undefined,
      });
      for (const bad of [{ timeZone: 'Europe/Atlantis' }, { timeZone: 330 }, { timeZone: 'Asia/Kolkata', timezoneOffsetMinutes: 330 }]) {
        expect(await post(path, { scopes: [SCOPE], [text]: 'office yesterday', ...bad }), JSON.stringify(bad)).toEqual({
          status: 400,
          code: 'INVALID_INPUT',
        });
      }
    }
    const document = JSON.stringify(await (await app.request('/openapi.json')).json());
    expect(document.match(/"timeZone":\{/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('takes negative epoch milliseconds in a query parameter, as it takes dates before 1970 in ISO and in bodies', async () => {
    const [hit] = (await engram.recall('office', { scopes: [SCOPE] })).hits;
    for (const knownAt of ['-1', '1969-12-31T23:59:59.999Z']) {
      const edges = await app.request(`/v1/memories/${hit?.id ?? ''}/edges?scopes=${SCOPE}&knownAt=${knownAt}`);
      expect(edges.status, knownAt).toBe(200);
      const list = await app.request(`/v1/memories?scopes=${SCOPE}&knownAt=${knownAt}`);
      expect(list.status, knownAt).toBe(200);
    }
    expect(await post('/v1/recall', { scopes: [SCOPE], query: 'office', knownAt: -1 })).toEqual({ status: 200, code: undefined });
  });
});

describe('MCP', () => {
  it.each(BAD)('refuses %j as a tool date with a tool error', async (bad) => {
    const remembered = await call(client, 'memory_remember', { content: 'an event', occurredAt: bad });
    expect(remembered.isError).toBe(true);
    expect(textOf(remembered)).toMatch(/INVALID_INPUT|Invalid/);
    const recalled = await call(client, 'memory_recall', { query: 'office', asOf: bad });
    expect(recalled.isError).toBe(true);
    expect((await engram.stats({ scopes: [SCOPE] })).total).toBe(1);
  });
});

describe('CLI', () => {
  it.each(['2024-02-30', '0000-01-01', '2024-13-01'])('refuses --occurred-at %s with exit code 2', (bad) => {
    const result = runCli(['remember', '--db', path, '--embedder', 'hash', '--scope', SCOPE, '--occurred-at', bad, 'an event']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/not a date/);
  });
});

describe.skipIf(!binBuilt)('CLI query dates on the local clock (skipped when dist/ is missing: run npm run build)', () => {
  it('recall reads "on May 1 2024" as that day in the time zone a time without an offset is read in', () => {
    const env = { TZ: 'America/New_York' };
    const cli = (args: string[]): unknown => {
      const result = runCli([...args, '--db', path, '--embedder', 'hash', '--json'], { env });
      expect(result.status, result.stderr).toBe(0);
      return json(result);
    };
    // 21:00 local on 1 May is 01:00 UTC on 2 May; the other dinner is on 2 May local (and UTC)
    const { id } = cli(['remember', '--scope', 'acme/tz', '--occurred-at', '2024-05-01T21:00', 'Dinner with Sam at the Italian place']) as {
      id: string;
    };
    cli(['remember', '--scope', 'acme/tz', '--occurred-at', '2024-05-02T20:00', 'Dinner with Sam at the Greek place']);
    const { hits } = cli(['recall', '--scope', 'acme/tz', 'what did I eat with Sam on May 1 2024']) as {
      hits: { id: string; why: { channels: { temporal?: unknown } } }[];
    };
    expect(hits.filter((h) => h.why.channels.temporal !== undefined).map((h) => h.id)).toEqual([id]);
  });
});

describe.skipIf(!binBuilt)('CLI query dates in a time zone (skipped when dist/ is missing: run npm run build)', () => {
  const cli = (args: string[], env: Record<string, string>) => runCli([...args, '--db', path, '--embedder', 'hash', '--json'], { env });
  const temporalHits = (args: string[], env: Record<string, string>): string[] => {
    const result = cli(args, env);
    expect(result.status, result.stderr).toBe(0);
    const { hits } = json(result) as { hits: { id: string; why: { channels: { temporal?: unknown } } }[] };
    return hits.filter((h) => h.why.channels.temporal !== undefined).map((h) => h.id);
  };

  it("reads the dates in the machine's IANA zone across a daylight-saving change, or in --time-zone", () => {
    // New York moved to UTC-4 at 07:00 UTC on 10 March 2024: that Sunday began at 05:00 UTC (UTC-5)
    const remember = (at: string, text: string) =>
      (json(cli(['remember', '--scope', 'acme/dst', '--occurred-at', at, text], {})) as { id: string }).id;
    const saturdayNight = remember('2024-03-10T04:30:00Z', 'Dinner with Sam at the Italian place'); // 23:30 Saturday in New York
    const sundayLunch = remember('2024-03-10T17:00:00Z', 'Lunch with Sam at the Greek place'); // 13:00 Sunday in New York
    // "yesterday" asked at 09:00 on Monday in New York (13:00 UTC), as of then
    const ask = ['recall', '--scope', 'acme/dst', '--as-of', '2024-03-11T13:00:00Z', 'what did I eat with Sam yesterday'];
    expect(temporalHits(ask, { TZ: 'America/New_York' })).toEqual([sundayLunch]);
    expect(temporalHits([...ask, '--time-zone', 'America/New_York'], { TZ: 'Asia/Tokyo' })).toEqual([sundayLunch]);
    // 22:00 on Monday in Tokyo: its yesterday holds Saturday night in New York, not Sunday lunch
    expect(temporalHits([...ask, '--time-zone', 'Asia/Tokyo'], { TZ: 'America/New_York' })).toEqual([saturdayNight]);
    const refused = cli([...ask, '--time-zone', 'America/Gotham'], {});
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/America\/Gotham.*not a known IANA time zone/);
  });

  it("remember reads the text's relative dates on the machine's zone, or on --time-zone, and keeps it with the record", () => {
    const remember = (args: string[], env: Record<string, string>) => {
      const result = cli(['remember', '--scope', 'acme/diary', ...args], env);
      expect(result.status, result.stderr).toBe(0);
      return (json(result) as { id: string }).id;
    };
    const clockOf = (id: string) => (json(cli(['get', id, '--scope', 'acme/diary'], {})) as { wallClock?: unknown }).wallClock;
    expect(clockOf(remember(['Yesterday I met Sara.'], { TZ: 'Asia/Tokyo' }))).toEqual({ timeZone: 'Asia/Tokyo' });
    expect(clockOf(remember(['--time-zone', 'Europe/Lisbon', 'Yesterday I met Rui.'], { TZ: 'Asia/Tokyo' }))).toEqual({
      timeZone: 'Europe/Lisbon',
    });
    const refused = cli(['remember', '--scope', 'acme/diary', '--time-zone', 'America/Gotham', 'Yesterday it rained.'], {});
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/America\/Gotham.*not a known IANA time zone/);
  });
});

describe.skipIf(!binBuilt)('CLI date flags in epoch milliseconds (skipped when dist/ is missing: run npm run build)', () => {
  const EPOCH_SCOPE = 'acme/epoch';
  const occurredAt = Date.parse('2024-05-01T10:40:00Z');
  const cli = (args: string[]): unknown => {
    const result = runCli([...args, '--db', path, '--embedder', 'hash', '--json']);
    expect(result.status, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return json(result);
  };

  it('reads whole epoch milliseconds in every date flag, as docs/cli.md says', async () => {
    const { id } = cli([
      'remember',
      '--scope',
      EPOCH_SCOPE,
      '--occurred-at',
      String(occurredAt),
      '--valid-from',
      String(occurredAt - 1000),
      '--valid-to',
      String(occurredAt + 1000),
      'The Leeds office moved to the canal.',
    ]) as { id: string };
    const stored = await engram.get(id, { scopes: [EPOCH_SCOPE] });
    expect([stored.occurredAt, stored.validFrom, stored.validTo].map((t) => Date.parse(String(t)))).toEqual([
      occurredAt,
      occurredAt - 1000,
      occurredAt + 1000,
    ]);

    const asOf = String(occurredAt);
    const recalled = cli(['recall', '--scope', EPOCH_SCOPE, '--as-of', asOf, '--known-at', String(Date.now()), 'canal']) as {
      hits: { id: string }[];
    };
    expect(recalled.hits.map((h) => h.id)).toContain(id);
    const before = cli(['recall', '--scope', EPOCH_SCOPE, '--as-of', String(occurredAt - 2000), 'canal']) as { hits: { id: string }[] };
    expect(before.hits.map((h) => h.id)).not.toContain(id);
    expect(cli(['edges', id, '--scope', EPOCH_SCOPE, '--as-of', asOf, '--known-at', '-1'])).toEqual([]);
    cli(['update', id, '--scope', EPOCH_SCOPE, '--valid-to', String(occurredAt + 5000)]);
    expect(Date.parse(String((await engram.get(id, { scopes: [EPOCH_SCOPE] })).validTo))).toBe(occurredAt + 5000);
  });

  it('reads a bare year as no moment of 1970: it is refused as a date, with the formats', () => {
    const result = runCli([
      'remember',
      '--scope',
      EPOCH_SCOPE,
      '--occurred-at',
      '2023',
      'A boat trip.',
      '--db',
      path,
      '--embedder',
      'hash',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/2023/);
  });

  it('reads epoch milliseconds in import --default-time', async () => {
    const tmp = tempDir('engram-epoch-import-');
    try {
      const file = join(tmp.dir, 'memory.jsonl');
      writeFileSync(
        file,
        `${JSON.stringify({ type: 'entity', name: 'Leeds office', entityType: 'place', observations: ['Opens at nine'] })}\n`,
      );
      cli(['import', 'mcp-memory', file, '--scope', 'acme/imported', '--default-time', String(occurredAt)]);
      const { items } = await engram.list({ scopes: ['acme/imported'] });
      expect(items.length).toBeGreaterThan(0);
      expect(items.map((m) => Date.parse(String(m.validFrom)))).toEqual(items.map(() => occurredAt));
    } finally {
      tmp.cleanup();
    }
  });
});
