/**
 * One FTS5 term's posting list in the in-memory lexical index: the rows holding it, in the order they
 * were indexed, with their weighted frequencies.
 */
export class Postings {
  docs: Int32Array = new Int32Array(4);
  freqs: Float32Array = new Float32Array(4);
  length = 0;
  /**
   * The largest frequency and the shortest row (FTS5 tokens, `lengths[doc]`) among the first `bounded`
   * entries: together they bound any entry's bm25 tf from above (a search that skips rows by their best
   * possible score reads them, `lexical-pruned.ts`). A posted row's length stays as it was when its
   * entries were added (a changed text is not posted again), so the bounds hold until entries are added.
   */
  maxFreq = 0;
  minLength = Number.POSITIVE_INFINITY;
  bounded = 0;

  /** Brings `maxFreq` and `minLength` up to every entry (only entries added since the last call are read). */
  bound(lengths: Int32Array): void {
    const docs = this.docs;
    const freqs = this.freqs;
    let maxFreq = this.maxFreq;
    let minLength = this.minLength;
    for (let i = this.bounded; i < this.length; i++) {
      const f = freqs[i] as number;
      if (f > maxFreq) maxFreq = f;
      const length = lengths[docs[i] as number] as number;
      if (length < minLength) minLength = length;
    }
    this.maxFreq = maxFreq;
    this.minLength = minLength;
    this.bounded = this.length;
  }

  /** Drops the spare capacity (after a build). */
  compact(): void {
    if (this.docs.length === this.length) return;
    this.docs = this.docs.slice(0, Math.max(1, this.length));
    this.freqs = this.freqs.slice(0, Math.max(1, this.length));
  }

  add(doc: number, freq: number): void {
    if (this.length === this.docs.length) {
      const docs = new Int32Array(Math.max(4, this.length * 2));
      docs.set(this.docs);
      this.docs = docs;
      const freqs = new Float32Array(Math.max(4, this.length * 2));
      freqs.set(this.freqs);
      this.freqs = freqs;
    }
    this.docs[this.length] = doc;
    this.freqs[this.length] = freq;
    this.length++;
  }
}

/**
 * The posting lists by FTS5 term. Lists loaded from an index file stay views into its bytes, made into
 * `Postings` only when a term is first asked for, so a load costs no work per term.
 */
export class PostingTable {
  readonly #lists = new Map<string, Postings>();
  /** Loaded terms not asked for yet: term → its list's index in the loaded arrays. */
  #loaded: Map<string, number> | undefined;
  #loadedStarts: Int32Array = new Int32Array(0);
  #loadedDocs: Int32Array = new Int32Array(0);
  #loadedFreqs: Float32Array = new Float32Array(0);

  /** Takes loaded lists: term `terms[i]` holds `docs`/`freqs` from `starts[i]` to `starts[i + 1]`. */
  static fromArrays(terms: readonly string[], starts: Int32Array, docs: Int32Array, freqs: Float32Array): PostingTable {
    const table = new PostingTable();
    const loaded = new Map<string, number>();
    for (let i = 0; i < terms.length; i++) loaded.set(terms[i] as string, i);
    table.#loaded = loaded;
    table.#loadedStarts = starts;
    table.#loadedDocs = docs;
    table.#loadedFreqs = freqs;
    return table;
  }

  get size(): number {
    return this.#lists.size + (this.#loaded?.size ?? 0);
  }

  get(term: string): Postings | undefined {
    const list = this.#lists.get(term);
    if (list !== undefined || this.#loaded === undefined) return list;
    const i = this.#loaded.get(term);
    if (i === undefined) return undefined;
    this.#loaded.delete(term);
    const start = this.#loadedStarts[i] as number;
    const end = this.#loadedStarts[i + 1] as number;
    const view = new Postings();
    // exact-length views: the first `add` copies them out before writing
    view.docs = this.#loadedDocs.subarray(start, end);
    view.freqs = this.#loadedFreqs.subarray(start, end);
    view.length = end - start;
    this.#lists.set(term, view);
    return view;
  }

  /** The list of `term`, created empty when missing. */
  open(term: string): Postings {
    let list = this.get(term);
    if (list === undefined) {
      list = new Postings();
      this.#lists.set(term, list);
    }
    return list;
  }

  /** Calls `visit` with every term's rows and frequencies (the first `length` entries), loaded or not. */
  forEach(visit: (term: string, docs: Int32Array, freqs: Float32Array, length: number) => void): void {
    for (const [term, list] of this.#lists) visit(term, list.docs, list.freqs, list.length);
    if (this.#loaded === undefined) return;
    for (const [term, i] of this.#loaded) {
      const start = this.#loadedStarts[i] as number;
      const end = this.#loadedStarts[i + 1] as number;
      visit(term, this.#loadedDocs.subarray(start, end), this.#loadedFreqs.subarray(start, end), end - start);
    }
  }

  /** Drops the spare capacity of the lists built here (after a build). */
  compact(): void {
    for (const list of this.#lists.values()) list.compact();
  }
}
