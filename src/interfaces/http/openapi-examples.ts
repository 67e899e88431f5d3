/**
 * Request and response examples of the OpenAPI document, by operationId. Each request example is a
 * valid request (test/interfaces/openapi-document.test.ts parses it with the route's schema, and the
 * fuzzing suite sends it), and each response example matches the route's response schema.
 */

const scope = 'acme/users/alice';
const id = '01JBQZ8N5W3M6Y0D2R7K4T9XVA';
const at = '2024-05-01T12:00:00.000Z';

const memory = {
  id,
  scope,
  layer: 'semantic',
  content: 'Alice prefers concise answers with code first.',
  summary: null,
  tags: ['preference'],
  entities: ['Alice'],
  importance: 0.8,
  salience: 0.5,
  surprise: 0,
  emotion: null,
  pinned: false,
  mentionCount: 1,
  accessCount: 0,
  lastAccessedAt: null,
  confidence: 1,
  status: 'active',
  provenance: { kind: 'user_stated', sources: [], derivedFrom: [] },
  validFrom: at,
  validTo: null,
  occurredAt: null,
  recordedAt: at,
  invalidatedAt: null,
  updatedAt: at,
};

const edge = {
  id: '01JBQZ9A0C1D2E3F4G5H6J7K8M',
  scope,
  from: id,
  type: 'RELATED_TO',
  to: '01JBQZ8P7X4N7Z1E3S8M5V0YWB',
  weight: 0.7,
  validFrom: at,
  validTo: null,
  recordedAt: at,
  invalidatedAt: null,
  metadata: {},
};

const report = {
  id: '01JBR0A1B2C3D4E5F6G7H8J9KM',
  scope,
  trigger: 'on-demand',
  startedAt: at,
  finishedAt: '2024-05-01T12:00:01.250Z',
  resumed: false,
  phases: [
    {
      name: 'dedup',
      examined: 12,
      created: 0,
      updated: 1,
      durationMs: 40,
      note: 'merged 1 near duplicate',
      merged: ['01JBQZ8P7X4N7Z1E3S8M5V0YWB'],
    },
  ],
};

const prediction = {
  action: 'grasp',
  outcome: 'success',
  successProbability: 0.875,
  confidence: 0.7,
  supportingEpisodeIds: [id],
  support: 8,
};

