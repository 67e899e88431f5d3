/**
 * The first stage's candidates in the in-memory lexical index: the best `size` rows by (score descending,
 * rowid ascending), as FTS5 orders `bm25(...), rowid`; a bounded min-heap that keeps each row's score
 * beside it, so the caller's score array can be cleared as it is read.
 */
export class CandidateHeap {
  readonly #rows: number[] = [];
  readonly #scores: number[] = [];
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  /** Whether row `d` with score `score` would enter the heap now. */
  wants(d: number, score: number): boolean {
    if (this.#rows.length < this.#size) return true;
    return this.#size > 0 && this.#worse(0, d, score);
  }

  /** The lowest score held once the heap is full (a row must score at least this to enter), else −∞. */
  floor(): number {
    return this.#size > 0 && this.#rows.length >= this.#size ? (this.#scores[0] as number) : Number.NEGATIVE_INFINITY;
  }

  offer(d: number, score: number): void {
    const rows = this.#rows;
    const scores = this.#scores;
    if (rows.length < this.#size) {
      rows.push(d);
      scores.push(score);
      let i = rows.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#worse(i, rows[parent] as number, scores[parent] as number)) break;
        this.#swap(i, parent);
        i = parent;
      }
      return;
    }
    if (!this.wants(d, score)) return;
    rows[0] = d;
    scores[0] = score;
    for (let i = 0; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < rows.length && this.#worse(left, rows[worst] as number, scores[worst] as number)) worst = left;
      if (right < rows.length && this.#worse(right, rows[worst] as number, scores[worst] as number)) worst = right;
      if (worst === i) break;
      this.#swap(i, worst);
      i = worst;
    }
  }

  /** The rows held and their scores, in no particular order. */
  rows(): { row: number; score: number }[] {
    return this.#rows.map((row, i) => ({ row, score: this.#scores[i] as number }));
  }

  /** Whether the row at heap position `i` ranks below row `d` scored `score`. */
  #worse(i: number, d: number, score: number): boolean {
    const own = this.#scores[i] as number;
    return own < score || (own === score && (this.#rows[i] as number) > d);
  }

  #swap(i: number, j: number): void {
    const rows = this.#rows;
    const scores = this.#scores;
    [rows[i], rows[j]] = [rows[j] as number, rows[i] as number];
    [scores[i], scores[j]] = [scores[j] as number, scores[i] as number];
  }
}
