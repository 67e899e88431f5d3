/**
 * What an import file holds, judged by the shape of its items. A file that is not the format the
 * command names (a Claude.ai export given to `import chatgpt`) is refused before anything is written,
 * saying what it looks like, rather than read as records that each lack what the format has and are
 * all reported skipped.
 */
import { EngramError } from '../../core/errors.js';

/** A format an importer reads: what one of its items is, and the command that imports it. */
interface ItemShape {
  /** The format, as a refusal names it: `a ChatGPT export`. */
  format: string;
  /** One item, as a refusal names it: `a conversation with a message mapping`. */
  item: string;
  command: string;
  is(value: unknown): boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The formats an import file may be in, by the importer (or command) that reads it. */
const SHAPES = {
  chatgpt: {
    format: 'a ChatGPT export (conversations.json)',
    item: 'a conversation with a message "mapping"',
    command: 'engram import chatgpt',
    is: (value) => isObject(value) && isObject(value.mapping),
  },
  'claude-ai': {
    format: 'a Claude.ai export (conversations.json)',
    item: 'a conversation with "chat_messages"',
    command: 'engram import claude-ai',
    is: (value) => isObject(value) && Array.isArray(value.chat_messages),
  },
  mem0: {
    format: 'a mem0 export (memories)',
    item: 'a memory with a "memory" text',
    command: 'engram import mem0',
    is: (value) => isObject(value) && (typeof value.memory === 'string' || typeof value.data === 'string'),
  },
  'mcp-memory': {
    format: 'an MCP memory graph (memory.jsonl)',
    item: 'an entity or relation line ({"type":"entity",…} or {"type":"relation",…})',
    command: 'engram import mcp-memory',
    is: (value) => isObject(value) && (value.type === 'entity' || value.type === 'relation'),
  },
} satisfies Record<string, ItemShape>;

/** A format {@link requireShape} knows. */
export type FileFormat = keyof typeof SHAPES;

/** The format's name as a refusal writes it (`a ChatGPT export (conversations.json)`). */
export function formatName(format: FileFormat): string {
  return SHAPES[format].format;
}

/**
 * Throws INVALID_INPUT, naming `format` and what the file looks like instead, when none of `items`
 * has the shape of the format's items (a file without items is not refused: there is nothing to import).
 *
 * @example
 * ```ts
 * requireShape([{ uuid: 'c1', chat_messages: [] }], 'chatgpt');
 * // throws INVALID_INPUT: The file is not a ChatGPT export (conversations.json): none of its 1 item is a
 * // conversation with a message "mapping"; it looks like a Claude.ai export (conversations.json): import
 * // it with engram import claude-ai. Nothing was written.
 * ```
 */
export function requireShape(items: readonly unknown[], format: FileFormat): void {
  const shape: ItemShape = SHAPES[format];
  if (items.length === 0 || items.some((item) => shape.is(item))) return;
  const count = `${items.length} item${items.length === 1 ? '' : 's'}`;
  throw new EngramError(
    'INVALID_INPUT',
    `The file is not ${shape.format}: none of its ${count} is ${shape.item}; ${looksLike(items, format)}. Nothing was written.`,
    { details: { format } },
  );
}

/**
 * The values of a JSON Lines file, for {@link requireShape}: each line's (undefined where a line is not
 * JSON), or, when the whole text is one JSON document, its elements (an array) or itself.
 */
export function linesOf(text: string): unknown[] {
  try {
    const whole: unknown = JSON.parse(text);
    return Array.isArray(whole) ? whole : [whole];
  } catch {
    // JSON Lines (or not JSON at all): one value a line
  }
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return undefined;
      }
    });
}

/** "it looks like <another format>: import it with <its command>", else what its first item is. */
function looksLike(items: readonly unknown[], except: FileFormat): string {
  for (const [name, shape] of Object.entries(SHAPES) as [FileFormat, ItemShape][]) {
    if (name !== except && items.some((item) => shape.is(item))) return `it looks like ${shape.format}: import it with ${shape.command}`;
  }
  return `it holds ${kindOf(items[0])}`;
}

/** What a value is, in words (object keys named, at most five, each cut to 30 characters). */
function kindOf(value: unknown): string {
  if (value === undefined) return 'lines that are not JSON';
  if (Array.isArray(value)) return 'arrays';
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return 'empty objects';
    const shown = keys.slice(0, 5).map((key) => JSON.stringify(key.slice(0, 30)));
    return `objects with the keys ${shown.join(', ')}${keys.length > 5 ? ', …' : ''}`;
  }
  return value === null ? 'nulls' : `${typeof value}s`;
}
