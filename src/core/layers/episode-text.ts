/**
 * The text rendering of a structured episode (observe → decide → act → evaluate), used for search (it is
 * embedded with the content) and for display. Identifiers are split into words (`graspObject` → grasp
 * object) so a query in plain words finds them.
 */
import type { MemoryData } from '../memory.js';
import { normalizeTokens } from '../text/index.js';

const words = (raw: string): string => {
  const tokens = normalizeTokens(raw);
  return tokens.length > 0 ? tokens.join(' ') : raw.trim();
};

/**
 * One line per part of the cycle that is present; empty when the episode has no structured fields.
 *
 * @example
 * ```ts
 * renderEpisodeCycle({ context: { goal: 'grasp_coffee_mug' }, action: { tool: 'graspObject' }, outcome: { success: true } });
 * // 'goal: grasp coffee mug. action: grasp object. outcome: success.'
 * ```
 */
export function renderEpisodeCycle(data: MemoryData): string {
  const parts: string[] = [];
  const p = data.perception;
  if (p !== undefined) {
    const seen = [...(p.objects ?? []).map(words), ...(p.people ?? []).map(words)];
    if (seen.length > 0) parts.push(`perceived: ${seen.join(', ')}.`);
  }
  const c = data.context;
  if (c?.goal !== undefined) parts.push(`goal: ${words(c.goal)}.`);
  if (c?.location !== undefined) parts.push(`location: ${words(c.location)}.`);
  const d = data.decision;
  if (d?.intent !== undefined) parts.push(`intent: ${words(d.intent)}.`);
  if (d?.rationale !== undefined) parts.push(`because ${d.rationale.trim()}`);
  const a = data.action;
  if (a?.tool !== undefined) parts.push(`action: ${words(a.tool)}.`);
  const o = data.outcome;
  if (o !== undefined) {
    const verdict = o.success === true ? 'success' : o.success === false ? 'failure' : undefined;
    const reward = o.reward !== undefined ? `reward ${o.reward}` : undefined;
    const summary = [verdict, reward].filter((x) => x !== undefined).join(', ');
    if (summary.length > 0) parts.push(`outcome: ${summary}.`);
    if (o.detail !== undefined) parts.push(o.detail.trim());
  }
  return parts.join(' ');
}
