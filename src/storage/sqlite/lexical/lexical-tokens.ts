/**
 * The two tokenisations the lexical index needs, each exactly as the FTS path computes it:
 *
 * - FTS5's `porter unicode61` terms of a row (content, tags and entities as FTS5 is given them: their
 *   `lexicalText`, see {@link indexedFields}), weighted 1, 0.5 and 0.25 by column like
 *   `bm25(memories_fts, 1.0, 0.5, 0.25)`, plus the row's token count (FTS5's document length). Text
 *   whose non-ASCII characters are all punctuation, spaces or symbols (all separators for unicode61) is
 *   tokenised here; anything else (accented letters, other scripts, marks) is handed to a temporary
 *   FTS5 table with the same tokenizer, so the terms are SQLite's own.
 * - Engram's own stems (`termCounts` of content, tags and entities), as `rankBm25` counts them.
 */
import { storedStringList } from '../../../core/readable-records.js';
import { contentTerms, lexicalText, stem, STOP_WORDS } from '../../../core/text/index.js';
import type { SqliteConnection } from '../sqlite-connection.js';

/** Column weights of FTS5's bm25 in the lexical search, and `rankBm25`'s field weights. */
export const FTS_COLUMN_WEIGHTS = [1, 0.5, 0.25] as const;
const TAG_WEIGHT = 0.5;
const ENTITY_WEIGHT = 0.25;

const NON_ASCII = /[^\x00-\x7F]/u;
/** A character unicode61 might treat as part of a token (or fold): letters, numbers, marks, anything unusual. */
const MAYBE_TOKEN_CHARACTER = /[^\x00-\x7F\p{P}\p{Z}\p{S}\p{Cc}]/u;
const ASCII_TOKEN = /[a-z0-9]+/gu;
const ASCII_WORD = /^[a-z0-9]+$/u;

const stems = new Map<string, string>();
/** `stem`, memoised (the vocabulary is small next to the number of tokens). */
export function cachedStem(token: string): string {
  let s = stems.get(token);
  if (s === undefined) {
    s = stem(token);
    if (stems.size < 500_000) stems.set(token, s);
  }
  return s;
}

/**
 * The most frequent English function words (all of them stop words) whose stems no common content word
 * shares ("us" is not here: Porter stems "use", "used", "using" to it).
 */
const FREQUENT_FUNCTION_WORDS = `a an the and or but if so as at by for from in into of on onto to with about than then
  i me my we our you your he him his she her it its they them their this that these those there here what which who
  is am are was were be been being have has had do does did will would can could should shall may might must not no
  all any some just also very too up out over after before when while because`;

/**
 * FTS terms of the most frequent stop words: never a query term of the lexical search (queries drop stop
 * words), but present in most rows, so the index leaves them out; a query that needs one uses FTS5.
 */
export const STOP_TERMS: ReadonlySet<string> = new Set(
  FREQUENT_FUNCTION_WORDS.split(/\s+/u)
    .filter((word) => word.length > 0 && STOP_WORDS.has(word))
    .map((word) => stem(word)),
);

/** The FTS5 term a query word matches, or `null` when it is not a single plain token (then FTS decides). */
export function ftsTermOf(word: string): string | null {
  if (!ASCII_WORD.test(word)) return null;
  return cachedStem(word);
}

export interface FtsTerms {
  /** term → weighted frequency (Σ column weight per occurrence), stop terms left out. */
  readonly terms: Map<string, number>;
  /** Tokens in all three columns (FTS5's document size). */
  readonly length: number;
}

/** Whether unicode61 tokenises `text` like the plain ASCII rule here. */
export function plainText(text: string): boolean {
  return !NON_ASCII.test(text) || !MAYBE_TOKEN_CHARACTER.test(text);
}

/** The three text fields of a row. */
export interface TextFields {
  readonly content: string;
  readonly tags: string;
  readonly entities: string;
}

/**
 * A row's fields as FTS5 indexes them: each field's `lexicalText` (compatibility form, CJK words
 * spaced) where it differs, as the `lexical_*` columns hold it, else the field as stored.
 */
export function indexedFields(row: TextFields): TextFields {
  return {
    content: lexicalText(row.content) ?? row.content,
    tags: lexicalText(row.tags) ?? row.tags,
    entities: lexicalText(row.entities) ?? row.entities,
  };
}

/** FTS terms of a row whose fields, as indexed ({@link indexedFields}), are all {@link plainText}. */
export function plainRowFtsTerms(row: TextFields): FtsTerms {
  const fields = indexedFields(row);
  return plainFtsTerms(fields.content, fields.tags, fields.entities);
}

