/**
 * `/v1/memories`: remember (one or a batch), get, update, forget, restore, unsupersede, history.
 */
import { z } from 'zod';
import { EngramError } from '../../../core/errors.js';
import { parseInput, rememberInputSchema, updateInputSchema } from '../../../core/schemas.js';
import {
  memoryViewSchema,
  rememberBatchSchema,
  rememberRequestSchema,
  rememberResultSchema,
  updateRequestDocSchema,
  writeScopeSchema,
} from '../request-schemas.js';
import { memoryHistorySchema } from '../response-schemas.js';
import type { RouteSpec } from '../route.js';
import { isObject, readScopesFromQuery, SCOPE_PARAM, SCOPES_PARAM, writeScopeFrom } from './params.js';

const TAG = 'memories';

const remember: RouteSpec = {
  method: 'post',
  path: '/v1/memories',
  operationId: 'remember',
  tag: TAG,
  summary: 'Remember one memory, or a batch atomically',
  description:
    'The body is one memory object or an array of them (at most 1000). A batch is validated whole before anything is written: one invalid item rejects the request and writes nothing. Returns what happened to each: created, merged, superseded or unchanged.',
  body: rememberRequestSchema,
  response: z.union([rememberResultSchema, z.array(rememberResultSchema)]).meta({ id: 'RememberResponse' }),
  responseDescription: 'One result per memory (an object for one memory, an array for a batch)',
  async handle({ engram, body, authorize }) {
    if (Array.isArray(body)) {
      const inputs = parseInput(rememberBatchSchema, body, 'memories');
      authorize(inputs.flatMap(writtenScopes));
      return engram.remember(inputs);
    }
    const input = parseInput(rememberInputSchema, body, 'memory');
    authorize(writtenScopes(input));
    return engram.remember(input);
  },
};

/** The scopes a remember input writes: its scope, and the user scope a captured answer's fact goes to. */
function writtenScopes(input: { scope: string; userScope?: string | undefined }): string[] {
  return input.userScope !== undefined ? [input.scope, input.userScope] : [input.scope];
}

const get: RouteSpec = {
  method: 'get',
  path: '/v1/memories/:id',
  operationId: 'getMemory',
  tag: TAG,
  summary: 'One memory by id (any status), if it lives in one of the scopes',
  query: [SCOPES_PARAM],
  response: memoryViewSchema,
  responseDescription: 'The memory',
  notFound: 'No memory with this id in the scopes named (NOT_FOUND)',
  async handle({ engram, params, query, authorize }) {
    const scopes = readScopesFromQuery(query);
    authorize(scopes);
    return engram.get(params.id as string, { scopes });
  },
};

const update: RouteSpec = {
  method: 'patch',
  path: '/v1/memories/:id',
  operationId: 'updateMemory',
  tag: TAG,
  summary: 'Change fields of a memory in place (a content change re-embeds it and keeps the old wording in history)',
  body: updateRequestDocSchema,
  query: [SCOPE_PARAM],
  response: memoryViewSchema,
  responseDescription: 'The updated memory',
  notFound: 'No memory with this id in the scope (NOT_FOUND)',
  conflict: 'The memory was expired for good (a tombstone without content): it cannot be edited (CONFLICT)',
  async handle({ engram, params, query, body, authorize }) {
    if (!isObject(body))
      throw new EngramError(
        'INVALID_INPUT',
        'The body must be a JSON object with the fields to change, e.g. {"scope": "acme/shared", "importance": 0.9}.',
      );
    const scope = writeScopeFrom(query, body);
    authorize([scope]);
    const { scope: _scope, ...patch } = body;
    const changes = parseInput(updateInputSchema, patch, 'update');
    return engram.update(params.id as string, changes, { scope });
  },
};

const byIdWrite = (options: {
  method: 'delete' | 'post';
  path: string;
  operationId: string;
  summary: string;
  run: 'forget' | 'restore' | 'unsupersede';
  conflict: string;
}): RouteSpec => ({
  method: options.method,
  path: options.path,
  operationId: options.operationId,
  tag: TAG,
  summary: options.summary,
  body: writeScopeSchema,
  bodyOptional: true,
  query: [SCOPE_PARAM],
  response: memoryViewSchema,
  responseDescription: 'The memory after the change',
  notFound: 'No memory with this id in the scope (NOT_FOUND)',
  conflict: options.conflict,
  async handle({ engram, params, query, body, authorize }) {
    if (body !== undefined) parseInput(writeScopeSchema.partial(), body, 'body');
    const scope = writeScopeFrom(query, body);
    authorize([scope]);
    return engram[options.run](params.id as string, { scope });
  },
});

const history: RouteSpec = {
  method: 'get',
  path: '/v1/memories/:id/history',
  operationId: 'memoryHistory',
  tag: TAG,
  summary: 'The chain of versions of a claim, oldest first, with the SUPERSEDES edges between them',
  query: [SCOPES_PARAM],
  response: memoryHistorySchema,
  responseDescription: 'Versions and edges',
  notFound: 'No memory with this id in the scopes named (NOT_FOUND)',
  async handle({ engram, params, query, authorize }) {
    const scopes = readScopesFromQuery(query);
    authorize(scopes);
    return engram.history(params.id as string, { scopes });
  },
};

/** The routes of `/v1/memories`. */
export const memoryRoutes: readonly RouteSpec[] = [
  remember,
  get,
  update,
  byIdWrite({
    method: 'delete',
    path: '/v1/memories/:id',
    operationId: 'forgetMemory',
    summary: 'Forget a memory (soft delete: status "deleted"; restore brings it back)',
    run: 'forget',
    conflict: 'The memory was expired for good (a tombstone without content): it cannot be forgotten (CONFLICT)',
  }),
  byIdWrite({
    method: 'post',
    path: '/v1/memories/:id/restore',
    operationId: 'restoreMemory',
    summary: 'Restore a forgotten or decayed memory (sticks: decay will not re-apply it)',
    run: 'restore',
    conflict:
      'The memory was superseded, not forgotten: unsupersede it instead; or it was expired for good (a tombstone without content): there is nothing to restore (CONFLICT)',
  }),
  byIdWrite({
    method: 'post',
    path: '/v1/memories/:id/unsupersede',
    operationId: 'unsupersedeMemory',
    summary: 'Undo a wrong supersession (the same correction will not supersede it again)',
    run: 'unsupersede',
    conflict: 'The memory is not superseded: there is nothing to undo (CONFLICT)',
  }),
  history,
];
