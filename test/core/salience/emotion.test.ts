import { describe, expect, it } from 'vitest';
import { analyzeEmotion } from '../../../src/core/write/salience/index.js';
import { LABELLED_SENTENCES, NEUTRAL_SENTENCES } from './emotion-fixtures.js';

describe('analyzeEmotion', () => {
  it('agrees with the hand labels on the sign of valence for at least 85% of sentences', () => {
    expect(LABELLED_SENTENCES.length).toBeGreaterThanOrEqual(40);
    const positives = LABELLED_SENTENCES.filter((sentence) => sentence.sign > 0).length;
    expect(Math.abs(positives * 2 - LABELLED_SENTENCES.length)).toBeLessThanOrEqual(4);
    const disagreements = LABELLED_SENTENCES.filter(({ text, sign }) => Math.sign(analyzeEmotion(text).valence) !== sign);
    const agreement = 1 - disagreements.length / LABELLED_SENTENCES.length;
    console.info(
      `emotion sign agreement: ${(agreement * 100).toFixed(1)}% (${LABELLED_SENTENCES.length - disagreements.length}/${LABELLED_SENTENCES.length}); missed: ${disagreements.map((sentence) => sentence.text).join(' | ')}`,
    );
    expect(agreement).toBeGreaterThanOrEqual(0.85);
  });

  it('gives neutral sentences a valence near zero', () => {
    const near = NEUTRAL_SENTENCES.filter((text) => Math.abs(analyzeEmotion(text).valence) < 0.2);
    expect(near.length / NEUTRAL_SENTENCES.length).toBeGreaterThanOrEqual(0.8);
    expect(analyzeEmotion('The meeting is scheduled for 3pm in room 4.')).toEqual({ valence: 0, intensity: 0, mood: [] });
  });

  it('keeps valence in -1..1 and intensity in 0..10', () => {
    for (const text of ['', 'AMAZING AMAZING AMAZING!!!!!!!! 😍😍😍 best ever', 'worst horrible terrible disaster 😡😡😡!!!!']) {
      const { valence, intensity } = analyzeEmotion(text);
      expect(valence).toBeGreaterThanOrEqual(-1);
      expect(valence).toBeLessThanOrEqual(1);
      expect(intensity).toBeGreaterThanOrEqual(0);
      expect(intensity).toBeLessThanOrEqual(10);
    }
  });

  it('flips and softens negated words', () => {
    expect(analyzeEmotion('This is not good.').valence).toBeLessThan(0);
    expect(analyzeEmotion("It isn't bad at all.").valence).toBeGreaterThan(0);
    expect(analyzeEmotion('I never felt happy there.').valence).toBeLessThan(0);
    expect(Math.abs(analyzeEmotion('not good').valence)).toBeLessThan(Math.abs(analyzeEmotion('good').valence));
    expect(analyzeEmotion('I do not like it').valence).toBeLessThan(0);
  });

  it('strengthens with boosters, capitals and exclamation marks; softens with dampeners', () => {
    const plain = analyzeEmotion('The demo was good.');
    expect(analyzeEmotion('The demo was very good.').valence).toBeGreaterThan(plain.valence);
    expect(analyzeEmotion('The demo was GOOD.').valence).toBeGreaterThan(plain.valence);
    expect(analyzeEmotion('The demo was good!!!').valence).toBeGreaterThan(plain.valence);
    expect(analyzeEmotion('The demo was good!!!').intensity).toBeGreaterThan(plain.intensity);
    expect(analyzeEmotion('The demo was slightly good.').valence).toBeLessThan(plain.valence);
  });

  it('weights the clause after "but" more', () => {
    expect(analyzeEmotion('The food was good but the service was terrible.').valence).toBeLessThan(0);
    expect(analyzeEmotion('The service was bad but the food was amazing.').valence).toBeGreaterThan(0);
  });

  it('reads emoji and emoticons', () => {
    expect(analyzeEmotion('see you tomorrow :)').valence).toBeGreaterThan(0);
    expect(analyzeEmotion('see you tomorrow 😢').valence).toBeLessThan(0);
    expect(analyzeEmotion('see you tomorrow 😢').mood).toEqual(['sadness']);
    expect(analyzeEmotion('meeting at 10:30 (room 8)').valence).toBe(0);
  });

  it('tags moods', () => {
    expect(analyzeEmotion('I am so angry and furious about this').mood[0]).toBe('anger');
    expect(analyzeEmotion("I'm scared and anxious about the results").mood[0]).toBe('fear');
    expect(analyzeEmotion('Wow, that was totally unexpected').mood).toContain('surprise');
    expect(analyzeEmotion('I trust her, she is reliable').mood).toContain('trust');
    expect(analyzeEmotion('Ugh, the build is stuck and flaky again').mood[0]).toBe('frustration');
    expect(analyzeEmotion("I'm so excited, can't wait for the trip! 🎉").mood[0]).toBe('excitement');
    expect(analyzeEmotion('We are so happy and glad you came').mood[0]).toBe('joy');
    expect(analyzeEmotion('She cried all night, heartbroken').mood[0]).toBe('sadness');
    expect(analyzeEmotion('I am not happy').mood).toEqual([]);
  });

  it('gives flashbulb events a high intensity', () => {
    expect(analyzeEmotion('My grandmother passed away last night, I am devastated and heartbroken.').intensity).toBeGreaterThan(7);
    expect(analyzeEmotion('ok').intensity).toBe(0);
  });

  it('gives the answers of before its per-word memo, in any order of texts', () => {
    // each expectation is what the analysis gave before a token's lexicon answers were remembered
    const cases: [string, { valence: number; intensity: number; mood: string[] }][] = [
      ["I like it :) ;-) but I don't LIKE this!!! ... ?! likes liked likely", { valence: 0.45, intensity: 8.47, mood: ['joy'] }],
      ['not happy :( <3 xD 😡 GREAT job', { valence: 0.612, intensity: 9.36, mood: ['joy', 'anger', 'sadness'] }],
      ["Would like to go; i'd like that.", { valence: 0.718, intensity: 4.87, mood: [] }],
      ['We never liked the rain, but the sunset was very beautiful.', { valence: 0.85, intensity: 7.25, mood: ['joy'] }],
    ];
    // forwards and backwards: a word's remembered answers carry nothing of the text it was first met in
    for (const order of [cases, [...cases].reverse()])
      for (const [text, expected] of order) expect(analyzeEmotion(text), text).toEqual(expected);
  });
});
