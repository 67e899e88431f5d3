/**
 * YAML front matter of Markdown notes, the subset vaults use: `key: value` scalars (quoted or not),
 * inline lists `[a, b]`, block lists of `- item` lines, and comma-separated strings for lists.
 * Nested maps are kept as their raw text. Not a YAML parser: enough for titles, types, tags,
 * permalinks, aliases and dates, which is what the importers read.
 */

/** A front matter value: text, or a list of texts. */
export type FrontMatterValue = string | string[];

/** A note split into its front matter and its body. */
export interface SplitNote {
  frontMatter: Record<string, FrontMatterValue>;
  body: string;
}

/**
 * Splits `text` into front matter (between `---` lines at the very top) and body.
 *
 * @example
 * ```ts
 * splitFrontMatter('---\ntitle: A\ntags: [x, y]\n---\nBody').frontMatter; // { title: 'A', tags: ['x', 'y'] }
 * ```
 */
export function splitFrontMatter(text: string): SplitNote {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(normalised);
  if (match === null) return { frontMatter: {}, body: normalised };
  return { frontMatter: parseFrontMatter(match[1] as string), body: normalised.slice(match[0].length) };
}

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) {
    const inner = v.slice(1, -1);
    return v.startsWith('"') ? inner.replace(/\\"/g, '"').replace(/\\\\/g, '\\') : inner.replace(/''/g, "'");
  }
  return v.replace(/\s+#.*$/, '');
}

/** How far into a front-matter line its key's ":" may be. */
const MAX_KEY_CHARS = 200;

function parseFrontMatter(yaml: string): Record<string, FrontMatterValue> {
  const out: Record<string, FrontMatterValue> = {};
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    // a key is short: the lazy key and the spaces before ":" both take spaces, so a line of 40,000
    // spaces took the pattern 8 s when it was tried on the whole line
    const colon = line.indexOf(':');
    if (colon < 0 || colon > MAX_KEY_CHARS) continue;
    const match = /^([A-Za-z0-9_][A-Za-z0-9_ .-]*?)\s*:(?:\s+(.*))?$/.exec(line);
    if (match === null) continue;
    const key = (match[1] as string).trim();
    const rest = (match[2] ?? '').trim();
    if (rest === '' || rest === '|' || rest === '>') {
      const items: string[] = [];
      const block: string[] = [];
      while (i + 1 < lines.length && /^(\s+|-\s)/.test(lines[i + 1] as string)) {
        const next = lines[++i] as string;
        const item = /^\s*-\s+(.*)$/.exec(next);
        if (item !== null) items.push(unquote(item[1] as string));
        else block.push(next.trim());
      }
      if (items.length > 0) out[key] = items;
      else if (block.length > 0) out[key] = block.join(rest === '|' ? '\n' : ' ');
      continue;
    }
    if (rest.startsWith('[') && rest.endsWith(']')) {
      out[key] = rest
        .slice(1, -1)
        .split(',')
        .map(unquote)
        .filter((s) => s !== '');
      continue;
    }
    out[key] = unquote(rest);
  }
  return out;
}

/** A front matter value as a list: a list as it is, a string split at commas. */
export function listOf(value: FrontMatterValue | undefined): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : value.split(',');
  return list.map((s) => s.trim()).filter((s) => s !== '');
}

/** A front matter value as one text (the first of a list). */
export function textOf(value: FrontMatterValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text === undefined || text === '' ? undefined : text;
}
