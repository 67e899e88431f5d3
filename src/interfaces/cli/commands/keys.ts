/**
 * `engram keys create --tenant T [--label L]`, `engram keys list`, `engram keys revoke ID`: API keys
 * for the HTTP API and the HTTP MCP endpoint, bound to one tenant and stored hashed in the database.
 */
import type { Command } from 'commander';
import type { ApiKeyInfo, CreatedApiKey } from '../../../core/api-keys.js';
import { ApiKeys } from '../../http/api-keys.js';
import { withCommonFlags, type CommonFlags } from '../context.js';
import { printResult } from '../output.js';
import { withEngine } from '../run.js';

interface KeyFlags extends CommonFlags {
  tenant?: string;
  label?: string;
}

/** Registers `keys create | list | revoke`. */
export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description('API keys for engram serve (each bound to one tenant; stored hashed)');

  withCommonFlags(keys.command('create').description('create a key for a tenant; the key is printed once and cannot be shown again'))
    .requiredOption('--tenant <tenant>', 'the tenant (first scope segment) the key may read and write, e.g. acme')
    .option('--label <text>', 'a note to recognise the key by in "keys list"')
    .action(async (flags: KeyFlags) => {
      await withEngine(
        flags,
        async (engram) => {
          const created = await new ApiKeys(engram.store).create({
            tenant: flags.tenant as string,
            ...(flags.label !== undefined ? { label: flags.label } : {}),
          });
          printResult({ json: flags.json === true }, created, (k: CreatedApiKey) =>
            [
              k.key,
              '',
              `id ${k.id}, tenant ${k.tenant}. This key is shown once: store it now.`,
              'Send it as: Authorization: Bearer <key>',
            ].join('\n'),
          );
        },
        { create: true },
      );
    });

  withCommonFlags(keys.command('list').description('list keys (ids, tenants, dates; never the keys themselves)')).action(
    async (flags: KeyFlags) => {
      await withEngine(flags, async (engram) => {
        const list = await new ApiKeys(engram.store).list();
        printResult({ json: flags.json === true }, list, (items: ApiKeyInfo[]) =>
          items.length === 0 ? '(no keys: create one with engram keys create --tenant <tenant>)' : items.map(formatKey).join('\n'),
        );
      });
    },
  );

  withCommonFlags(keys.command('revoke <id>').description('revoke a key by id; it is refused from then on')).action(
    async (id: string, flags: KeyFlags) => {
      await withEngine(flags, async (engram) => {
        const revoked = await new ApiKeys(engram.store).revoke(id);
        printResult({ json: flags.json === true }, revoked, (k: ApiKeyInfo) => `revoked ${formatKey(k)}`);
      });
    },
  );
}

function formatKey(k: ApiKeyInfo): string {
  const state = k.revokedAt === null ? 'active' : `revoked ${k.revokedAt}`;
  return `${k.id}  tenant ${k.tenant}  created ${k.createdAt}  ${state}${k.label !== null ? `  ${k.label}` : ''}`;
}
