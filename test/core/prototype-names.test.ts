/**
 * Text made of Object.prototype property names ("constructor", "__proto__", "toString"…) is ordinary
 * text: lexicons and gazetteers keyed by words must not find the inherited members of a plain object.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { analyzeEmotion } from '../../src/core/write/salience/emotion.js';
import { tempEngram } from '../helpers/temp.js';

/** Every name Object.prototype has, plus the legacy accessors some engines lack. */
const PROTOTYPE_NAMES = [
  ...new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    'propertyIsEnumerable',
    'toLocaleString',
    '__defineGetter__',
    '__defineSetter__',
    '__lookupGetter__',
    '__lookupSetter__',
  ]),
];
const SCOPE = 'acme/a';

let engram: Engram;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
});
afterAll(() => cleanup());

describe('Object.prototype names in user text', () => {
  it('scores the emotion of text made of them as neutral', () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(() => analyzeEmotion(`${name} ${name.toLowerCase()}!`)).not.toThrow();
    }
  });

  it.each(PROTOTYPE_NAMES)('remembers and recalls "%s" as content, tag, entity, scope segment and metadata key', async (name) => {
    const scope = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(name) ? `acme/${name}` : SCOPE;
    const episode = await engram.remember({
      scope,
      content: `${name} met ${name} at ${name}`,
      tags: [name],
      entities: [name],
      action: { tool: name, args: { [name]: 1 } },
    });
    expect(episode.action).toBe('created');
    const fact = await engram.remember({
      scope,
      layer: 'semantic',
      content: `The ${name} is ${name}`,
      name,
      category: name,
      properties: { [name]: name },
    });
    expect(['created', 'merged', 'superseded']).toContain(fact.action);
    await engram.remember({ scope, layer: 'procedural', content: `Always ${name} before ${name}` });
    const result = await engram.recall(`${name} ${name}`, { scopes: [scope] });
    expect(result.hits.map((h) => h.id)).toContain(episode.id);
    const context = await engram.context({ scopes: [scope], message: `what about ${name}?` });
    expect(context).toBeDefined();
    expect((await engram.get(episode.id, { scopes: [scope] })).tags).toEqual([name]);
  });

  it('imports Markdown files named after them as semantic notes', async () => {
    const scope = 'acme/markdown';
    const files = Object.fromEntries(PROTOTYPE_NAMES.map((name, i) => [name, `- A note number ${i} about ${name}\n`]));
    const report = await engram.importMarkdown(files, { scope });
    expect(report.created + report.added).toBe(PROTOTYPE_NAMES.length);
    const result = await engram.recall('note about constructor', { scopes: [scope], layers: ['semantic'] });
    expect(result.hits.length).toBeGreaterThan(0);
  });

  it('never crashes remember or recall on words drawn from them and random words', async () => {
    const word = fc.oneof(
      fc.constantFrom(...PROTOTYPE_NAMES),
      fc.constantFrom(...PROTOTYPE_NAMES.map((n) => n.toLowerCase())),
      fc.stringMatching(/^[a-z]{1,8}$/),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 8 }), fc.array(word, { maxLength: 3 }), async (words, tags) => {
        const text = words.join(' ');
        await engram.remember({ scope: SCOPE, content: text, tags: tags.length > 0 ? tags : undefined, entities: words.slice(0, 3) });
        const result = await engram.recall(text, { scopes: [SCOPE], trackAccess: false });
        expect(Array.isArray(result.hits)).toBe(true);
      }),
      { numRuns: 40, seed: 7 },
    );
  });
});
