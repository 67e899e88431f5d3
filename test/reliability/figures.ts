/**
 * The reliability suite's figures (inputs tried, kills survived, writes verified, probes run): each
 * test adds to them and they are printed in the test output, one line per figure, for docs/reliability.md.
 */
const figures = new Map<string, number>();

/** Adds `n` to a named figure. */
export function count(name: string, n = 1): void {
  figures.set(name, (figures.get(name) ?? 0) + n);
}

/** Prints the figures gathered so far under a heading (call it in afterAll). */
export function printFigures(heading: string): void {
  const lines = [...figures.entries()].map(([name, n]) => `  ${name}: ${n.toLocaleString('en-US')}`);
  console.log(`[reliability] ${heading}\n${lines.join('\n')}`);
}
