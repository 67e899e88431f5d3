/**
 * Markdown vaults. Each note becomes a named semantic memory (`name` = title, `category` = its type,
 * content = its prose) and `[[links]]` become edges between notes.
 * - **basic-memory**: front matter `title`, `type`, `permalink`, `tags`; observation lines
 *   `- [category] text #tag (context)` become facts (category, tags) with a MENTIONS edge to their
 *   note; relation lines `- relation_type [[Target]]` become edges of that type (registered for the
 *   tenant as proposed when new); other `[[links]]` in the prose become LINKS_TO edges.
 * - **obsidian**: YAML front matter (`title`, `aliases`, `tags`, `created`/`date`), inline `#tags`,
 *   `[[Target|alias]]` and `[[Target#heading]]` links as LINKS_TO edges, and front matter properties
 *   whose values are links (`related: "[[X]]"`) as edges named after the property.
 * Folders become tags (`folder:projects/web`) or, with `folders: 'scopes'`, scopes under `--scope`
 * (a link between notes of different folders is then reported: edges stay within a scope).
 * A note's time is its front matter `created` (or `date`), else the file's modification time, else
 * `--default-time`; without any it is skipped.
 */
import type { RememberInput } from '../../core/schemas.js';
import { emptyUnit, type ImportContext, type ImportUnit, type PlannedRelation } from './import-plan.js';
import { listOf, splitFrontMatter, textOf, type FrontMatterValue } from './front-matter.js';
import { resolveScope, valueSegment } from './scope-template.js';
import { fromIso, NO_TIME_REASON } from './source-time.js';
import { stableHash } from './stable-hash.js';
import { cutText } from './cut-text.js';

export const VAULT_STYLES = ['obsidian', 'basic-memory'] as const;
export type VaultStyle = (typeof VAULT_STYLES)[number];

/** One Markdown file of the vault, read by the caller. */
export interface VaultFile {
  /** Path relative to the vault root, `/`-separated, ending in `.md`. */
  path: string;
  text: string;
  /** The file's modification time (epoch ms), when known. */
  modifiedAt?: number;
}

/** Options of a vault import. */
export interface VaultOptions {
  style: VaultStyle;
  /** Folders as tags (default) or as scopes under the import's scope. */
  folders?: 'tags' | 'scopes';
}

export const LINK_EDGE = 'links_to';

const LINK = /(!?)\[\[([^\]|#\n]*)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;
const OBSERVATION = /^\s*[-*]\s+\[([^\]\s][^\]]*)\]\s+(.+)$/;
const RELATION_PATTERN = /^\s*[-*]\s+([A-Za-z][\w -]*?)\s+\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]\s*(?:\((.*)\))?\s*$/;
/**
 * A relation line ("- works_at [[Acme]]"): its name and the spaces before "[[" are short, and the pattern
 * is only tried where "[[" comes early (the lazy name and the spaces after it both take spaces, so a
 * line of 40,000 spaces took the pattern 6 s).
 */
const RELATION = {
  exec: (line: string): RegExpExecArray | null => (relationPossible(line) ? RELATION_PATTERN.exec(line) : null),
  test: (line: string): boolean => relationPossible(line) && RELATION_PATTERN.test(line),
};
const RELATION_HEAD_CHARS = 300;

function relationPossible(line: string): boolean {
  const link = line.indexOf('[[');
  return link > 0 && link <= RELATION_HEAD_CHARS;
}
const TASK = /^\s*[-*]\s+\[[ xX-]\]\s/;

interface Note {
  file: VaultFile;
  key: string;
  title: string;
  frontMatter: Record<string, FrontMatterValue>;
  body: string;
  folder: string;
  names: string[];
}

/** The import units of a vault: one per note (in path order), relations in the unit of their source note. */
export function vaultUnits(files: readonly VaultFile[], context: ImportContext, options: VaultOptions): ImportUnit[] {
  const notes = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map(readNote);
  const byName = new Map<string, Note>();
  for (const note of notes) for (const name of note.names) if (!byName.has(name)) byName.set(name, note);
  // notes first (every unit before its links), so a link to a later note resolves; notes are written
  // NOTES_PER_UNIT to a transaction
  const units: ImportUnit[] = [];
  for (let start = 0; start < notes.length; start += NOTES_PER_UNIT) {
    const group = notes.slice(start, start + NOTES_PER_UNIT).map((note) => noteUnit(note, context, options));
    const unit = emptyUnit(group.length === 1 ? (group[0] as ImportUnit).label : `notes ${start + 1}-${start + group.length}`);
    for (const part of group) {
      unit.memories.push(...part.memories);
      unit.relations.push(...part.relations);
      unit.skipped.push(...part.skipped);
    }
    units.push(unit);
  }
  const links = emptyUnit('links');
  notes.forEach((note) => {
    for (const relation of noteRelations(note, options.style, byName, links)) links.relations.push(relation);
  });
  return [...units, links];
}

