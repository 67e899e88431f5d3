/**
 * Markdown rendering of a structured context (for a prompt) and the token budget: approximate tokens
 * are characters / 4, and the lowest-ranked entries are dropped first, least essential parts first.
 */
import type { SourceRef } from '../core/memory.js';
import type {
  ChainEntry,
  ConceptEntry,
  ContextPartName,
  EpisodeEntry,
  KnowledgeEntry,
  Prediction,
  ProfileEntry,
  RuleEntry,
  StructuredContext,
  TrimmedCounts,
} from './types.js';
import { CONTEXT_PARTS } from './types.js';
import { affectLines } from './affect-part.js';
import { cutText } from '../core/text/index.js';

/** Approximate token count of a text (characters / 4, rounded up). */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const TITLES: Record<ContextPartName, string> = {
  rules: 'Rules',
  profile: 'About the user',
  knowledge: 'Knowledge',
  concepts: 'What is perceived',
  predictions: 'Predictions',
  episodes: 'Relevant episodes',
};

type Parts = StructuredContext['parts'];

/** One Markdown line per entry of a part. */
export function entryLine(part: ContextPartName, item: unknown): string {
  switch (part) {
    case 'rules': {
      const r = item as RuleEntry;
      return `- ${oneLine(r.content)}${r.priority !== 0 ? ` (priority ${r.priority})` : ''}`;
    }
    case 'profile':
      return `- ${oneLine((item as ProfileEntry).content)}`;
    case 'knowledge': {
      const k = item as KnowledgeEntry;
      const name = k.name !== undefined && !k.content.toLowerCase().startsWith(k.name.toLowerCase()) ? `**${k.name}**: ` : '';
      return `- ${name}${oneLine(k.content)}${k.layer === 'semantic' ? '' : ` _(${k.layer})_`}`;
    }
    case 'concepts':
      return conceptLine(item as ConceptEntry);
    case 'predictions': {
      const p = item as Prediction;
      return `- ${p.action} → ${p.outcome} (success probability ${p.successProbability}, confidence ${p.confidence}, from ${p.support} episode${p.support === 1 ? '' : 's'})`;
    }
    case 'episodes': {
      const e = item as EpisodeEntry;
      const when = e.occurredAt !== null ? `${e.occurredAt.slice(0, 10)}: ` : '';
      const outcome = e.outcome?.success !== undefined ? ` [${e.outcome.success ? 'succeeded' : 'failed'}]` : '';
      const source = sourceText(e.sources);
      const corrected = e.correctedBy !== undefined ? ` _(later corrected: ${oneLine(e.correctedBy.content)})_` : '';
      return `- ${when}${oneLine(e.content)}${outcome}${corrected}${source !== '' ? ` _(source: ${source})_` : ''}`;
    }
  }
}

function conceptLine(c: ConceptEntry): string {
  const head = `- **${c.name}** (${c.category ?? 'concept'}, ${c.episodeCount} episode${c.episodeCount === 1 ? '' : 's'})`;
  const details: string[] = [];
  for (const r of c.relations ?? []) details.push(`${r.direction === 'out' ? '' : '← '}${r.type} ${r.name} (${r.weight})`);
  for (const s of c.statistics ?? []) details.push(s.verbal);
  return details.length > 0 ? `${head}: ${details.join('; ')}` : head;
}

function sourceText(sources: readonly SourceRef[]): string {
  const s = sources[0];
  if (s === undefined) return '';
  const where = s.conversationId ?? s.uri ?? s.system ?? '';
  const message =
    s.messageId !== undefined ? `#${s.messageId}` : s.messageRange !== undefined ? `#${s.messageRange[0]}–${s.messageRange[1]}` : '';
  return `${where}${message !== '' && where !== '' ? ' ' : ''}${message}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 600 ? `${cutText(flat, 597)}…` : flat;
}

/** The header comment: timing and the level each part reached. */
export function headerLine(context: Pick<StructuredContext, 'elapsedMs' | 'budgetMs' | 'parts'>): string {
  const levels = CONTEXT_PARTS.map((p) => `${p} ${context.parts[p].level}`).join(', ');
  return `<!-- engram context: ${Math.round(context.elapsedMs)} ms of ${context.budgetMs} ms; ${levels} -->`;
}

/** The Markdown of a context: a header comment, then one section per non-empty part. */
export function renderMarkdown(context: Pick<StructuredContext, 'elapsedMs' | 'budgetMs' | 'parts'>): string {
  const lines = [headerLine(context)];
  for (const part of CONTEXT_PARTS) {
    const items = context.parts[part].items as unknown[];
    if (items.length > 0) lines.push('', `## ${TITLES[part]}`, ...items.map((item) => entryLine(part, item)));
    if (part === 'rules') lines.push(...affectLines(context.parts.cautions, context.parts.mood));
    if (part === 'profile') lines.push(...profileFieldLines(context.parts.profileFields));
  }
  const chains = context.parts.chains?.items ?? [];
  if (chains.length > 0) lines.push('', CHAINS_TITLE, ...chains.map(chainLines));
  return lines.join('\n');
}

/**
 * The profile schema's section (seed 003): what is known per field, then what is still missing, so the
 * agent asks for it when the conversation allows. Nothing without a schema.
 */