/** FTS terms of already indexed fields that are all {@link plainText}. */
export function plainFtsTerms(content: string, tags: string, entities: string): FtsTerms {
  const terms = new Map<string, number>();
  let length = 0;
  const fields = [content, tags, entities];
  for (let column = 0; column < 3; column++) {
    const weight = FTS_COLUMN_WEIGHTS[column] as number;
    for (const match of (fields[column] as string).toLowerCase().matchAll(ASCII_TOKEN)) {
      length++;
      const term = cachedStem(match[0]);
      if (STOP_TERMS.has(term)) continue;
      terms.set(term, (terms.get(term) ?? 0) + weight);
    }
  }
  return { terms, length };
}

const TOKENIZER_TABLE = 'engram_lexical_tokenizer';
const COLUMN_INDEX: Record<string, number> = { content: 0, tags: 1, entities: 2 };
const prepared = new WeakSet<SqliteConnection>();

/** FTS terms of rows whose indexed fields are not plain text, by SQLite's own tokenizer (a temporary FTS5 table). */
function sqliteFtsTerms(connection: SqliteConnection, rows: readonly ({ rowid: number } & TextFields)[]): Map<number, FtsTerms> {
  const out = new Map<number, FtsTerms>();
  if (rows.length === 0) return out;
  if (!prepared.has(connection)) {
    connection.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${TOKENIZER_TABLE} USING fts5 (content, tags, entities, tokenize = 'porter unicode61');
       CREATE VIRTUAL TABLE IF NOT EXISTS temp.${TOKENIZER_TABLE}_terms USING fts5vocab (temp, '${TOKENIZER_TABLE}', 'instance');`,
    );
    prepared.add(connection);
  }
  connection.run(`DELETE FROM temp.${TOKENIZER_TABLE}`);
  for (const row of rows) {
    connection.run(
      `INSERT INTO temp.${TOKENIZER_TABLE} (rowid, content, tags, entities) VALUES (?, ?, ?, ?)`,
      row.rowid,
      row.content,
      row.tags,
      row.entities,
    );
    out.set(row.rowid, { terms: new Map(), length: 0 });
  }
  for (const { term, doc, col } of connection.all<{ term: string; doc: number; col: string }>(
    `SELECT term, doc, col FROM temp.${TOKENIZER_TABLE}_terms`,
  )) {
    const entry = out.get(doc);
    if (entry === undefined) continue;
    (entry as { length: number }).length++;
    if (STOP_TERMS.has(term)) continue;
    entry.terms.set(term, (entry.terms.get(term) ?? 0) + (FTS_COLUMN_WEIGHTS[COLUMN_INDEX[col] ?? 0] as number));
  }
  connection.run(`DELETE FROM temp.${TOKENIZER_TABLE}`);
  return out;
}

/**
 * FTS terms of those of `rows` whose indexed fields are not plain text (the rest are tokenised here, by
 * `plainRowFtsTerms`).
 */
export function unplainFtsTerms(connection: SqliteConnection, rows: readonly ({ rowid: number } & TextFields)[]): Map<number, FtsTerms> {
  const unplain: ({ rowid: number } & TextFields)[] = [];
  for (const row of rows) {
    const fields = indexedFields(row);
    if (!(plainText(fields.content) && plainText(fields.tags) && plainText(fields.entities))) unplain.push({ rowid: row.rowid, ...fields });
  }
  return sqliteFtsTerms(connection, unplain);
}

/** Engram's stems of a row with `rankBm25`'s field weights: stem → content + 0.5 tags + 0.25 entities. */
export function ownTerms(content: string, tags: string, entities: string): { terms: Map<string, number>; length: number } {
  const contentTokens = contentTerms(content);
  const counts = countStems(contentTokens);
  // (c + 0.5·0) + 0.25·0 is c exactly: without tags and entities the content counts are the terms
  if (tags === '[]' && entities === '[]') return { terms: counts, length: contentTokens.length };
  const tagCounts = countStems(contentTerms(storedStringList(tags).join(' ')));
  const entityCounts = countStems(contentTerms(storedStringList(entities).join(' ')));
  const terms = new Map<string, number>();
  for (const s of new Set([...counts.keys(), ...tagCounts.keys(), ...entityCounts.keys()])) {
    terms.set(s, (counts.get(s) ?? 0) + TAG_WEIGHT * (tagCounts.get(s) ?? 0) + ENTITY_WEIGHT * (entityCounts.get(s) ?? 0));
  }
  return { terms, length: contentTokens.length };
}

function countStems(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) {
    const s = cachedStem(token);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return counts;
}
