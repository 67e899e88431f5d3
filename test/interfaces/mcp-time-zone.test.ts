/**
 * The MCP recall and context tools read a query's dates on the user's wall clock: the `timeZone` a
 * call names, else the zone of the machine the server runs on (the user's own over stdio), never UTC.
 * The SDK's own client over a linked in-memory pair, on a real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ManualClock } from '../../src/index.js';
import { call, callOk, inMemoryClient, textOf } from '../helpers/mcp.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'dev/time';
// 19:00 UTC on 10 March 2024 is 00:30 on 11 March at UTC+05:30
const clock = new ManualClock(Date.parse('2024-03-10T19:00:00Z'));
const INDIAN_YESTERDAY = 'Fixed the checkout bug in the cart page.'; // 17:30 on 10 March in India
const UTC_YESTERDAY = 'Renamed the billing module to invoices.'; // 15:30 on 9 March in India, 10:00 UTC

let ctx: Awaited<ReturnType<typeof tempEngram>>;

beforeAll(async () => {
  // the hash embedder's vectors mean nothing: without its channel only the dates pick what is found
  ctx = await tempEngram({ clock, recall: { semanticWeight: 0 } });
  await ctx.engram.remember([
    { scope: SCOPE, content: INDIAN_YESTERDAY, occurredAt: '2024-03-10T12:00:00Z' },
    { scope: SCOPE, content: UTC_YESTERDAY, occurredAt: '2024-03-09T10:00:00Z' },
  ]);
});
afterAll(async () => ctx.cleanup());

/** A client of a server created while the machine's zone is `machineZone` (the TZ the server process would have). */
async function withServerIn<T>(machineZone: string, run: (client: Client) => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = machineZone;
  const { client, close } = await inMemoryClient(ctx.engram, [SCOPE]);
  try {
    return await run(client);
  } finally {
    await close();
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

async function found(client: Client, args: Record<string, unknown>): Promise<{ recalled: string[]; context: string }> {
  const { hits } = await callOk<{ hits: { content: string }[] }>(client, 'memory_recall', { query: 'what did we do yesterday', ...args });
  const { markdown } = await callOk<{ markdown: string }>(client, 'memory_context', {
    message: 'what did we do yesterday',
    budgetMs: 5000,
    ...args,
  });
  return { recalled: hits.map((h) => h.content), context: markdown };
}

describe('MCP dates on the wall clock', () => {
  it("reads 'yesterday' in the zone of the machine the server runs on when the call names none", async () => {
    const india = await withServerIn('Asia/Kolkata', (client) => found(client, {}));
    expect(india.recalled).toEqual([INDIAN_YESTERDAY]);
    expect(india.context).toContain(INDIAN_YESTERDAY);
    expect(india.context).not.toContain(UTC_YESTERDAY);
    const london = await withServerIn('Europe/London', (client) => found(client, {}));
    expect(london.recalled).toEqual([UTC_YESTERDAY]);
  });

  it("memory_remember reads the text's relative dates on the call's timeZone, else on the server machine's zone, and keeps it", async () => {
    const clockOf = async (id: string) => (await ctx.engram.get(id, { scopes: [SCOPE] })).wallClock;
    const stored = await withServerIn('Asia/Tokyo', async (client) => [
      (await callOk<{ id: string }>(client, 'memory_remember', { content: 'Yesterday we shipped the cart fix.' })).id,
      (await callOk<{ id: string }>(client, 'memory_remember', { content: 'Yesterday we met Ana.', timeZone: 'Europe/Lisbon' })).id,
      (await callOk<{ id: string }>(client, 'memory_remember', { content: 'Yesterday we met Rui.', timezoneOffsetMinutes: 60 })).id,
    ]);
    try {
      expect(await clockOf(stored[0]!)).toEqual({ timeZone: 'Asia/Tokyo' });
      expect(await clockOf(stored[1]!)).toEqual({ timeZone: 'Europe/Lisbon' });
      expect(await clockOf(stored[2]!)).toEqual({ timezoneOffsetMinutes: 60 });
      await withServerIn('Europe/London', async (client) => {
        const refused = await call(client, 'memory_remember', { content: 'Yesterday it rained.', timeZone: 'Asia/Atlantis' });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/Asia\/Atlantis.*not a known IANA time zone/);
      });
    } finally {
      // the other tests count what "yesterday" finds
      for (const id of stored) await ctx.engram.forget(id, { scope: SCOPE });
    }
  });

  it('reads it in the timeZone argument when the call names one, and refuses an unknown zone with a tool error', async () => {
    await withServerIn('Europe/London', async (client) => {
      const india = await found(client, { timeZone: 'Asia/Kolkata' });
      expect(india.recalled).toEqual([INDIAN_YESTERDAY]);
      expect(india.context).toContain(INDIAN_YESTERDAY);
      expect(india.context).not.toContain(UTC_YESTERDAY);
      for (const [tool, text] of [
        ['memory_recall', 'query'],
        ['memory_context', 'message'],
      ] as const) {
        const refused = await call(client, tool, { [text]: 'yesterday', timeZone: 'Asia/Atlantis' });
        expect(refused.isError, tool).toBe(true);
        expect(textOf(refused), tool).toMatch(/Asia\/Atlantis.*not a known IANA time zone/);
      }
    });
  });
});
