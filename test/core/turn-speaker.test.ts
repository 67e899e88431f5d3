import { describe, expect, it } from 'vitest';
import { speakerLine } from '../../src/core/layers/turn-speaker.js';
import { embeddingText } from '../../src/core/write/remember.js';

describe('speakerLine', () => {
  it('names the speaker of a "Name: text" turn that names no people', () => {
    expect(speakerLine('Caroline: I went to the support group today.', {})).toBe('perceived: caroline.');
    expect(speakerLine('Ann Marie: see you at 5', {})).toBe('perceived: ann marie.');
    expect(speakerLine('Dr. Lee: take two a day', {})).toBe('perceived: dr lee.');
    expect(speakerLine('Zoë: ça va', {})).toBe('perceived: zoë.');
  });

  it('stays out of turns that name their people, and of text that is not a turn', () => {
    expect(speakerLine('Caroline: hello', { perception: { people: ['Caroline'] } })).toBe('');
    expect(speakerLine('Tool output: make docs exited 0', {})).toBe('');
    expect(speakerLine('the ratio is 3:2', {})).toBe('');
    expect(speakerLine('Caroline:', {})).toBe('');
    expect(speakerLine('https://example.com: down', {})).toBe('');
  });

  it('is what an episodic turn is embedded from, as a turn written with perception.people is', () => {
    const plain = embeddingText({ layer: 'episodic', content: 'Caroline: I went to the support group.', data: {} });
    const sourced = embeddingText({
      layer: 'episodic',
      content: 'Caroline: I went to the support group.',
      data: { perception: { people: ['Caroline'] } },
    });
    expect(plain).toBe(sourced);
    expect(embeddingText({ layer: 'semantic', content: 'Caroline: likes tea', data: {} })).toBe('Caroline: likes tea');
  });
});
