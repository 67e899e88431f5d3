/** Scope templates: `{repo}` from the git top level of a directory, sanitised into a valid segment. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fillTemplate, projectRoot, resolveScopes, scopeSegment } from '../../src/interfaces/hooks/scope-template.js';
import { scopeProblem } from '../../src/core/scope.js';
import { tempDir } from '../helpers/temp.js';

const { dir, cleanup } = tempDir();
afterAll(() => cleanup());

describe('scope templates', () => {
  it('makes any folder name a valid scope segment', () => {
    const cases: [string, string][] = [
      ['shop', 'shop'],
      ['My Shop (fork)', 'My-Shop-fork'],
      ['.dotfiles', 'dotfiles'],
      ['-dash', 'dash'],
      ['café-crème', 'cafe-creme'],
      ['日本語', 'default'],
      ['..', 'default'],
      ['a'.repeat(300), 'a'.repeat(100)],
      ['v1.2.', 'v1.2'],
    ];
    for (const [name, segment] of cases) {
      expect(scopeSegment(name)).toBe(segment);
      expect(scopeProblem(`t/${scopeSegment(name)}`)).toBeNull();
    }
  });

  it('{repo} is the git top level of cwd (a .git folder or a worktree .git file), else cwd', () => {
    const repo = join(dir, 'Big Repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    const worktree = join(dir, 'wt', 'feature-x');
    mkdirSync(join(worktree, 'lib'), { recursive: true });
    writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere/.git/worktrees/feature-x\n');
    const plain = join(dir, 'plain', 'notes');
    mkdirSync(plain, { recursive: true });
    expect(projectRoot(join(repo, 'src', 'deep'))).toBe(repo);
    expect(fillTemplate('{tenant}/projects/{repo}', { tenant: 'me', cwd: join(repo, 'src', 'deep') })).toBe('me/projects/Big-Repo');
    expect(fillTemplate('{tenant}/projects/{repo}', { tenant: 'me', cwd: join(worktree, 'lib') })).toBe('me/projects/feature-x');
    expect(fillTemplate('{tenant}/projects/{repo}', { tenant: 'me', cwd: plain })).toBe('me/projects/notes');
  });

  it('explicit scopes win; the user scope is read too; what cannot be filled is refused', () => {
    const cwd = join(dir, 'plain', 'notes');
    expect(
      resolveScopes({ scopes: ['a/b'], template: '{tenant}/projects/{repo}', tenant: 'me', userScope: '{tenant}/users/al', cwd }),
    ).toEqual({ writeScope: 'a/b', readScopes: ['a/b', 'me/users/al'], userScope: 'me/users/al' });
    expect(resolveScopes({ template: '{tenant}/projects/{repo}', tenant: 'me', cwd })).toEqual({
      writeScope: 'me/projects/notes',
      readScopes: ['me/projects/notes'],
    });
    expect(() => resolveScopes({ template: '{tenant}/projects/{repo}', cwd })).toThrow(/needs a tenant/);
    expect(() => resolveScopes({ template: '{tenant}/{branch}', tenant: 'me', cwd })).toThrow(/unknown placeholder \{branch\}/);
    expect(() => resolveScopes({ template: '{tenant}/../{repo}', tenant: 'me', cwd })).toThrow(/".." segment/);
    expect(() => resolveScopes({ cwd })).toThrow(/needs a scope/);
  });
});
