/**
 * The committed JSON Schema of a dump line (docs/engram-dump.schema.json) is the one the importer's
 * schemas generate, and every line of a real dump (every kind, with vectors) validates against it.
 * `UPDATE_DUMP_SCHEMA=1` rewrites the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { dumpJsonSchema } from '../../src/core/dump/index.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import { tempEngram } from '../helpers/temp.js';
import { populateRichStore, RICH_T0, SCOPES } from './rich-store.js';

const FILE = fileURLToPath(new URL('../../docs/engram-dump.schema.json', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('docs/engram-dump.schema.json', () => {
  it("is what the importer's schemas generate", () => {
    const generated = `${JSON.stringify(dumpJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_DUMP_SCHEMA === '1') writeFileSync(FILE, generated);
    expect(readFileSync(FILE, 'utf8')).toBe(generated);
  });

  it('validates every line of a dump of a store holding every kind of state, and rejects broken lines', { timeout: 120_000 }, async () => {
    const clock = new ManualClock(RICH_T0);
    const { engram, cleanup } = await tempEngram({ clock });
    cleanups.push(cleanup);
    await populateRichStore(engram, clock);
    const validate = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(FILE, 'utf8')) as object);
    const kinds = new Set<string>();
    for await (const line of engram.exportJsonl({ scopes: [...SCOPES], embeddings: true })) {
      const value = JSON.parse(line) as { kind?: string; beliefs?: unknown };
      kinds.add(value.kind ?? 'header');
      if (value.beliefs !== undefined) kinds.add('record with beliefs');
      expect(validate(value), `${line.slice(0, 120)}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect([...kinds].sort()).toEqual([
      'audit',
      'conceptRef',
      'edge',
      'end',
      'header',
      'record',
      'record with beliefs',
      'relationType',
      'state',
    ]);
    expect(validate({ kind: 'record', record: { id: 'x' } })).toBe(false);
    expect(validate({ format: 'engram-dump', version: 1 })).toBe(false);
    expect(validate({ kind: 'edge', edge: {}, extra: true })).toBe(false);
    const belief = { validFrom: RICH_T0, validTo: null, knownFrom: RICH_T0, knownTo: RICH_T0 + 1 };
    expect(validate({ kind: 'record', record: {}, beliefs: [{ ...belief, text: 'no text in a belief' }] })).toBe(false);
  });
});
