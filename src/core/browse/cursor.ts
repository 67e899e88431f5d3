/**
 * Browse cursors: an opaque base64url string holding the position (sort key, id) after which the next
 * page starts, the sort it belongs to, a fingerprint of the filters and a checksum. A cursor that does
 * not decode, was edited, or belongs to another list is refused with `INVALID_INPUT` (field `cursor`).
 */
import { EngramError } from '../errors.js';
import { BROWSE_SORTS, type BrowseSort } from '../ports/store.js';

/** Where the next page starts, and for which list. */
export interface CursorPosition {
  sort: BrowseSort;
  order: 'asc' | 'desc';
  /** `listFingerprint` of the filters the cursor was made for. */
  fingerprint: string;
  key: number;
  id: string;
}

const VERSION = 1;
const MAX_CURSOR_CHARS = 2000;

/** The cursor of a position. */
export function encodeCursor(position: CursorPosition): string {
  const body = [VERSION, position.sort, position.order, position.fingerprint, position.key, position.id];
  const text = JSON.stringify([...body, fnv1a(JSON.stringify(body))]);
  return base64UrlEncode(new TextEncoder().encode(text));
}

/** The position a cursor holds, checked against the list it is used with. */
export function decodeCursor(
  cursor: string,
  expected: { sort: BrowseSort; order: 'asc' | 'desc'; fingerprint: string },
): { key: number; id: string } {
  const parsed = parse(cursor);
  if (parsed === undefined)
    throw invalid(
      'The cursor is not valid (damaged or edited): pass nextCursor exactly as a previous page returned it, or omit cursor to start from the first page.',
    );
  if (parsed.sort !== expected.sort || parsed.order !== expected.order || parsed.fingerprint !== expected.fingerprint) {
    throw invalid(
      'The cursor belongs to a list with other filters, sort or order: repeat the filters, sort and order of the page that returned it, or omit cursor to start from the first page.',
    );
  }
  return { key: parsed.key, id: parsed.id };
}

/** A short, stable hash (FNV-1a, 32 bits, hex) of a canonical JSON value: list fingerprints and cursor checksums. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The JSON value an opaque cursor holds (base64url of UTF-8 JSON, at most 2000 characters), or undefined. */
export function decodeJsonCursor(cursor: string): unknown {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64UrlDecode(cursor))) as unknown;
  } catch {
    return undefined;
  }
}

function parse(cursor: string): CursorPosition | undefined {
  const value = decodeJsonCursor(cursor);
  if (!Array.isArray(value) || value.length !== 7) return undefined;
  const [version, sort, order, fingerprint, key, id, check] = value as unknown[];
  if (check !== fnv1a(JSON.stringify(value.slice(0, 6)))) return undefined;
  if (version !== VERSION || !BROWSE_SORTS.includes(sort as BrowseSort) || (order !== 'asc' && order !== 'desc')) return undefined;
  if (typeof fingerprint !== 'string' || typeof id !== 'string' || id.length === 0 || id.length > 1000 || id.includes('\u0000'))
    return undefined;
  // time keys are whole milliseconds; importance is a finite number
  if (typeof key !== 'number' || !Number.isFinite(key) || (sort !== 'importance' && !Number.isSafeInteger(key))) return undefined;
  return { sort: sort as BrowseSort, order, fingerprint, key, id };
}

function invalid(message: string): EngramError {
  return new EngramError('INVALID_INPUT', message, { details: { field: 'cursor' } });
}

/** Bytes as base64url without padding. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function base64UrlDecode(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
