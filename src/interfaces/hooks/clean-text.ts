/**
 * Text the hooks did not write (a transcript's messages, a prompt) made acceptable to the engine,
 * which refuses NUL characters and unpaired UTF-16 surrogates: a hook must never fail, on every call
 * for the rest of a session, because of what a pasted binary or a broken emoji put in its input.
 */

/**
 * An unpaired high surrogate (no low one after it) or an unpaired low surrogate (no high one before it):
 * the same pattern as core's `parseInput` refuses, written here so the hooks' start-up path does not
 * load zod with it.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` without NUL characters, each unpaired surrogate replaced by U+FFFD (the replacement
 * character).
 *
 * @example
 * ```ts
 * cleanText('a\u0000b \ud83d!'); // 'ab \ufffd!'
 * ```
 */
export function cleanText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\ufffd');
}

/** Whether cutting `text` at `at` would split a surrogate pair (the unit before the cut is a high surrogate). */
export function splitsSurrogatePair(text: string, at: number): boolean {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff;
}
