/**
 * Which fields belong to which layer. A field given on the wrong layer is an input error,
 * so an agent finds out at once instead of storing data nothing will read.
 */
import type { Layer } from '../memory.js';

/** Field → the layers it may appear on. Fields not listed fit every layer. */
export const LAYER_FIELDS: Readonly<Record<string, readonly Layer[]>> = Object.freeze({
  perception: ['episodic'],
  context: ['episodic'],
  decision: ['episodic'],
  action: ['episodic'],
  outcome: ['episodic'],
  priority: ['procedural'],
  metric: ['statistical'],
  definition: ['semantic', 'statistical'],
  category: ['semantic', 'statistical', 'procedural'],
  properties: ['semantic', 'statistical', 'procedural'],
});

/** Problems with the fields of one input for its layer: `[field, message]` pairs. */
export function layerFieldProblems(input: Record<string, unknown>): Array<[string, string]> {
  const layer = (input.layer as Layer | undefined) ?? 'episodic';
  const problems: Array<[string, string]> = [];
  for (const [field, layers] of Object.entries(LAYER_FIELDS)) {
    if (input[field] === undefined || layers.includes(layer)) continue;
    problems.push([field, `belongs to the ${layers.join(' or ')} layer, not ${layer}: set layer to ${layers[0]} or leave ${field} out`]);
  }
  if (layer === 'statistical' && input.metric === undefined) {
    problems.push([
      'metric',
      'is required for a statistical memory: give at least { name, n } and one statistic (k, mean, slope or correlation)',
    ]);
  }
  return problems;
}
