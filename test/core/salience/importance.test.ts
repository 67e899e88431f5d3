import { describe, expect, it } from 'vitest';
import { scoreImportance } from '../../../src/core/write/salience/index.js';

/** Labelled tiers, most important first. */
const ESSENTIAL = [
  "My daughter's birthday is on March 3rd, never forget it",
  "I'm allergic to peanuts, never order anything with nuts for me.",
  'Important: the production database password rotates every 30 days, always update the vault.',
  'Remember that the client demo deadline is Friday at 10am.',
];
const NOTABLE = [
  'I prefer dark mode in all my editors.',
  'We decided to migrate the API to PostgreSQL next quarter.',
  'Caroline moved to Boston in 2022 and works at Google.',
  'My wife and I are expecting our first baby in June!',
];
const ORDINARY = [
  'The robot picked up the mug from the kitchen table.',
  'Ran the test suite, 120 tests passed.',
  'Looked at the logs for a while.',
  'The weather is cloudy.',
];
const CHIT_CHAT = ['ok cool', 'thanks!', 'lol', 'haha yes', 'hi there', 'sounds good', 'ok', 'Good morning!'];

describe('scoreImportance', () => {
  it('ranks the seed example above chit-chat', () => {
    expect(scoreImportance("My daughter's birthday is on March 3rd, never forget it")).toBeGreaterThan(scoreImportance('ok cool'));
  });

  it('orders every labelled tier above the next', () => {
    const tiers = [ESSENTIAL, NOTABLE, ORDINARY, CHIT_CHAT].map((tier) => tier.map((text) => scoreImportance(text)));
    for (let index = 0; index + 1 < tiers.length; index++) {
      const lowestAbove = Math.min(...(tiers[index] ?? []));
      const highestBelow = Math.max(...(tiers[index + 1] ?? []));
      expect(lowestAbove, `tier ${index} vs ${index + 1}`).toBeGreaterThan(highestBelow);
    }
  });

  it('lands the tiers in their decay bands', () => {
    expect(scoreImportance("My daughter's birthday is on March 3rd, never forget it")).toBeGreaterThanOrEqual(0.7);
    for (const text of ORDINARY) expect(scoreImportance(text), text).toBeLessThan(0.5);
    for (const text of CHIT_CHAT) expect(scoreImportance(text), text).toBeLessThanOrEqual(0.05);
  });

  it('stays in 0..1 and is deterministic', () => {
    const loaded =
      'IMPORTANT!!! Remember: never forget, always must, deadline critical, my wife my son my birthday, I prefer, we decided, Alice Bob Carol 2024';
    expect(scoreImportance(loaded)).toBeLessThanOrEqual(1);
    expect(scoreImportance(loaded)).toBe(scoreImportance(loaded));
    expect(scoreImportance('')).toBe(0);
  });

  it('uses signals the caller already computed', () => {
    const text = 'The robot reached the charging dock.';
    expect(scoreImportance(text, { emotionIntensity: 9 })).toBeGreaterThan(scoreImportance(text, { emotionIntensity: 0 }));
    expect(scoreImportance(text, { surprise: 1 })).toBeGreaterThan(scoreImportance(text, { surprise: 0 }));
    expect(scoreImportance(text, { entities: ['robot', 'dock', 'lab'] })).toBeGreaterThan(scoreImportance(text, { entities: [] }));
  });
});
