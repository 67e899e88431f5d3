/** Scope templates: `{repo}` from the git top level of a directory, made a valid segment that no other name shares. */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fillTemplate, projectRoot, resolveScopes } from '../../src/interfaces/hooks/scope-template.js';
import { scopeSegment } from '../../src/core/scope-segment.js';
import { scopeProblem } from '../../src/core/scope.js';
import { tempDir } from '../helpers/temp.js';

const { dir, cleanup } = tempDir();
afterAll(() => cleanup());

describe('scope templates', () => {
  it('keeps a clean folder name as it is and makes any other name a valid segment with a digest of the name', () => {
    const digest = (name: string) => createHash('sha256').update(name.normalize('NFC')).digest('hex').slice(0, 8);
    const cases: [string, string][] = [
      ['shop', 'shop'],
      ['web_app-2.0', 'web_app-2.0'],
      ['a'.repeat(100), 'a'.repeat(100)],
      ['My Shop (fork)', `My-Shop-fork-${digest('My Shop (fork)')}`],
      ['.dotfiles', `dotfiles-${digest('.dotfiles')}`],
      ['-dash', `dash-${digest('-dash')}`],
      ['café-crème', `cafe-creme-${digest('café-crème')}`],
      ['日本語', `default-${digest('日本語')}`],
      ['..', `default-${digest('..')}`],
      ['', `default-${digest('')}`],
      ['a'.repeat(300), `${'a'.repeat(91)}-${digest('a'.repeat(300))}`],
      ['v1.2.', `v1.2-${digest('v1.2.')}`],
    ];
    for (const [name, segment] of cases) {
      expect(scopeSegment(name)).toBe(segment);
      expect(scopeSegment(name).length).toBeLessThanOrEqual(100);
      expect(scopeProblem(`t/${scopeSegment(name)}`)).toBeNull();
    }
  });

  it('different names never share a segment: scripts without Latin letters, replaced characters, long names', () => {
    const groups = [
      ['проект', 'магазин', 'default'],
      ['客户A', '客户B', 'A', 'B'],
      ['My Shop', 'My-Shop', 'My_Shop'],
      ['café', 'cafe'],
      [`${'x'.repeat(100)}-one`, `${'x'.repeat(100)}-two`, 'x'.repeat(100)],
    ];
    for (const names of groups) expect(new Set(names.map((name) => scopeSegment(name))).size).toBe(names.length);
    // the same name written decomposed (as macOS file systems return it) is the same project
    expect(scopeSegment('café'.normalize('NFD'))).toBe(scopeSegment('café'.normalize('NFC')));
    expect(scopeSegment('客户A')).toMatch(/^A-[0-9a-f]{8}$/);
  });

  it('two git repos whose names differ only outside [A-Za-z0-9_.-] get two scopes', () => {
    const scopes = ['проект', 'магазин'].map((name) => {
      mkdirSync(join(dir, 'cyrillic', name, '.git'), { recursive: true });
      return fillTemplate('{tenant}/projects/{repo}', { tenant: 'me', cwd: join(dir, 'cyrillic', name) });
    });
    expect(scopes[0]).toMatch(/^me\/projects\/default-[0-9a-f]{8}$/);
    expect(scopes[1]).toMatch(/^me\/projects\/default-[0-9a-f]{8}$/);
    expect(scopes[0]).not.toBe(scopes[1]);
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
    expect(fillTemplate('{tenant}/projects/{repo}', { tenant: 'me', cwd: join(repo, 'src', 'deep') })).toMatch(
      /^me\/projects\/Big-Repo-[0-9a-f]{8}$/,
    );
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