export function profileFieldLines(fields: Parts['profileFields']): string[] {
  if (fields === undefined || (fields.known.length === 0 && fields.missing.length === 0)) return [];
  const lines = ['', '## What to learn about the user'];
  for (const k of fields.known) lines.push(`- ${k.field}: ${oneLine(k.value)} (since ${k.since.slice(0, 10)})`);
  if (fields.missing.length > 0) lines.push(`- Still unknown — ask when natural: ${fields.missing.join(', ')}`);
  return lines;
}

const CHAINS_TITLE = '## Decision chains';

/** A chain as one bullet per member, indented under its first: role, text, and a decision's rationale. */
function chainLines(chain: ChainEntry): string {
  return chain.members
    .map(
      (m, i) =>
        `${i === 0 ? '-' : '  -'} ${m.role}: ${oneLine(m.content)}${m.rationale !== undefined ? ` _(because: ${oneLine(m.rationale)})_` : ''}`,
    )
    .join('\n');
}

/** Parts in the order they give way to the token budget: least essential first, rules last. */
const TRIM_ORDER: readonly ContextPartName[] = ['episodes', 'knowledge', 'concepts', 'predictions', 'profile', 'rules'];
/**
 * Entries each part keeps, pass by pass: first a small core of every part; then rules and profile
 * only (three each, then one each, when the budget is that small).
 */
const KEEP: readonly Record<ContextPartName, number>[] = [
  { episodes: 1, knowledge: 2, concepts: 1, predictions: 1, profile: 3, rules: Number.POSITIVE_INFINITY },
  { episodes: 0, knowledge: 0, concepts: 0, predictions: 0, profile: 3, rules: 3 },
  { episodes: 0, knowledge: 0, concepts: 0, predictions: 0, profile: 1, rules: 1 },
];
/** A last entry is cut short rather than dropped while at least this many characters of it fit. */
const MIN_TRUNCATED_CHARS = 20;

/**
 * Drops the lowest-ranked entries until the rendered Markdown fits `maxTokens`, a hard limit: first
 * the opt-in chains; then each part down to a small core (least essential parts first); then the
 * other parts entirely while rules and profile keep their best three, then one each; and when even
 * that does not fit, the mood, the profile-schema section, the profile facts, the cautions and the
 * rules, in that order — the last entry of profile and rules cut short with "…" when part of it fits.
 * Only the header line is always kept. Mutates `parts`; returns how many entries each part lost.
 */
export function trimToTokens(context: Pick<StructuredContext, 'elapsedMs' | 'budgetMs' | 'parts'>, maxTokens: number): TrimmedCounts {
  const parts: Parts = context.parts;
  const maxChars = maxTokens * 4;
  let total = renderMarkdown(context).length;
  const trimmed: TrimmedCounts = {};
  const count = (part: keyof TrimmedCounts, n = 1) => (trimmed[part] = (trimmed[part] ?? 0) + n);
  const over = () => total > maxChars;
  // opt-in chains come whole or not at all, and give way first
  const chains = parts.chains?.items ?? [];
  while (over() && chains.length > 0) {
    total -= chainLines(chains.pop() as ChainEntry).length + 1;
    if (chains.length === 0) total -= CHAINS_TITLE.length + 2;
    count('chains');
  }
  const dropEntries = (part: ContextPartName, floor: number) => {
    const items = parts[part].items as unknown[];
    while (over() && items.length > floor) {
      total -= entryLine(part, items.pop()).length + 1;
      if (items.length === 0) total -= sectionCost(part);
      count(part);
    }
  };
  for (const keep of KEEP) for (const part of TRIM_ORDER) dropEntries(part, keep[part]);
  if (!over()) return trimmed;
  const dropAffect = (part: 'cautions' | 'mood') => {
    while (over() && parts[part].items.length > 0) {
      const before = linesCost(affectLines(parts.cautions, parts.mood));
      parts[part].items.pop();
      total -= before - linesCost(affectLines(parts.cautions, parts.mood));
      count(part);
    }
  };
  dropAffect('mood');
  const fields = parts.profileFields;
  if (over() && fields !== undefined && fields.known.length + fields.missing.length > 0) {
    total -= linesCost(profileFieldLines(fields));
    count('profileFields', fields.known.length + fields.missing.length);
    fields.known = [];
    fields.missing = [];
  }
  truncateLast('profile');
  dropEntries('profile', 0);
  dropAffect('cautions');
  truncateLast('rules');
  dropEntries('rules', 0);
  return trimmed;

  /** Cuts the part's only entry short, with "…", to fit (when at least MIN_TRUNCATED_CHARS of it remain). */
  function truncateLast(part: 'profile' | 'rules'): void {
    const items: { content: string }[] = parts[part].items;
    const [item] = items;
    if (!over() || item === undefined || items.length !== 1) return;
    const flat = oneLine(item.content);
    const kept = cutText(flat, flat.length - (total - maxChars) - 1);
    if (kept.length < MIN_TRUNCATED_CHARS) return;
    // a new entry: the one in `parts` may be shared with the builder's cache of rules
    const cut = { ...item, content: `${kept.trimEnd()}…` };
    total -= entryLine(part, item).length - entryLine(part, cut).length;
    items[0] = cut;
  }
}

/** Characters `lines` add to the Markdown (each on its own line). */
function linesCost(lines: readonly string[]): number {
  return lines.reduce((sum, line) => sum + line.length + 1, 0);
}

function sectionCost(part: ContextPartName): number {
  return `\n\n## ${TITLES[part]}`.length;
}
