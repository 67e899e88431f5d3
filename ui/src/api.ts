/** The HTTP API client: same origin, the session's key (if any) as a Bearer token. */

const KEY = 'engram.key';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, key);
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined | null>;

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(name, v);
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Calls the API; a non-2xx answer throws an ApiError with the server's message. */
export async function api<T>(
  method: string,
  path: string,
  options: { query?: Query; body?: unknown; key?: string | null } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = options.key !== undefined ? options.key : storedKey();
  if (key !== null && key !== '') headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path + queryString(options.query), {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server did not answer: is engram serve still running?');
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'HTTP_' + response.status,
      error?.message ?? `The server answered ${response.status}.`,
    );
  }
  return data as T;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A stored memory as the API returns it (layer-specific fields may follow). */
export interface Memory {
  id: string;
  scope: string;
  layer: string;
  content: string;
  summary: string | null;
  tags: string[];
  entities: string[];
  importance: number | null;
  salience?: number;
  confidence: number;
  status: string;
  pinned: boolean;
  mentionCount: number;
  accessCount: number;
  validFrom: string;
  validTo: string | null;
  occurredAt: string | null;
  recordedAt: string;
  invalidatedAt: string | null;
  updatedAt: string;
  lastAccessedAt?: string | null;
  supersededBy?: string;
  history?: Array<{ content: string; at: number | string }>;
  provenance?: { kind?: string; sources?: unknown[]; derivedFrom?: string[] };
  [field: string]: unknown;
}

export interface ChannelWhy {
  rank?: number;
  score?: number;
  coverage?: number;
}

export interface Hit extends Memory {
  score: number;
  relevance: number;
  why: { channels?: Record<string, ChannelWhy>; [k: string]: unknown };
}

export interface ScopeSummary {
  scope: string;
  total: number;
  byLayer: Record<string, number>;
  byStatus: Record<string, number>;
}

export const LAYERS = ['episodic', 'semantic', 'procedural', 'statistical'] as const;
export const STATUSES = ['active', 'superseded', 'decayed', 'expired', 'deleted'] as const;

export async function visibleScopes(): Promise<ScopeSummary[]> {
  return (await api<{ scopes: ScopeSummary[] }>('GET', '/v1/scopes')).scopes;
}

/** Splits a scope field ("a/b, c/d") into scopes. */
export function scopeList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A datetime-local value (local time) as ISO 8601, or undefined. */
export function localToIso(value: string): string | undefined {
  if (value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function formatTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}
