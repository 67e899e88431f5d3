/**
 * Names made into scope segments: a repository for the hooks' `{repo}`, a user id or a folder for the
 * importers. Distinct names must never share a segment, or one scope would hold two people's or two
 * projects' memories.
 */
import { sha256Hex } from './sha256.js';

/** Longest segment made from a name (keeps a scope far below its 512-character limit). */
const MAX_SEGMENT = 100;
/** Hex digits of the digest that keeps apart names whose readable parts are the same, by default. */
const DIGEST_LENGTH = 8;

/** Options of {@link scopeSegment}. */
export interface ScopeSegmentOptions {
  /**
   * Hex digits of the SHA-256 suffix (default 8). More where many names end up with the same readable
   * part (user ids in scripts without Latin letters all read `default`), so digests do not collide.
   */
  digestLength?: number;
}

/**
 * A valid scope segment made from any name, distinct for distinct names. A name that is already a
 * clean segment (only `[A-Za-z0-9_.-]`, not starting or ending with `.` or `-`, at most 100
 * characters) is kept as it is. Any other name keeps a readable part (accents dropped, other
 * characters outside `[A-Za-z0-9_.-]` become `-`, leading `.`/`-` and trailing `-` dropped, at most
 * 100 characters in all; `default` when nothing is left) followed by `-` and hex digits of the
 * SHA-256 of the NFC-normalised name, so `проект` and `магазин`, `My Shop` and `My-Shop`, or `Été`
 * spelled composed and decomposed (as macOS writes it) get two segments, two segments and one.
 *
 * @example
 * ```ts
 * scopeSegment('shop'); // 'shop'
 * scopeSegment('My Repo (fork)'); // 'My-Repo-fork-' + 8 hex digits
 * scopeSegment('проект', { digestLength: 16 }); // 'default-' + 16 hex digits
 * ```
 */
export function scopeSegment(name: string, options: ScopeSegmentOptions = {}): string {
  const digestLength = options.digestLength ?? DIGEST_LENGTH;
  const readable = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off their letters: café → cafe
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/-+$/, '');
  const clean = readable.replace(/[.-]+$/, '');
  if (clean === name && name.length > 0 && name.length <= MAX_SEGMENT) return name;
  // the readable part alone would lose what made the name distinct: the digest keeps it
  const digest = sha256Hex(name.normalize('NFC')).slice(0, digestLength);
  const kept = readable.slice(0, MAX_SEGMENT - 1 - digestLength).replace(/[.-]+$/, '');
  return `${kept.length === 0 ? 'default' : kept}-${digest}`;
}
