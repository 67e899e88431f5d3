/** The relationship registry: built-ins, run-time types that survive a reopen, symmetric vs directed edges. */
import { afterEach, describe, expect, it } from 'vitest';
import { Engram } from '../../../src/index.js';
import { isEngramError } from '../../../src/core/errors.js';
import { tempEngram } from '../../helpers/temp.js';

const S = 'acme/shared';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup() {
  const t = await tempEngram();
  cleanups.push(t.cleanup);
  const add = async (name: string) => (await t.engram.remember({ scope: S, layer: 'semantic', content: name.replace(/_/g, ' '), name })).id;
  return { ...t, add };
}

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isEngramError(error) ? error.code : 'not an EngramError';
  }
}

describe('relations', () => {
  it('symmetric edges read the same from both ends; directed edges have a direction', async () => {
    const { engram, add } = await setup();
    const [mug, container, navigate] = [await add('coffee_mug'), await add('container'), await add('navigate')];
    const isA = await engram.relate({ scope: S, from: mug, type: 'is a', to: container });
    expect(isA).toMatchObject({ action: 'created', symmetric: false, edge: { from: mug, type: 'IS_A', to: container, weight: 1 } });
    await engram.relate({ scope: S, from: navigate, type: 'RELATED_TO', to: mug, weight: 0.6 });

    const fromMug = await engram.edges(mug, { scopes: [S] });
    expect(fromMug.map((e) => [e.type, e.direction, e.other, e.weight])).toEqual([
      ['IS_A', 'out', container, 1],
      ['RELATED_TO', 'both', navigate, 0.6],
    ]);
    expect((await engram.edges(container, { scopes: [S] })).map((e) => [e.type, e.direction, e.other])).toEqual([['IS_A', 'in', mug]]);
    expect((await engram.edges(navigate, { scopes: [S] })).map((e) => [e.type, e.direction, e.other])).toEqual([
      ['RELATED_TO', 'both', mug],
    ]);

    // relating a symmetric pair the other way round updates the one edge
    const again = await engram.relate({ scope: S, from: mug, type: 'RELATED_TO', to: navigate, weight: 0.8 });
    expect(again.action).toBe('updated');
    expect((await engram.edges(navigate, { scopes: [S] })).map((e) => e.weight)).toEqual([0.8]);
    // a directed pair the other way round is a different edge
    expect((await engram.relate({ scope: S, from: container, type: 'IS_A', to: mug })).action).toBe('created');
    expect((await engram.stats({ scopes: [S] })).edges).toBe(3);
  });

  it('refuses unknown types, missing records, self-loops and other scopes', async () => {
    const { engram, add } = await setup();
    const [a, b] = [await add('a_thing'), await add('b_thing')];
    const elsewhere = (await engram.remember({ scope: 'acme/users/x', layer: 'semantic', content: 'other' })).id;
    expect(await code(engram.relate({ scope: S, from: a, type: 'LOVES', to: b }))).toBe('INVALID_INPUT');
    expect(await code(engram.relate({ scope: S, from: a, type: 'IS_A', to: a }))).toBe('INVALID_INPUT');
    expect(await code(engram.relate({ scope: S, from: a, type: 'IS_A', to: 'missing' }))).toBe('NOT_FOUND');
    expect(await code(engram.relate({ scope: S, from: a, type: 'IS_A', to: elsewhere }))).toBe('NOT_FOUND');
    expect(await code(engram.relate({ scope: S, from: a, type: 'IS_A', to: b, weight: -1 }))).toBe('INVALID_INPUT');
    expect(await code(engram.relate({ scope: S, from: a, type: 'bad type!', to: b }))).toBe('INVALID_INPUT');
  });

  it('run-time types are recorded as proposed, persist across a reopen, and can be used', async () => {
    const { engram, path, add } = await setup();
    const builtIns = await engram.relations({ scopes: [S] });
    expect(builtIns.filter((t) => t.symmetric).map((t) => t.name)).toEqual(['BRIDGES', 'CORRELATES_WITH', 'RELATED_TO', 'TRENDS_WITH']);
    expect(builtIns.every((t) => t.builtIn)).toBe(true);
    const registered = await engram.registerRelation({
      scope: S,
      name: 'co-occurs with',
      symmetric: true,
      proposedBy: 'agent:planner',
      description: 'seen together',
    });
    expect(registered).toMatchObject({ name: 'CO_OCCURS_WITH', symmetric: true, builtIn: false, proposedBy: 'agent:planner' });
    expect(await code(engram.registerRelation({ scope: S, name: 'CO_OCCURS_WITH', symmetric: false }))).toBe('CONFLICT');
    const [x, y] = [await add('x_item'), await add('y_item')];
    await engram.close();

    const reopened = await Engram.open({ path, embedder: 'hash' });
    cleanups.push(() => reopened.close());
    expect((await reopened.relations({ scopes: [S] })).find((t) => t.name === 'CO_OCCURS_WITH')).toEqual(registered);
    await reopened.relate({ scope: S, from: x, type: 'CO_OCCURS_WITH', to: y });
    expect((await reopened.edges(y, { scopes: [S] })).map((e) => e.direction)).toEqual(['both']);
  });

  it('edges respect asOf and knownAt', async () => {
    const { engram, add } = await setup();
    const [a, b] = [await add('alpha'), await add('beta')];
    await engram.relate({ scope: S, from: a, type: 'CAUSES', to: b, validFrom: '2025-01-01', validTo: '2025-06-01' });
    expect(await engram.edges(a, { scopes: [S] })).toEqual([]);
    expect((await engram.edges(a, { scopes: [S], asOf: '2025-03-01' })).map((e) => e.type)).toEqual(['CAUSES']);
    expect(await engram.edges(a, { scopes: [S], asOf: '2025-03-01', knownAt: '2020-01-01' })).toEqual([]);
  });
});
