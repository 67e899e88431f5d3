/**
 * The first stage's candidates in the in-memory lexical index: the best `size` rows by (score descending,
 * rowid ascending), as FTS5 orders `bm25(...), rowid`; a bounded min-heap.
 */
export class CandidateHeap {
  readonly #rows: number[] = [];
  readonly #size: number;
  readonly #score: Float64Array;

  constructor(size: number, score: Float64Array) {
    this.#size = size;
    this.#score = score;
  }

  /** Whether row `a` ranks below row `b`. */
  #worse(a: number, b: number): boolean {
    const sa = this.#score[a] as number;
    const sb = this.#score[b] as number;
    return sa < sb || (sa === sb && a > b);
  }

  /** Whether row `d` would enter the heap now. */
  wants(d: number): boolean {
    return this.#rows.length < this.#size || (this.#size > 0 && this.#worse(this.#rows[0] as number, d));
  }

  offer(d: number): void {
    const heap = this.#rows;
    if (heap.length < this.#size) {
      heap.push(d);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#worse(heap[i] as number, heap[parent] as number)) break;
        [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
        i = parent;
      }
      return;
    }
    if (this.#size === 0 || !this.#worse(heap[0] as number, d)) return;
    heap[0] = d;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && this.#worse(heap[left] as number, heap[worst] as number)) worst = left;
      if (right < heap.length && this.#worse(heap[right] as number, heap[worst] as number)) worst = right;
      if (worst === i) break;
      [heap[i], heap[worst]] = [heap[worst] as number, heap[i] as number];
      i = worst;
    }
  }

  rows(): number[] {
    return [...this.#rows];
  }
}
