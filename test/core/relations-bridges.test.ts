import { describe, expect, it } from 'vitest';
import { BUILT_IN_RELATIONS, symmetryOf, withBuiltInRelations } from '../../src/core/relations.js';

describe('BRIDGES: a built-in symmetric type, known even to stores seeded before it shipped', () => {
  const seededEarlier = BUILT_IN_RELATIONS.filter((t) => t.name !== 'BRIDGES');

  it('is built in and symmetric', () => {
    expect(BUILT_IN_RELATIONS.find((t) => t.name === 'BRIDGES')).toMatchObject({ symmetric: true, builtIn: true, tenant: null });
  });

  it('a registry read without it still knows it (listing and symmetry)', () => {
    const merged = withBuiltInRelations(seededEarlier);
    expect(merged.find((t) => t.name === 'BRIDGES')?.symmetric).toBe(true);
    expect(merged.map((t) => t.name)).toEqual([...merged.map((t) => t.name)].sort());
    expect(withBuiltInRelations(BUILT_IN_RELATIONS)).toHaveLength(BUILT_IN_RELATIONS.length);
    expect(symmetryOf(seededEarlier)('acme/a', 'BRIDGES')).toBe(true);
    expect(symmetryOf(seededEarlier)('acme/a', 'CAUSES')).toBe(false);
  });
});
