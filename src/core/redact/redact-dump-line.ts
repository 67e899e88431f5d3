/**
 * Redaction of a dump's lines on import: a dump written by a store without redaction (or before a
 * detector was added) holds secrets, and the importing store redacts them as every other write path
 * does. Text only: ids, scopes, instants and counts stay, so a line still names what it named.
 */
import type { DumpLine } from '../dump/dump-format.js';
import type { MemoryRecord } from '../memory.js';
import { redactExported, redactValue } from './redact-values.js';
import type { Redactor } from './redactor.js';

/** Past this many secrets remembered for their copies, no more are added (a dump full of secrets stays cheap). */
const KNOWN_MAX = 10_000;

/**
 * The redaction of one import: the secrets found in the lines read so far (secret → kind), whose copies
 * in later lines go too (a concept named after a token, an edge's metadata quoting it).
 */
export class DumpLineRedaction {
  readonly #redactor: Redactor;
  readonly #known = new Map<string, string>();

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  /** Whether lines are redacted at all (the redactor is on). */
  get enabled(): boolean {
    return this.#redactor.enabled;
  }

  /**
   * `line` with its secrets replaced (the same line when it had none) and how many were. A record's
   * content, summary, tags, entities, provenance, data and source key; an edge's metadata; a relation
   * type's description and proposer; a state document's value; an audit entry's actor and details. A
   * redacted record loses its dumped vector (the embedding of the secret): it is embedded again.
   */
  redact<L extends DumpLine>(line: L): { line: L; count: number } {
    if (!this.#redactor.enabled) return { line, count: 0 };
    const known = this.#known;
    switch (line.kind) {
      case 'record': {
        const record = line.record as unknown as MemoryRecord;
        const { patch, count, found } = redactExported(record, null, this.#redactor, known);
        this.#remember(found);
        if (count === 0) return { line, count };
        const { vector: _vector, ...rest } = line;
        return { line: { ...rest, record: { ...line.record, ...patch } } as L, count };
      }
      case 'edge': {
        const { value, count, found } = redactValue(line.edge.metadata, this.#redactor, [], known);
        this.#remember(found);
        return { line: count === 0 ? line : ({ ...line, edge: { ...line.edge, metadata: value } } as L), count };
      }
      case 'relationType': {
        const fields = { description: line.description, proposedBy: line.proposedBy };
        const { value, count } = redactValue(fields, this.#redactor, [], known);
        return { line: count === 0 ? line : ({ ...line, ...value } as L), count };
      }
      case 'state': {
        const { value, count } = redactValue(line.value, this.#redactor, [], known);
        return { line: count === 0 ? line : ({ ...line, value } as L), count };
      }
      case 'audit': {
        const fields = { actor: line.actor, details: line.details };
        const { value, count } = redactValue(fields, this.#redactor, [], known);
        return { line: count === 0 ? line : ({ ...line, ...value } as L), count };
      }
      default:
        return { line, count: 0 };
    }
  }

  #remember(found: ReadonlyMap<string, string>): void {
    for (const [secret, kind] of found) if (this.#known.size < KNOWN_MAX) this.#known.set(secret, kind);
  }
}
