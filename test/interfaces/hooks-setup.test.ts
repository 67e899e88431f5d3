/**
 * `engram setup claude-code` as a user runs it: project mode (committed .mcp.json and
 * .claude/settings.json, the key and the database path only in .claude/settings.local.json) and user
 * mode (~/.claude.json, ~/.claude/settings.json), merged into existing files and idempotent.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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
