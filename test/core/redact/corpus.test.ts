/**
 * The redactor on its corpus (`test/fixtures/redact/`, written by `generate.mjs`): every credential of
 * the secret turns is gone and its kind is named; at most 2% of the ordinary turns (git SHAs, sha256,
 * UUIDs, ULIDs, ids, base64, code, URLs without credentials) lose anything.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/core/redact/index.js';

interface SecretTurn {
  text: string;
  secrets: string[];
}

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/redact/${name}`, import.meta.url), 'utf8'));
const secretTurns = fixture('secrets.json') as SecretTurn[];
const ordinaryTurns = fixture('ordinary.json') as string[];
const redactor = createRedactor();

describe('the redaction corpus', () => {
  it('holds at least 60 credentials in realistic turns and 300 ordinary turns', () => {
    expect(secretTurns.reduce((n, t) => n + t.secrets.length, 0)).toBeGreaterThanOrEqual(60);
    expect(ordinaryTurns.length).toBeGreaterThanOrEqual(300);
  });

  it('redacts every credential, keeping its kind', () => {
    const missed = secretTurns.flatMap((turn) => {
      const { text, count } = redactor.redact(turn.text);
      return turn.secrets.filter((secret) => text.includes(secret)).map((secret) => ({ secret, text, count }));
    });
    expect(missed).toEqual([]);
    for (const turn of secretTurns) {
      const { text, count } = redactor.redact(turn.text);
      expect(count).toBeGreaterThanOrEqual(turn.secrets.length);
      expect(text).toMatch(/\[redacted:[a-z0-9-]+\]/);
    }
  });

  it('falsely redacts at most 2% of the ordinary turns', () => {
    const touched = ordinaryTurns.filter((turn) => redactor.redact(turn).count > 0);
    expect(touched.length / ordinaryTurns.length).toBeLessThanOrEqual(0.02);
  });

  it('is idempotent: a redacted text has nothing left to redact', () => {
    for (const turn of secretTurns) expect(redactor.redact(redactor.redact(turn.text).text).count).toBe(0);
  });
});