/** Notes written per transaction. */
const NOTES_PER_UNIT = 50;

function readNote(file: VaultFile): Note {
  const { frontMatter, body } = splitFrontMatter(file.text);
  const stem = file.path.replace(/^.*\//, '').replace(/\.md$/i, '');
  const title = textOf(frontMatter.title) ?? stem;
  const folder = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
  const permalink = textOf(frontMatter.permalink);
  const names = [
    title,
    stem,
    file.path.replace(/\.md$/i, ''),
    ...(permalink !== undefined ? [permalink] : []),
    ...listOf(frontMatter.aliases),
  ].map(normalizeName);
  return { file, key: `note:${file.path}`, title, frontMatter, body, folder, names: [...new Set(names)] };
}

/** A note's name as links find it: case-folded, and in NFC (macOS may give a file name in NFD, a link typed in NFC). */
function normalizeName(name: string): string {
  return name.normalize('NFC').trim().replace(/\.md$/i, '').toLowerCase();
}

function noteUnit(note: Note, context: ImportContext, options: VaultOptions): ImportUnit {
  const unit = emptyUnit(note.file.path);
  const base = resolveScope(context, { folder: note.folder });
  if ('problem' in base) {
    unit.skipped.push({ ref: `note ${note.file.path}`, reason: base.problem });
    return unit;
  }
  const scope =
    options.folders === 'scopes' && note.folder !== '' ? `${base.scope}/${note.folder.split('/').map(valueSegment).join('/')}` : base.scope;
  const at = fromIso(note.frontMatter.created) ?? fromIso(note.frontMatter.date) ?? note.file.modifiedAt ?? context.defaultTime;
  if (at === undefined) {
    unit.skipped.push({ ref: `note ${note.file.path}`, reason: NO_TIME_REASON });
    return unit;
  }
  const container = `${options.style}:${textOf(note.frontMatter.permalink) ?? note.file.path}`;
  const observations = options.style === 'basic-memory' ? observationsOf(note.body) : [];
  const prose = proseOf(note, options.style);
  const tags = [
    ...new Set([
      options.style,
      ...tagsOf(note),
      ...(options.folders !== 'scopes' && note.folder !== '' ? [cutText(`folder:${note.folder.normalize('NFC')}`, 100)] : []),
    ]),
  ].slice(0, 100);
  const input: RememberInput = {
    scope,
    layer: 'semantic',
    content: prose,
    name: cutText(note.title, 2000),
    category: cutText(textOf(note.frontMatter.type) ?? 'note', 2000),
    validFrom: at,
    tags,
    source: { system: options.style, conversationId: container, messageId: 'note' },
    provenance: { kind: 'document' },
  };
  unit.memories.push({ key: note.key, input, ref: `note ${note.file.path}` });
  observations.forEach((observation) => {
    const key = `${note.key}#${stableHash(observation.text)}`;
    const ref = `note ${note.file.path}, observation "${cutText(observation.text, 60)}"`;
    unit.memories.push({
      key,
      ref,
      input: {
        scope,
        layer: 'semantic',
        content: observation.text,
        category: cutText(observation.category, 2000),
        validFrom: at,
        tags: [...new Set([options.style, ...observation.tags])].slice(0, 100),
        entities: [cutText(note.title, 200)],
        source: {
          system: options.style,
          conversationId: container,
          messageId: `observation:${stableHash(`${observation.category}\u0000${observation.text}`)}`,
        },
        provenance: { kind: 'document' },
        ...(observation.context !== undefined ? { properties: { context: observation.context } } : {}),
      },
    });
    unit.relations.push({ from: key, to: note.key, type: 'MENTIONS', ref });
  });
  return unit;
}

interface Observation {
  category: string;
  text: string;
  tags: string[];
  context?: string;
}

/** basic-memory observation lines (`- [category] text #tag (context)`), tasks excluded. */
function observationsOf(body: string): Observation[] {
  const out: Observation[] = [];
  for (const line of withoutCode(body).split('\n')) {
    if (TASK.test(line)) continue;
    const match = OBSERVATION.exec(line);
    if (match === null) continue;
    let text = (match[2] as string).trim();
    let context: string | undefined;
    const ctx = /\s\(([^()]*)\)\s*$/.exec(text);
    if (ctx !== null) {
      context = ctx[1];
      text = text.slice(0, ctx.index).trim();
    }
    const tags = [...text.matchAll(/(?:^|\s)#([\w/-]+)/g)].map((m) => (m[1] as string).slice(0, 100));
    text = text.replace(/(?:^|\s)#[\w/-]+/g, '').trim();
    if (text === '') continue;
    out.push({ category: (match[1] as string).trim(), text, tags, ...(context !== undefined && context !== '' ? { context } : {}) });
  }
  return out;
}

/** The note's prose: its body without basic-memory's observation and relation lines; the title when nothing is left. */
function proseOf(note: Note, style: VaultStyle): string {
  let lines = note.body.split('\n');
  if (style === 'basic-memory') {
    lines = lines.filter((line) => TASK.test(line) || (!OBSERVATION.test(line) && !RELATION.test(line)));
    lines = lines.filter((line) => !/^#{1,6}\s+(Observations|Relations)\s*$/i.test(line));
  }
  const text = lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const withoutHeading = text.replace(/^#\s+.*$/m, '').trim();
  return withoutHeading === '' ? note.title : text;
}

function tagsOf(note: Note): string[] {
  const fromFrontMatter = listOf(note.frontMatter.tags).flatMap((t) => t.split(/\s+/));
  const inline = [...withoutCode(note.body).matchAll(/(?:^|\s)#([A-Za-z0-9_/-]*[A-Za-z_/-][A-Za-z0-9_/-]*)/g)].map((m) => m[1] as string);
  return [...new Set([...fromFrontMatter, ...inline].map((t) => cutText(t.replace(/^#/, ''), 100)).filter((t) => t !== ''))];
}

function withoutCode(text: string): string {
  return text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
}

/** The edges of one note: relation lines (basic-memory), front matter link properties (obsidian), and links in the prose. */
function noteRelations(note: Note, style: VaultStyle, byName: Map<string, Note>, unit: ImportUnit): PlannedRelation[] {
  const out: PlannedRelation[] = [];
  const seen = new Set<string>();
  const add = (type: string, target: string, embed: boolean, context?: string): void => {
    const ref = `note ${note.file.path}, link [[${target}]]`;
    if (embed || /\.(png|jpe?g|gif|svg|webp|pdf|mp3|mp4|canvas|excalidraw)$/i.test(target.trim())) {
      unit.skipped.push({ ref, reason: 'embedded or linked file that is not a note (attachments are not imported)' });
      return;
    }
    const found = target.trim() === '' ? note : byName.get(normalizeName(target));
    if (found === undefined) {
      unit.skipped.push({ ref, reason: 'link to a note that is not in the vault' });
      return;
    }
    if (found === note) return; // a link to a heading of the same note
    const key = `${type}\u0000${found.key}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({
      from: note.key,
      to: found.key,
      type,
      register: { description: `"${type}" links between ${style} notes` },
      metadata: { relationType: type, ...(context !== undefined && context !== '' ? { context } : {}) },
      ref,
    });
  };
  const lines = withoutCode(note.body).split('\n');
  for (const line of lines) {
    const relation = style === 'basic-memory' && !TASK.test(line) && !OBSERVATION.test(line) ? RELATION.exec(line) : null;
    if (relation !== null) add((relation[1] as string).trim().replace(/\s+/g, '_'), relation[2] as string, false, relation[3]);
  }
  if (style === 'obsidian') {
    for (const [property, value] of Object.entries(note.frontMatter)) {
      for (const item of Array.isArray(value) ? value : [value])
        for (const m of item.matchAll(LINK)) add(property.replace(/[\s-]+/g, '_'), m[2] as string, m[1] === '!');
    }
  }
  for (const line of lines) {
    if (style === 'basic-memory' && RELATION.test(line) && !OBSERVATION.test(line)) continue;
    for (const m of line.matchAll(LINK)) add(LINK_EDGE, m[2] as string, m[1] === '!');
  }
  return out;
}
