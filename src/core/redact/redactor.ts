/**
 * The redactor: replaces every secret in a text by `[redacted:<kind>]` (pure, deterministic, the same
 * text always gives the same result), with the built-in detectors and the caller's extra patterns.
 * They read the text with its invisible characters removed, in NFKC and with secret names spelled in
 * look-alike letters folded to Latin ({@link textView}), so a zero-width space inside a token, a
 * full-width `：` after `password` or a Cyrillic `а` in `pаssword` hides nothing.
 */
import { EngramError, messages } from '../errors.js';
import { BUILT_IN_DETECTORS, type Detector } from './detectors.js';
import { originalSpan, textView, type TextView } from './text-view.js';

/** An extra pattern: whatever it matches is a secret of `kind`. */
export interface RedactionPattern {
  /** The kind shown in the placeholder: lower-case letters, digits and dashes, e.g. `internal-token`. */
  kind: string;
  /** A regular expression (source text or a RegExp); matched globally. */
  pattern: string | RegExp;
}

/** How the write path redacts secrets. */
export interface RedactionOptions {
  /** Off stores text as it comes. Default on. */
  enabled?: boolean;
  /** Patterns of your own, run after the built-in ones. */
  patterns?: readonly RedactionPattern[];
}

/** What redacting one text found. */
export interface RedactedText {
  text: string;
  /** Secrets replaced. */
  count: number;
  /** Secrets replaced, by kind. */
  kinds: Record<string, number>;
}

/** The placeholder that stands for a secret of `kind`. */
export function placeholder(kind: string): string {
  return `[redacted:${kind}]`;
}

const KIND = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Compiles the extra patterns; a bad one is INVALID_INPUT naming it. */
function compile(patterns: readonly RedactionPattern[]): Detector[] {
  return patterns.map((p, index) => {
    if (typeof p?.kind !== 'string' || !KIND.test(p.kind)) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(
          `redaction pattern #${index + 1}: kind must be lower-case letters, digits and dashes (e.g. "internal-token")`,
        ),
      );
    }
    let pattern: RegExp;
    try {
      pattern =
        typeof p.pattern === 'string'
          ? new RegExp(p.pattern, 'g')
          : new RegExp(p.pattern.source, p.pattern.flags.includes('g') ? p.pattern.flags : `${p.pattern.flags}g`);
    } catch (error) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(`redaction pattern "${p.kind}" is not a valid regular expression (${(error as Error).message})`),
        { cause: error },
      );
    }
    if (pattern.test(''))
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(`redaction pattern "${p.kind}" matches the empty text: it must match the secret itself`),
      );
    return { kind: p.kind, pattern };
  });
}

/**
 * Finds and replaces secrets. Build one per engine ({@link createRedactor}); `redact` is pure.
 *
 * @example
 * ```ts
 * createRedactor().redact('export GITHUB_TOKEN=ghp_…').text; // 'export GITHUB_TOKEN=[redacted:github-token]'
 * ```
 */
export class Redactor {
  readonly enabled: boolean;
  /** The options it was built with. */
  readonly options: Readonly<RedactionOptions>;
  readonly #detectors: readonly Detector[];

  constructor(options: RedactionOptions = {}) {
    this.enabled = options.enabled !== false;
    this.options = Object.freeze({ ...options });
    this.#detectors = Object.freeze([...BUILT_IN_DETECTORS, ...compile(options.patterns ?? [])]);
  }

  /**
   * `text` with every secret replaced by its placeholder, and what was replaced. `found`, when given,
   * collects each secret replaced (its text → its kind), so copies of it elsewhere can be found too.
   */
  redact(text: string, found?: Map<string, string>): RedactedText {
    const kinds: Record<string, number> = {};
    if (!this.enabled || text.length === 0) return { text, count: 0, kinds };
    let count = 0;
    const mark = (kind: string): string => {
      count += 1;
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      return placeholder(kind);
    };
    // the detectors read the text without invisible characters and in NFKC (full-width `：` as `:`)
    let current = text;
    let view = textView(current);
    for (const detector of this.#detectors) {
      const next = this.#apply(detector, current, view, mark, found);
      if (next !== current) [current, view] = [next, textView(next)];
    }
    return { text: current, count, kinds };
  }

  /**
   * Replaces the matches of one detector, found in `view`, in `text`: only the part a replacement
   * changes (the secret) is replaced, over its whole span in `text`, so what the detector keeps (a
   * name, a separator, quotes) stays as written. A match the detector keeps is searched again from its
   * next character, so `--from-literal=password=…` still finds the `password=` inside.
   */
  #apply(detector: Detector, text: string, view: TextView, mark: (kind: string) => string, found: Map<string, string> | undefined): string {
    const source = view.text;
    if (detector.when !== undefined && !detector.when(source)) return text;
    const pattern = detector.pattern;
    pattern.lastIndex = 0;
    let out = '';
    let done = 0;
    let changed = false;
    for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
      const matched = match[0];
      const replaced = matched.startsWith('[redacted:') ? null : this.#replacement(detector, matched, match.slice(1), mark);
      if (replaced === null) {
        pattern.lastIndex = match.index + 1;
        continue;
      }
      const { head, tail } = commonEnds(matched, replaced);
      const [from, to] = originalSpan(view, match.index + head, match.index + matched.length - tail);
      const start = Math.max(from, done);
      if (found !== undefined) {
        collectSecret(found, matched.slice(head, matched.length - tail), replaced);
        // the secret as written too (with its invisible characters), for copies made from the original
        collectSecret(found, text.slice(start, to), replaced);
      }
      out += text.slice(done, start) + replaced.slice(head, replaced.length - tail);
      done = Math.max(to, start);
      changed = true;
      pattern.lastIndex = Math.max(match.index + matched.length, match.index + 1);
    }
    return changed ? out + text.slice(done) : text;
  }

  #replacement(detector: Detector, found: string, groups: readonly (string | undefined)[], mark: (kind: string) => string): string | null {
    if (found.length === 0) return null;
    if (detector.replace === undefined) return mark(detector.kind);
    // a replacement counts only when the detector keeps it
    const pending: string[] = [];
    const replaced = detector.replace(found, groups, (kind) => (pending.push(kind), placeholder(kind)));
    if (replaced === null) return null;
    pending.forEach(mark);
    return replaced;
  }
}

/**
 * The lengths of what a match and its replacement share at each end (a name, a separator, quotes):
 * between them is the secret, and in the replacement its placeholder.
 */
function commonEnds(match: string, replaced: string): { head: number; tail: number } {
  let head = 0;
  while (head < match.length && head < replaced.length && match[head] === replaced[head]) head += 1;
  let tail = 0;
  while (
    tail < match.length - head &&
    tail < replaced.length - head &&
    match[match.length - 1 - tail] === replaced[replaced.length - 1 - tail]
  )
    tail += 1;
  return { head, tail };
}

function collectSecret(found: Map<string, string>, secret: string, replaced: string): void {
  const kind = /\[redacted:([a-z0-9-]+)\]/.exec(replaced)?.[1];
  if (kind !== undefined && secret.length > 0) found.set(secret, kind);
}

/** The redactor of `options` (on by default, with the built-in detectors). */
export function createRedactor(options: RedactionOptions = {}): Redactor {
  return new Redactor(options);
}
