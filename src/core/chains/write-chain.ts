/**
 * Writing a decision chain with `remember`: a memory may name the alternatives it turned down
 * (`rejected`, each stored as an episode linked `REJECTED`), the records it led to (`ledTo`, linked
 * `LED_TO`) and the decision it follows from (`follows`: that decision `LED_TO` this one). The
 * alternatives and the edges are written in the memory's own transaction, so a bad id writes nothing.
 */
import { EngramError, messages } from '../errors.js';
import type { Edge } from '../memory.js';
import type { StoreTransaction } from '../ports/store.js';
import type { ParsedRememberInput } from '../schemas.js';
import { newId } from '../write/new-record.js';
import { cutText } from '../text/cut-text.js';
import type { RememberResult } from '../write/remember.js';

/** The tag of an episode stored for a rejected alternative. */
export const REJECTED_TAG = 'rejected-alternative';

type ChainFields = Pick<ParsedRememberInput, 'rejected' | 'ledTo' | 'follows'>;

/** The batch to write (each chain input followed by its alternatives) and how to link it inside the write. */
export interface ChainWrite {
  inputs: ParsedRememberInput[];
  /** Index in `inputs` of each original input. */
  positions: number[];
  /** Writes the chain edges (inside the write's transaction); throws `INVALID_INPUT` for an id not in the scope. */
  link: (tx: StoreTransaction, results: readonly RememberResult[], at: number) => Promise<void>;
  /** The result of each original input, with the ids of its alternatives. */
  resultsOf: (results: readonly RememberResult[]) => RememberResult[];
}

export function hasChainFields(input: ParsedRememberInput): boolean {
  return (input.rejected?.length ?? 0) > 0 || (input.ledTo?.length ?? 0) > 0 || input.follows !== undefined;
}

/** Expands the inputs that carry chain fields; `alternative` parses one alternative as an input of its own. */
export function planChainWrite(
  parsed: readonly ParsedRememberInput[],
  alternative: (text: string, of: ParsedRememberInput) => ParsedRememberInput,
): ChainWrite {
  const inputs: ParsedRememberInput[] = [];
  const positions: number[] = [];
  const plans: { position: number; alternatives: number[]; fields: ChainFields }[] = [];
  for (const input of parsed) {
    const { rejected, ledTo, follows, ...rest } = input;
    positions.push(inputs.length);
    inputs.push(rest as ParsedRememberInput);
    const plan = { position: inputs.length - 1, alternatives: [] as number[], fields: { rejected, ledTo, follows } };
    for (const text of rejected ?? []) {
      plan.alternatives.push(inputs.length);
      inputs.push(alternative(text, input));
    }
    plans.push(plan);
  }
  const idOf = (result: RememberResult | undefined): string => result?.mergedInto ?? (result as RememberResult).id;
  return {
    inputs,
    positions,
    link: async (tx, results, at) => {
      const edges: Edge[] = [];
      for (const plan of plans) {
        const scope = (inputs[plan.position] as ParsedRememberInput).scope;
        const self = idOf(results[plan.position]);
        const named = [...(plan.fields.ledTo ?? []), ...(plan.fields.follows !== undefined ? [plan.fields.follows] : [])];
        const found = new Set((await tx.getMemories(named, [scope])).map((r) => r.id));
        const missing = named.filter((id) => !found.has(id));
        if (missing.length > 0) {
          throw new EngramError(
            'INVALID_INPUT',
            messages.invalidInput(
              `ledTo/follows name ${missing.map((id) => `"${cutText(id, 100)}"`).join(', ')}, not a memory of scope "${scope}": a chain links memories of one scope; nothing was written`,
            ),
            {
              details: { field: 'ledTo', missing },
            },
          );
        }
        const edge = (fromId: string, type: string, toId: string): Edge => ({
          id: newId(at),
          scope,
          fromId,
          type,
          toId,
          weight: 1,
          validFrom: at,
          validTo: null,
          recordedAt: at,
          invalidatedAt: null,
          metadata: {},
        });
        for (const index of plan.alternatives) edges.push(edge(self, 'REJECTED', idOf(results[index])));
        for (const id of plan.fields.ledTo ?? []) if (id !== self) edges.push(edge(self, 'LED_TO', id));
        if (plan.fields.follows !== undefined && plan.fields.follows !== self) edges.push(edge(plan.fields.follows, 'LED_TO', self));
      }
      if (edges.length > 0) await tx.insertEdges(edges);
    },
    resultsOf: (results) =>
      plans.map((plan) => {
        const result = results[plan.position] as RememberResult;
        return plan.alternatives.length > 0 ? { ...result, rejected: plan.alternatives.map((i) => idOf(results[i])) } : result;
      }),
  };
}
