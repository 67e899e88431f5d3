/**
 * `engram setup claude-code` as a user runs it: project mode (committed .mcp.json and
 * .claude/settings.json, the key and the database path only in .claude/settings.local.json) and user
 * mode (~/.claude.json, ~/.claude/settings.json), merged into existing files and idempotent.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { applyChanges, ignoreInGit, mergeEnv, mergeHooks, type FileChange } from '../../src/interfaces/cli/commands/setup-files.js';
import { BIN, binBuilt, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'egk_test_0123456789abcdefghijklmnop';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function readJson(path: string): Json {
  return JSON.parse(readFileSync(path, 'utf8')) as Json;
}

function setup(args: string[], home: string) {
  return runCli(['setup', 'claude-code', ...args], { env: { HOME: home, USER: 'alice', ENGRAM_API_KEY: '', ENGRAM_TENANT: '' } });
}

const gitInstalled = spawnSync('git', ['--version']).status === 0;

function git(cwd: string, ...args: string[]) {
  return spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

const mode = (path: string) => statSync(path).mode & 0o777;

function change(path: string, apply: (doc: Json) => Json, committed = false): FileChange {
  return { path, committed, role: 'test', part: {}, apply };
}

describe('setup files', () => {
  it("replaces only Engram's own hooks in a group: the user's hooks, groups and matchers stay; idempotent", () => {
    const ours = { Stop: [{ hooks: [{ type: 'command', command: 'engram hooks stop --scope acme/projects/new' }] }] };
    const doc = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'engram hooks stop --scope acme/projects/old' },
              { type: 'command', command: '/usr/local/bin/notify-done.sh' },
            ],
          },
          { matcher: '', hooks: [{ type: 'command', command: 'say done' }] },
          { hooks: [{ type: 'command', command: '/usr/bin/node /opt/engram/dist/interfaces/cli/main.js hooks stop --scope a/b' }] },
          { hooks: [] },
        ],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'engram hooks stop' }] }],
      },
    };
    const once = mergeHooks(ours)(doc);
    expect(once.hooks).toEqual({
      Stop: [
        { hooks: [{ type: 'command', command: '/usr/local/bin/notify-done.sh' }] },
        { matcher: '', hooks: [{ type: 'command', command: 'say done' }] },
        { hooks: [] },
        ...ours.Stop,
      ],
      PreToolUse: doc.hooks.PreToolUse,
    });
    expect(mergeHooks(ours)(once)).toEqual(once);
  });

  it('writes every file or none: a file that cannot be parsed stops setup before any is written', () => {
    const { dir, cleanup } = tempDir();
    try {
      const good = join(dir, 'claude.json');
      const bad = join(dir, 'settings.json');
      writeFileSync(good, '{"numStartups": 3}\n');
      writeFileSync(bad, '{\n  // comment\n  "model": "opus",\n}\n');
      const changes = [
        change(good, mergeEnv({ A: '1' })),
        change(join(dir, 'new', 'x.json'), mergeEnv({ B: '1' })),
        change(bad, mergeEnv({ C: '1' })),
      ];
      expect(() => applyChanges(changes, [])).toThrow(/settings\.json is not valid JSON: fix or remove it/);
      expect(readFileSync(good, 'utf8')).toBe('{"numStartups": 3}\n');
      expect(existsSync(join(dir, 'new'))).toBe(false);
    } finally {
      cleanup();
    }
  });

  it('a file that holds the key is made owner-only (0600), whether it was created, rewritten or left as it is', () => {
    const { dir, cleanup } = tempDir();
    try {
      const [rewritten, unchanged, keyless, committed] = ['a.json', 'b.json', 'c.json', 'd.json'].map((f) => join(dir, f)) as [
        string,
        string,
        string,
        string,
      ];
      writeFileSync(rewritten, '{"numStartups": 1}');
      writeFileSync(unchanged, `${JSON.stringify({ env: { ENGRAM_API_KEY: KEY } }, null, 2)}\n`);
      for (const path of [rewritten, unchanged]) chmodSync(path, 0o644);
      writeFileSync(keyless, '{}');
      chmodSync(keyless, 0o644);
      const written = applyChanges(
        [
          change(rewritten, mergeEnv({ ENGRAM_API_KEY: KEY })),
          change(unchanged, mergeEnv({ ENGRAM_API_KEY: KEY })),
          change(join(dir, 'created.json'), mergeEnv({ ENGRAM_API_KEY: KEY })),
          change(keyless, mergeEnv({ OTHER: '1' })),
          change(committed, mergeEnv({ OTHER: '1' }), true),
        ],
        [KEY],
      );
      expect(written.map((c) => c.path)).toEqual([rewritten, join(dir, 'created.json'), keyless, committed]);
      for (const path of [rewritten, unchanged, join(dir, 'created.json')]) {
        expect(readFileSync(path, 'utf8')).toContain(KEY);
        expect(mode(path).toString(8), path).toBe('600');
      }
      expect(mode(keyless).toString(8)).toBe('644');
    } finally {
      cleanup();
    }
  });

  it.skipIf(!gitInstalled)('ignores settings.local.json in a sub-folder of a git work tree, from its top level, once', () => {
    const { dir, cleanup } = tempDir();
    try {
      const mono = join(dir, 'mono');
      const web = join(mono, 'packages', 'my web [1]');
      mkdirSync(join(web, '.claude'), { recursive: true });
      expect(git(mono, 'init', '-q', '.').status).toBe(0);
      const file = join(web, '.claude', 'settings.local.json');
      writeFileSync(file, '{}');
      expect(ignoreInGit(file)).toBe(join(mono, '.gitignore'));
      expect(readFileSync(join(mono, '.gitignore'), 'utf8')).toBe('packages/my web \\[1\\]/.claude/settings.local.json\n');
      expect(git(mono, 'check-ignore', '-q', 'packages/my web [1]/.claude/settings.local.json').status).toBe(0);
      expect(git(mono, 'status', '--porcelain', '--untracked-files=all').stdout).toBe('?? .gitignore\n');
      expect(ignoreInGit(file)).toBeUndefined();
      // a work tree that ignores it already (here a pattern of its own) gets no line
      const shop = join(dir, 'shop');
      mkdirSync(join(shop, '.claude'), { recursive: true });
      expect(git(shop, 'init', '-q', '.').status).toBe(0);
      writeFileSync(join(shop, '.gitignore'), '*.local.json\n');
      expect(ignoreInGit(join(shop, '.claude', 'settings.local.json'))).toBeUndefined();
      expect(readFileSync(join(shop, '.gitignore'), 'utf8')).toBe('*.local.json\n');
    } finally {
      cleanup();
    }
  });
});

describe.skipIf(!binBuilt)('engram setup claude-code --project', () => {
  it('prints what it would write, writes nothing, and masks the key', () => {
    const { dir, cleanup } = tempDir();
    try {
      const result = setup(['--dir', dir, '--api-key', KEY, '--json'], dir);
      expect(result.status, result.stderr).toBe(0);
      const plan = json<{ mode: string; scope: string; files: { path: string; committed: boolean; part: Json }[] }>(result);
      expect(plan.mode).toBe('project');
      expect(plan.files.map((f) => [f.path.slice(dir.length), f.committed])).toEqual([
        ['/.mcp.json', true],
        ['/.claude/settings.json', true],
        ['/.claude/settings.local.json', false],
      ]);
      expect(result.stdout).not.toContain(KEY);
      expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
      const text = setup(['--dir', dir], dir);
      expect(text.stdout).toContain('Nothing written: add --write');
    } finally {
      cleanup();
    }
  });

  it('--write merges: committed files name the installed engram and no secret or machine path; the key and db go to settings.local.json; idempotent', () => {
    const { dir, cleanup } = tempDir();
    try {
      const project = join(dir, 'shop');
      mkdirSync(join(project, '.git'), { recursive: true });
      mkdirSync(join(project, '.claude'));
      // someone else's settings, and an Engram hook from an older setup (absolute path to the bin)
      writeFileSync(
        join(project, '.claude', 'settings.json'),
        JSON.stringify({
          model: 'opus',
          hooks: {
            Stop: [
              { hooks: [{ type: 'command', command: 'say done' }] },
              {
                hooks: [
                  { type: 'command', command: '/usr/bin/node /opt/engram/dist/interfaces/cli/main.js hooks stop --db /x.db --scope a/b' },
                ],
              },
            ],
          },
        }),
      );
      writeFileSync(
        join(project, '.claude', 'settings.local.json'),
        JSON.stringify({ env: { OTHER: '1' }, permissions: { allow: ['Bash(ls)'] } }),
      );
      writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }));
      const db = join(dir, 'data', 'team.db');
      const first = setup(['--project', '--write', '--dir', project, '--tenant', 'acme', '--api-key', KEY, '--db', db], dir);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toContain('scope {tenant}/projects/{repo} (here: acme/projects/shop)');
      const snapshot = () =>
        ['.mcp.json', '.claude/settings.json', '.claude/settings.local.json', '.gitignore'].map((f) =>
          readFileSync(join(project, f), 'utf8'),
        );
      const before = snapshot();
      const second = setup(['--project', '--write', '--dir', project, '--tenant', 'acme', '--api-key', KEY, '--db', db], dir);
      expect(second.status).toBe(0);
      expect(second.stdout).toMatch(/unchanged .*\.mcp\.json/);
      expect(snapshot()).toEqual(before);

      const mcp = readJson(join(project, '.mcp.json'));
      expect(Object.keys(mcp.mcpServers).sort()).toEqual(['engram', 'github']);
      expect(mcp.mcpServers.engram).toEqual({
        type: 'stdio',
        command: 'engram',
        args: ['mcp', '--scope-template', '{tenant}/projects/{repo}', '--tenant', 'acme', '--user-scope', 'acme/users/alice'],
        env: {},
      });
      const settings = readJson(join(project, '.claude', 'settings.json'));
      expect(settings.model).toBe('opus');
      expect(Object.keys(settings.hooks).sort()).toEqual(['PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
      const stop = settings.hooks.Stop.map((e: Json) => e.hooks[0].command);
      expect(stop).toEqual([
        'say done',
        "engram hooks stop --scope-template '{tenant}/projects/{repo}' --tenant acme --user-scope acme/users/alice",
      ]);
      expect(settings.hooks.SessionStart[0].hooks[0].command).toMatch(/^engram hooks session-start /);
      expect(settings.hooks.PreCompact[0].hooks[0].command).toMatch(/^engram hooks pre-compact /);
      for (const committed of [join(project, '.mcp.json'), join(project, '.claude', 'settings.json')]) {
        const text = readFileSync(committed, 'utf8');
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(dir); // no machine path
        expect(text).not.toContain('npx');
      }
      const local = readJson(join(project, '.claude', 'settings.local.json'));
      expect(local).toEqual({ env: { OTHER: '1', ENGRAM_API_KEY: KEY, ENGRAM_DB: db }, permissions: { allow: ['Bash(ls)'] } });
      expect(readFileSync(join(project, '.gitignore'), 'utf8')).toBe('.claude/settings.local.json\n');
    } finally {
      cleanup();
    }
  });

  it.skipIf(!gitInstalled)('in a sub-folder of a git work tree: the key file is owner-only and ignored from the top level', () => {
    const { dir, cleanup } = tempDir();
    try {
      const mono = join(dir, 'mono');
      const web = join(mono, 'packages', 'web');
      mkdirSync(web, { recursive: true });
      expect(git(mono, 'init', '-q', '.').status).toBe(0);
      const result = setup(['--write', '--dir', web, '--api-key', KEY], dir);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(`added ${join(web, '.claude', 'settings.local.json')} to ${join(mono, '.gitignore')}`);
      expect(readFileSync(join(mono, '.gitignore'), 'utf8')).toBe('packages/web/.claude/settings.local.json\n');
      expect(git(mono, 'check-ignore', '-q', 'packages/web/.claude/settings.local.json').status).toBe(0);
      expect(mode(join(web, '.claude', 'settings.local.json')).toString(8)).toBe('600');
      expect(setup(['--write', '--dir', web, '--api-key', KEY], dir).stdout).not.toContain('added');
    } finally {
      cleanup();
    }
  });

  it('prints the scope the hooks use there: one per project, names outside [A-Za-z0-9_.-] included', () => {
    const { dir, cleanup } = tempDir();
    try {
      const db = join(dir, 'engram.db');
      const scopes = ['проект', 'магазин', 'My Shop', 'My-Shop'].map((name) => {
        const project = join(dir, name);
        mkdirSync(join(project, '.git'), { recursive: true });
        const plan = json<{ scope: string }>(setup(['--dir', project, '--tenant', 'acme', '--json'], dir));
        const transcript = join(project, 'transcript.jsonl');
        const turn = { type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: `We work on ${name}.` } };
        writeFileSync(transcript, `${JSON.stringify(turn)}\n`);
        const stdin = JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: project, hook_event_name: 'Stop' });
        const hook = runCli(
          [
            'hooks',
            'stop',
            '--scope-template',
            '{tenant}/projects/{repo}',
            '--tenant',
            'acme',
            '--db',
            db,
            '--embedder',
            'hash',
            '--no-start-server',
            '--verbose',
          ],
          { input: stdin, env: { ENGRAM_URL: '', ENGRAM_SCOPES: '' } },
        );
        expect(hook.status, hook.stderr).toBe(0);
        expect(hook.stderr).toContain(`"scope":"${plan.scope}"`);
        return plan.scope;
      });
      expect(scopes[3]).toBe('acme/projects/My-Shop');
      expect(scopes[2]).toMatch(/^acme\/projects\/My-Shop-[0-9a-f]{8}$/);
      expect(scopes[0]).toMatch(/^acme\/projects\/default-[0-9a-f]{8}$/);
      expect(new Set(scopes).size).toBe(4);
    } finally {
      cleanup();
    }
  });

  it('a fixed --scope wins over the template; a template it cannot fill is refused before anything is written', () => {
    const { dir, cleanup } = tempDir();
    try {
      const fixed = json<{ files: { part: Json }[] }>(setup(['--dir', dir, '--scope', 'me/projects/shop', '--json'], dir));
      expect(fixed.files[0]?.part.mcpServers.engram.args).toEqual([
        'mcp',
        '--scope',
        'me/projects/shop',
        '--user-scope',
        'alice/users/alice',
      ]);
      const bad = setup(['--dir', dir, '--scope-template', '{tenant}/x/{branch}', '--write'], dir);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/unknown placeholder \{branch\}/);
      expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
      expect(setup(['--user', '--project'], dir).stderr).toMatch(/Choose one of --user/);
    } finally {
      cleanup();
    }
  });
});

describe.skipIf(!binBuilt)('engram setup claude-code --user', () => {
  it('a home it cannot write is refused naming the path (exit 2), not an internal error', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'not-a-folder');
      writeFileSync(file, 'x');
      const result = setup(['--user', '--write', '--scope', 'me/projects/shop'], join(file, 'home'));
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/Cannot write .*not-a-folder.*: ENOTDIR\. It must be a folder that can be created/);
      expect(result.stderr).not.toMatch(/Internal error/);
    } finally {
      cleanup();
    }
  });

  it('makes existing files that now hold the key owner-only; a file it cannot merge stops it before any is written', () => {
    const { dir: home, cleanup } = tempDir();
    try {
      mkdirSync(join(home, '.claude'));
      const claude = join(home, '.claude.json');
      const settings = join(home, '.claude', 'settings.json');
      writeFileSync(claude, '{"numStartups": 3}\n');
      writeFileSync(settings, '{\n  // comment\n  "model": "opus",\n}\n');
      for (const path of [claude, settings]) chmodSync(path, 0o644);
      const partial = setup(['--user', '--write', '--api-key', KEY], home);
      expect(partial.status).toBe(2);
      expect(partial.stderr).toMatch(/settings\.json is not valid JSON/);
      expect(readFileSync(claude, 'utf8')).toBe('{"numStartups": 3}\n');
      writeFileSync(settings, '{"model": "opus"}');
      const result = setup(['--user', '--write', '--url', 'http://127.0.0.1:7077', '--api-key', KEY], home);
      expect(result.status, result.stderr).toBe(0);
      for (const path of [claude, settings]) {
        expect(readFileSync(path, 'utf8')).toContain(KEY);
        expect(mode(path).toString(8), path).toBe('600');
      }
    } finally {
      cleanup();
    }
  });

  it("keeps the user's own hook that shares a group with an older Engram hook", () => {
    const { dir: home, cleanup } = tempDir();
    try {
      mkdirSync(join(home, '.claude'));
      const notify = { type: 'command', command: '/usr/local/bin/notify-done.sh' };
      writeFileSync(
        join(home, '.claude', 'settings.json'),
        JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: 'command', command: 'engram hooks stop --scope acme/projects/old' }, notify] }] },
        }),
      );
      for (let i = 0; i < 2; i++) expect(setup(['--user', '--write'], home).status).toBe(0);
      const stop = readJson(join(home, '.claude', 'settings.json')).hooks.Stop as Json[];
      expect(stop).toHaveLength(2);
      expect(stop[0]).toEqual({ hooks: [notify] });
      expect(stop[1]?.hooks[0].command).toMatch(/^engram hooks stop --scope-template /);
    } finally {
      cleanup();
    }
  });

  it('writes the MCP server with the key into ~/.claude.json and the hooks into ~/.claude/settings.json, keeping the rest', () => {
    const { dir: home, cleanup } = tempDir();
    try {
      writeFileSync(
        join(home, '.claude.json'),
        JSON.stringify({ numStartups: 7, projects: { '/p': { allowedTools: [] } }, mcpServers: { other: { command: 'x' } } }),
      );
      for (let i = 0; i < 2; i++) {
        const result = setup(['--user', '--write', '--api-key', KEY], home);
        expect(result.status, result.stderr).toBe(0);
      }
      const claude = readJson(join(home, '.claude.json'));
      expect(claude.numStartups).toBe(7);
      expect(claude.projects).toEqual({ '/p': { allowedTools: [] } });
      expect(claude.mcpServers.other).toEqual({ command: 'x' });
      expect(claude.mcpServers.engram).toEqual({
        type: 'stdio',
        command: 'engram',
        args: ['mcp', '--scope-template', '{tenant}/projects/{repo}', '--tenant', 'alice', '--user-scope', 'alice/users/alice'],
        env: { ENGRAM_API_KEY: KEY },
      });
      const settings = readJson(join(home, '.claude', 'settings.json'));
      expect(Object.keys(settings.hooks)).toHaveLength(5);
      expect(settings.hooks.UserPromptSubmit).toHaveLength(1);
      expect(JSON.stringify(settings)).not.toContain(KEY);
    } finally {
      cleanup();
    }
  });
});

describe.skipIf(!binBuilt)('engram mcp with the scope template', () => {
  it('serves the scope of the project it is started in, and the user scope', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const project = join(dir, 'web-app');
      mkdirSync(join(project, '.git'), { recursive: true });
      mkdirSync(join(project, 'src'));
      const db = join(dir, 'engram.db');
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          BIN,
          'mcp',
          '--db',
          db,
          '--embedder',
          'hash',
          '--scope-template',
          '{tenant}/projects/{repo}',
          '--tenant',
          'acme',
          '--user-scope',
          '{tenant}/users/alice',
        ],
        cwd: join(project, 'src'),
        env: { ...(process.env as Record<string, string>), ENGRAM_SCOPES: '' },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'setup-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const written = (await client.callTool({
          name: 'memory_remember',
          arguments: { content: 'We deploy with Fly.io.', layer: 'semantic' },
        })) as { structuredContent?: { scope: string } };
        expect(written.structuredContent?.scope).toBe('acme/projects/web-app');
        const mine = (await client.callTool({
          name: 'memory_remember',
          arguments: { content: 'Alice prefers short answers.', layer: 'semantic', scope: 'acme/users/alice' },
        })) as { structuredContent?: { scope: string } };
        expect(mine.structuredContent?.scope).toBe('acme/users/alice');
        const other = (await client.callTool({ name: 'memory_remember', arguments: { content: 'x', scope: 'acme/projects/other' } })) as {
          isError?: boolean;
        };
        expect(other.isError).toBe(true);
      } finally {
        await client.close();
      }
    } finally {
      cleanup();
    }
  });
});
