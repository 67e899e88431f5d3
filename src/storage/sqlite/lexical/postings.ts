/**
 * One FTS5 term's posting list in the in-memory lexical index: the rows holding it, in the order they
 * were indexed, with their weighted frequencies.
 */
export class Postings {
  docs = new Int32Array(4);
  freqs = new Float32Array(4);
  length = 0;

  /** Drops the spare capacity (after a build). */
  compact(): void {
    if (this.docs.length === this.length) return;
    this.docs = this.docs.slice(0, Math.max(1, this.length));
    this.freqs = this.freqs.slice(0, Math.max(1, this.length));
  }

  add(doc: number, freq: number): void {
    if (this.length === this.docs.length) {
      const docs = new Int32Array(this.length * 2);
      docs.set(this.docs);
      this.docs = docs;
      const freqs = new Float32Array(this.length * 2);
      freqs.set(this.freqs);
      this.freqs = freqs;
    }
    this.docs[this.length] = doc;
    this.freqs[this.length] = freq;
    this.length++;
  }
}
