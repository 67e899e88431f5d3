/**
 * What the importer refuses, and how: each problem names its line (and field), nothing after it is
 * written, and what came before stays committed so that a fixed file finishes the job.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DUMP_VERSION } from '../../src/core/dump/index.js';
import { isEngramError } from '../../src/core/errors.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

const T0 = Date.UTC(2026, 0, 1);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function withDump(): Promise<{ engram: Engram; lines: string[] }> {
  const { engram, cleanup } = await tempEngram({ clock: new ManualClock(T0) });
  cleanups.push(cleanup);
  await engram.remember([
    { scope: 'acme/a', content: 'first note' },
    { scope: 'acme/a', content: 'second note' },
  ]);
  const lines: string[] = [];
  for await (const line of engram.exportJsonl({ scopes: ['acme/a'] })) lines.push(line);
  const { engram: target, cleanup: done } = await tempEngram({ clock: new ManualClock(T0) });
  cleanups.push(done);
  return { engram: target, lines };
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isEngramError(error)) throw new Error(`expected an EngramError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe('importJsonl refuses', () => {
  it('a line that is not valid, naming the line and field, after committing the lines before it', async () => {
    const { engram, lines } = await withDump();
    const broken = [...lines];
    const record = JSON.parse(broken[2]!) as { record: { status: string } };
    record.record.status = 'archived';
    broken[2] = `${JSON.stringify(record)}\n`;
    const error = await failure(engram.importJsonl(broken, { batchSize: 1 }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('line 3, field "record.status"');
    expect((await engram.stats({ scopes: ['acme/a'] })).total).toBe(1);
    const report = await engram.importJsonl(lines);
    expect(report.counts.record).toEqual({ created: 1, skipped: 1, conflicting: 0 });
  });

  it('a line that is not valid UTF-8 (a Latin-1 é), naming the line and the byte, after committing the lines before it', async () => {
    const { engram, lines } = await withDump();
    const accented = lines.map((line) => line.replace('first note', 'first café note').replace('second note', 'second café note'));
    const encoded = accented.map((line) => Buffer.from(line, 'utf8'));
    const latin1 = Buffer.from(accented[2]!, 'latin1'); // what an editor saving in Latin-1 writes
    const bytes = Buffer.concat([...encoded.slice(0, 2), latin1, ...encoded.slice(3)]);
    const chunks = (of: Buffer) => Array.from({ length: Math.ceil(of.length / 5) }, (_, i) => of.subarray(i * 5, i * 5 + 5));
    const error = await failure(engram.importJsonl(chunks(bytes), { batchSize: 1 }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain(`line 3 is not valid UTF-8: byte ${latin1.indexOf(0xe9)} of the line (0xe9)`);
    expect(error.message).toMatch(/Save the file as UTF-8/);
    const stored = await engram.store.listMemories({ scopes: ['acme/a'], limit: 10 });
    // line 2 came whole through 5-byte chunks that cut its é in two; nothing of line 3 was stored
    expect(stored.map((r) => r.content)).toEqual(['first café note']);
    const report = await engram.importJsonl(chunks(Buffer.concat(encoded)));
    expect(report.counts.record).toEqual({ created: 1, skipped: 1, conflicting: 0 });
    expect((await engram.store.listMemories({ scopes: ['acme/a'], limit: 10 })).map((r) => r.content).sort()).toEqual([
      'first café note',
      'second café note',
    ]);
  });

  it('a newer format version, a header that is not one, lines after the end and counts that do not add up', async () => {
    const { engram, lines } = await withDump();
    expect(JSON.parse(lines[0]!)).toMatchObject({ version: DUMP_VERSION });
    const newer = [lines[0]!.replace(`"version":${DUMP_VERSION}`, `"version":${DUMP_VERSION + 1}`), ...lines.slice(1)];
    expect((await failure(engram.importJsonl(newer))).message).toContain('newer than this Engram reads');
    expect((await failure(engram.importJsonl(['{"kind":"record"}\n']))).message).toContain('not the header of an Engram dump');
    expect((await failure(engram.importJsonl(['not json\n']))).message).toContain('line 1 is not JSON');
    expect((await failure(engram.importJsonl([]))).message).toContain('empty');
    expect((await failure(engram.importJsonl([...lines, lines[1]!]))).message).toContain('after the end line');
    const miscounted = [...lines.slice(0, 2), ...lines.slice(3)];
    expect((await failure(engram.importJsonl(miscounted))).message).toContain('the end line counts 2 record lines but the dump holds 1');
  });

  it('the error line an HTTP export ends with when it failed after its 200, quoting the error, after committing the lines before it', async () => {
    const { engram, lines } = await withDump();
    const failed = [...lines.slice(0, 2), '{"error":{"code":"STORAGE_CORRUPT","message":"Memory 01X in acme/a is damaged."}}\n'];
    const error = await failure(engram.importJsonl(failed, { batchSize: 1 }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(
      /^Line 3 is the error that stopped the export .* incomplete: STORAGE_CORRUPT: Memory 01X in acme\/a is damaged\./,
    );
    expect((await engram.stats({ scopes: ['acme/a'] })).total).toBe(1);
  });

  it('a record whose id the store holds with other content: kept as stored and reported', async () => {
    const { engram, lines } = await withDump();
    await engram.importJsonl(lines);
    const changed = lines.map((line) => line.replace('"content":"first note"', '"content":"edited note"'));
    const report = await engram.importJsonl(changed);
    expect(report.counts.record).toEqual({ created: 0, skipped: 1, conflicting: 1 });
    expect(report.conflicts).toEqual([
      expect.objectContaining({ kind: 'record', scope: 'acme/a', reason: expect.stringContaining('kept') }),
    ]);
    const kept = await engram.store.listMemories({ scopes: ['acme/a'], limit: 10 });
    expect(kept.map((r) => r.content).sort()).toEqual(['first note', 'second note']);
  });

  it('a scope the caller may not write, before anything is written', async () => {
    const { engram, lines } = await withDump();
    const permitScope = (scope: string): void => {
      if (scope.startsWith('acme/')) throw new Error('denied');
    };
    await expect(engram.importJsonl(lines, { permitScope })).rejects.toThrow('denied');
    expect((await engram.stats({ scopes: ['acme/a'] })).total).toBe(0);
  });

  it("a line outside the header's scopes (an edited or joined file), so a permission can only fail before the first write", async () => {
    const { engram, lines } = await withDump();
    const outside = lines.map((line, i) => (i === 2 ? line.replace('"scope":"acme/a"', '"scope":"beta/x"') : line));
    const denied: string[] = [];
    const permitScope = (scope: string): void => {
      if (!scope.startsWith('acme/')) denied.push(scope);
    };
    const error = await failure(engram.importJsonl(outside, { permitScope, batchSize: 1 }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(/line 3 writes scope "beta\/x", which the header's scopes do not include/);
    expect(denied).toEqual([]);
    expect((await engram.stats({ scopes: ['acme/a', 'beta/x'] })).total).toBe(1);
  });

  it('a record that ends before it starts; an id the dump holds twice is one record and one conflict', async () => {
    const { engram, lines } = await withDump();
    const backwards = lines.map((line, i) => {
      if (i !== 1) return line;
      const parsed = JSON.parse(line) as { record: { validFrom: number; validTo: number | null } };
      parsed.record.validTo = parsed.record.validFrom - 86_400_000;
      return `${JSON.stringify(parsed)}\n`;
    });
    expect((await failure(engram.importJsonl(backwards))).message).toContain('line 2, field "record.validTo": is before validFrom');
    expect((await engram.stats({ scopes: ['acme/a'] })).total).toBe(0);

    const header = JSON.parse(lines[0]!) as { scopes: string[] };
    header.scopes = ['acme/a', 'acme/b'];
    const twice = JSON.parse(lines[1]!) as { record: { scope: string; content: string } };
    twice.record.scope = 'acme/b';
    twice.record.content = 'a copy under the same id';
    const end = JSON.parse(lines[lines.length - 1]!) as { counts: Record<string, number> };
    end.counts.record = 3;
    const doubled = [`${JSON.stringify(header)}\n`, ...lines.slice(1, -1), `${JSON.stringify(twice)}\n`, `${JSON.stringify(end)}\n`];
    const report = await engram.importJsonl(doubled);
    expect(report.counts.record).toEqual({ created: 2, skipped: 0, conflicting: 1 });
    expect(report.conflicts).toEqual([expect.objectContaining({ scope: 'acme/b', reason: expect.stringContaining('more than once') })]);
    expect((await engram.stats({ scopes: ['acme/a', 'acme/b'] })).total).toBe(2);
  });

  it('belief intervals that were never held (ending before they start) or are out of order, naming the field', async () => {
    const { engram, lines } = await withDump();
    const withBeliefs = (beliefs: unknown) =>
      lines.map((line, i) => {
        if (i !== 1) return line;
        const parsed = JSON.parse(line) as Record<string, unknown>;
        return `${JSON.stringify({ ...parsed, beliefs })}\n`;
      });
    const belief = (knownFrom: number, knownTo: number) => ({ validFrom: T0, validTo: null, knownFrom, knownTo });
    expect((await failure(engram.importJsonl(withBeliefs([belief(T0 + 5, T0 + 5)])))).message).toContain(
      'line 2, field "beliefs.0.knownTo": is not after knownFrom',
    );
    expect((await failure(engram.importJsonl(withBeliefs([belief(T0 + 5, T0 + 9), belief(T0, T0 + 5)])))).message).toContain(
      'line 2, field "beliefs": are not in order of knownTo',
    );
    expect((await failure(engram.importJsonl(withBeliefs([])))).message).toContain('line 2, field "beliefs"');
    expect((await engram.stats({ scopes: ['acme/a'] })).total).toBe(0);
    const report = await engram.importJsonl(withBeliefs([belief(T0 - 5, T0), belief(T0, T0 + 5)]));
    expect(report.counts.record.created).toBe(2);
    const first = JSON.parse(lines[1]!) as { record: { id: string } };
    expect((await engram.store.getBeliefs([first.record.id], ['acme/a'])).get(first.record.id)).toEqual([
      belief(T0 - 5, T0),
      belief(T0, T0 + 5),
    ]);
  });

  it('a record whose data has a known field of the wrong type, which consolidation, context and update would trip on', async () => {
    const { engram, lines } = await withDump();
    for (const [data, field] of [
      [{ action: { tool: 5 } }, 'record.data.action.tool'],
      [{ history: 5 }, 'record.data.history'],
      [{ perception: { people: ['Kim', 7] } }, 'record.data.perception.people.1'],
      [{ claim: { subject: 'kim' } }, 'record.data.claim.attribute'],
    ] as const) {
      const damaged = lines.map((line, i) => {
        if (i !== 1) return line;
        const parsed = JSON.parse(line) as { record: { data: unknown } };
        parsed.record.data = data;
        return `${JSON.stringify(parsed)}\n`;
      });
      const error = await failure(engram.importJsonl(damaged));
      expect(error.message).toContain(`line 2, field "${field}"`);
    }
    expect((await engram.stats({ scopes: ['acme/a'] })).total).toBe(0);
    // keys the engine does not know, and extra keys inside the ones it does, are kept (a newer Engram's dump)
    const newer = lines.map((line, i) => {
      if (i !== 1) return line;
      const parsed = JSON.parse(line) as { record: { id: string; data: Record<string, unknown> } };
      parsed.record.data = { ...parsed.record.data, laterFeature: { x: 1 }, action: { tool: 'grasp', grip: 'two-finger' } };
      return `${JSON.stringify(parsed)}\n`;
    });
    expect((await engram.importJsonl(newer)).counts.record.created).toBe(2);
    const first = JSON.parse(lines[1]!) as { record: { id: string } };
    expect((await engram.store.getMemories([first.record.id], ['acme/a']))[0]?.data).toMatchObject({
      laterFeature: { x: 1 },
      action: { tool: 'grasp', grip: 'two-finger' },
    });
  });
});