/** An example request body and 200 response per operation (either may be absent). */
export const OPERATION_EXAMPLES: Readonly<Record<string, { request?: unknown; response?: unknown }>> = {
  remember: {
    request: { scope, content: 'Alice prefers concise answers with code first.', layer: 'semantic', tags: ['preference'], importance: 0.8 },
    response: { id, action: 'created' },
  },
  listMemories: { response: { items: [memory], nextCursor: null } },
  getMemory: { response: memory },
  updateMemory: {
    request: { scope, importance: 0.9, tags: ['preference', 'style'] },
    response: { ...memory, importance: 0.9, tags: ['preference', 'style'] },
  },
  forgetMemory: { request: { scope }, response: { ...memory, status: 'deleted' } },
  restoreMemory: { request: { scope }, response: memory },
  unsupersedeMemory: { request: { scope }, response: memory },
  memoryHistory: { response: { versions: [memory], edges: [] } },
  listScopes: {
    response: { scopes: [{ scope, total: 42, byLayer: { episodic: 30, semantic: 12 }, byStatus: { active: 40, superseded: 2 } }] },
  },
  purge: {
    request: { scope, ids: [id], confirm: true },
    response: {
      purged: 1,
      removed: { records: 1, chunks: 0, edges: 0, refs: 0, statistics: 0, history: 0, indexEntries: 2, states: 0 },
      restored: [],
      auditId: '01JBR0C3D4E5F6G7H8J9KMNPQR',
    },
  },
  recall: {
    request: { query: 'How does Alice like her answers?', scopes: [scope, 'acme/shared'], k: 5 },
    response: {
      hits: [
        {
          ...memory,
          score: 0.62,
          relevance: 0.81,
          why: {
            channels: { lexical: { rank: 1, score: 3.2 }, semantic: { rank: 1, score: 0.78 } },
            fused: 0.81,
            relevance: 0.81,
            recency: 1,
            importance: 0.8,
            activation: 0.65,
            neighbourhood: 0,
          },
        },
      ],
    },
  },
  statsGet: {
    response: {
      scopes: [scope],
      embedder: 'bge-small-en-v1.5',
      total: 42,
      byLayer: { episodic: 30, semantic: 12 },
      concepts: 3,
      byStatus: { active: 40, superseded: 2 },
      edges: 5,
    },
  },
  stats: {
    request: { scopes: [scope] },
    response: {
      scopes: [scope],
      embedder: 'bge-small-en-v1.5',
      total: 42,
      byLayer: { episodic: 30, semantic: 12 },
      concepts: 3,
      byStatus: { active: 40, superseded: 2 },
      edges: 5,
    },
  },
  context: {
    request: { scopes: [scope, 'acme/shared'], message: 'Can you refactor this function?', maxTokens: 800 },
    response: {
      scopes: [scope, 'acme/shared'],
      message: 'Can you refactor this function?',
      budgetMs: 50,
      elapsedMs: 7,
      maxTokens: 800,
      tokens: 31,
      parts: {
        rules: {
          level: 'full',
          items: [{ id: '01JBQZ7R2S3T4V5W6X7Y8Z9A0B', scope: 'acme/shared', content: 'Answer in English.', priority: 10 }],
        },
        profile: { level: 'full', items: [{ id, scope, content: memory.content, confidence: 1, importance: 0.8 }] },
        knowledge: { level: 'full', items: [] },
        concepts: { level: 'skipped', items: [] },
        predictions: { level: 'skipped', items: [] },
        episodes: { level: 'full', items: [] },
        cautions: { level: 'full', items: [] },
        mood: { level: 'full', items: [] },
      },
      trimmed: {},
      markdown: '## Rules\n- Answer in English.\n\n## About the user\n- Alice prefers concise answers with code first.\n',
    },
  },
  predict: {
    request: { scopes: ['acme/robot'], episode: { perception: { objects: ['coffee_mug'] }, context: { goal: 'grasp_mug' } } },
    response: {
      predictions: [prediction],
      matched: { tokens: ['coffee', 'mug', 'grasp'], concepts: [{ id: '01JBQZ6C1D2E3F4G5H6J7K8M9N', name: 'mug' }] },
      considered: 8,
    },
  },
  relate: {
    request: { scope, from: edge.from, type: 'RELATED_TO', to: edge.to, weight: 0.7 },
    response: { action: 'created', edge, symmetric: true },
  },
  relationTypes: {
    response: {
      types: [
        {
          name: 'IS_A',
          symmetric: false,
          builtIn: true,
          proposedBy: null,
          description: 'a kind of: coffee_mug IS_A container',
          registeredAt: 0,
          tenant: null,
        },
      ],
    },
  },
  registerRelationType: {
    request: { scope, name: 'PREFERS', symmetric: false, description: 'a person to what they prefer' },
    response: {
      name: 'PREFERS',
      symmetric: false,
      builtIn: false,
      proposedBy: 'key:01JBQZ5K',
      description: 'a person to what they prefer',
      registeredAt: 1714564800000,
      tenant: 'acme',
    },
  },
  memoryEdges: { response: { edges: [{ direction: 'both', type: 'RELATED_TO', other: edge.to, weight: 0.7, edge }] } },
  activate: {
    request: { id, scopes: [scope], hops: 2 },
    response: {
      seeds: [id],
      steps: [{ hop: 1, activated: [{ id: edge.to, activation: 0.42 }] }],
      ranked: [
        {
          id: edge.to,
          layer: 'semantic',
          activation: 0.42,
          hops: 1,
          path: [{ from: id, to: edge.to, via: 'edge', type: 'RELATED_TO', edgeId: edge.id }],
        },
      ],
      layers: { semantic: [{ id: edge.to, layer: 'semantic', activation: 0.42, hops: 1 }] },
    },
  },
  overview: {
    response: {
      totals: { total: 42, byLayer: { episodic: 30, semantic: 12 }, byStatus: { active: 40, superseded: 2 } },
      growth: [{ day: '2024-05-01', byLayer: { episodic: 5, semantic: 2 }, total: 7 }],
      decayCandidates: [
        {
          id,
          scope,
          layer: 'episodic',
          content: 'Opened the settings page.',
          salience: 0.2,
          importance: 0.3,
          accessCount: 0,
          accessedAt: null,
          recordedAt: at,
          dueAt: '2024-05-08T12:00:00.000Z',
        },
      ],
      pendingJobs: { total: 0, byKind: {}, failed: 0 },
      lastRun: { id: report.id, scope, finishedAt: report.finishedAt },
    },
  },
  graph: {
    response: {
      nodes: [
        { id: '01JBQZ6C1D2E3F4G5H6J7K8M9N', scope, label: 'mug', layer: 'semantic', kind: 'concept', salience: 0.8 },
        { id, scope, label: 'Grasped the mug.', layer: 'episodic', kind: 'record', salience: 0.5 },
      ],
      edges: [{ id: 'ref:1', from: id, to: '01JBQZ6C1D2E3F4G5H6J7K8M9N', type: 'REF', weight: 1 }],
      truncated: false,
    },
  },
  memoryVersions: {
    response: {
      chain: [
        {
          id: edge.to,
          content: 'The deploy target is staging.',
          status: 'superseded',
          validFrom: at,
          validTo: '2024-06-01T00:00:00.000Z',
          recordedAt: at,
          supersededAt: '2024-06-01T00:00:00.000Z',
          supersedes: [],
          supersededBy: [id],
        },
        {
          id,
          content: 'The deploy target moved to production.',
          status: 'active',
          validFrom: '2024-06-01T00:00:00.000Z',
          validTo: null,
          recordedAt: '2024-06-01T00:00:00.000Z',
          supersededAt: null,
          supersedes: [edge.to],
          supersededBy: [],
        },
      ],
    },
  },
  consolidate: { request: { scope }, response: report },
  endSession: {
    request: { scope, sessionId: 'session-2024-05-01' },
    response: { ...report, trigger: 'session-end', sessionId: 'session-2024-05-01' },
  },
  listConsolidationRuns: { response: { items: [report], nextCursor: null } },
  getConsolidationRun: { response: report },
};

