/**
 * The phase names are a contract on every interface: HTTP `POST /v1/consolidate` and its OpenAPI
 * enum, and MCP `memory_consolidate` take the dream phases and report their counts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PHASES } from '../../src/consolidation/index.js';
import { loopbackServers } from '../helpers/http-app.js';
import { callOk, inMemoryClient } from '../helpers/mcp.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/ops';
const DREAM = ['recombine', 'insight', 'affect'] as const;
const { server } = loopbackServers();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('the dream phases through the interfaces', () => {
  it('HTTP runs them by name, reports bridges/insights/cautions, and the OpenAPI enum lists all eleven phases in order', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    await t.engram.remember({
      scope: SCOPE,
      content: 'Deploy of checkout failed',
      layer: 'episodic',
      action: { tool: 'deploy' },
      outcome: { success: false },
    });
    const call = await server(t.engram, { auth: 'open' });
    const { status, body } = await call('/v1/consolidate', { method: 'POST', body: { scope: SCOPE, phases: [...DREAM].reverse() } });
    expect(status).toBe(200);
    expect(body.phases.map((p: { name: string }) => p.name)).toEqual([...DREAM]);
    expect(body).toMatchObject({ bridges: 0, insights: 0, cautions: 0 });
    expect(body.phases[0]).toMatchObject({ name: 'recombine', bridges: 0 });
    expect(body.phases[1].note).toMatch(/^examined nothing: no recombined groups to look at/);
    const unknown = await call('/v1/consolidate', { method: 'POST', body: { scope: SCOPE, phases: ['dream'] } });
    expect(unknown.status).toBe(400);
    const doc = (await call('/openapi.json')).body;
    const schema = doc.paths['/v1/consolidate'].post.requestBody.content['application/json'].schema;
    const phases =
      schema.properties?.phases ??
      doc.components?.schemas?.[
        String(schema.$ref ?? '')
          .split('/')
          .pop() ?? ''
      ]?.properties?.phases;
    expect(phases.items.enum).toEqual([...PHASES]);
    expect([...PHASES]).toEqual([
      'dedup',
      'supersede',
      'extract',
      'ground',
      'promote',
      'recombine',
      'insight',
      'reflect',
      'affect',
      'decay',
      'compress',
    ]);
  });

  it('MCP memory_consolidate takes the new phase names', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    const { client, close } = await inMemoryClient(t.engram, [SCOPE]);
    cleanups.push(close);
    const report = await callOk<{ phases: { name: string }[]; cautions: number }>(client, 'memory_consolidate', {
      scope: SCOPE,
      phases: ['affect', 'recombine'],
    });
    expect(report.phases.map((p) => p.name)).toEqual(['recombine', 'affect']);
    expect(report.cautions).toBe(0);
  });
});
