/**
 * The byte order mark some editors (Notepad, Excel's "UTF-8" export, PowerShell's `Out-File`) write
 * at the start of a UTF-8 file. `readFileSync(path, 'utf8')` keeps it as U+FEFF, which no JSON
 * parser accepts, so every reader of an imported file drops it first.
 */

/**
 * `text` without a leading byte order mark.
 *
 * @example
 * ```ts
 * withoutBom('\uFEFF{"content":"hi"}'); // '{"content":"hi"}'
 * ```
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