/** An example body per error status. */
export const ERROR_EXAMPLES: Readonly<Record<string, { code: string; message: string; details?: Record<string, unknown> }>> = {
  '400': {
    code: 'INVALID_INPUT',
    message: 'Invalid input: scopes: name the scopes this read may see, e.g. ["acme/users/alice"].',
    details: { field: 'scopes' },
  },
  '401': {
    code: 'UNAUTHORIZED',
    message:
      'This server requires an API key: send "Authorization: Bearer <key>" (create one with "engram keys create --tenant <tenant>").',
  },
  '403': { code: 'SCOPE_DENIED', message: 'This API key belongs to tenant "acme" and may not name scope "globex/shared".' },
  '404': { code: 'NOT_FOUND', message: `No memory ${id} in the scopes this request may see.` },
  '409': { code: 'CONFLICT', message: `Memory ${id} was superseded, not forgotten: use unsupersede to reinstate it.` },
  '413': {
    code: 'PAYLOAD_TOO_LARGE',
    message: "The request body is larger than the server's limit of 1048576 bytes: split it into smaller requests.",
  },
  '500': {
    code: 'INTERNAL',
    message:
      'Internal error (reference k3j9x2ab): the server log has the details. This is a bug or an outage, not a problem with your request.',
  },
  '503': { code: 'BUSY', message: 'The store is busy (another writer holds the lock): nothing was changed; retry after 1 s.' },
};
