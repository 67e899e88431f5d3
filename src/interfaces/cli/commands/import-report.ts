/**
 * The import commands' progress bar (on a terminal only) and their readable report.
 */
import pc from 'picocolors';
import type { ImportReport } from '../../../portability/importers/index.js';

/** A progress display: a bar on stderr, or nothing. */
export interface Progress {
  start(total: number): void;
  tick(label: string): void;
  stop(): void;
}

/** A cli-progress bar on stderr when `enabled` (a terminal, no --json), else a no-op. */
export async function progressBar(enabled: boolean): Promise<Progress> {
  if (!enabled) return { start: () => undefined, tick: () => undefined, stop: () => undefined };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { clearOnComplete: true, format: ' {bar} {value}/{total} {label}' },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    start: (total) => {
      bar.start(total, 0, { label: '' });
      started = true;
    },
    tick: (label) => bar.increment(1, { label: label.slice(0, 40) }),
    stop: () => {
      if (started) bar.stop();
      started = false;
    },
  };
}

const UNITS: Record<string, string> = {
  'claude-code': 'sessions',
  chatgpt: 'conversations',
  'claude-ai': 'conversations',
  mem0: 'batches',
  'mcp-memory': 'graph',
  obsidian: 'batches of notes (and one of links)',
  'basic-memory': 'batches of notes (and one of links)',
};

/** The report as a few lines: counts, scopes, and skipped records grouped by reason with an example each. */
export function formatImportReport(report: ImportReport, source: string): string {
  const m = report.memories;
  const c = report.claims;
  const lines = [
    `${pc.bold(`import ${source}`)}: ${report.units} ${UNITS[report.source] ?? 'units'} read`,
    `  memories: ${m.created} created, ${m.merged} merged, ${m.superseded} superseded, ${m.unchanged} already present`,
  ];
  if (c.created + c.merged + c.superseded + c.unchanged > 0)
    lines.push(`  claims from turns: ${c.created} created, ${c.merged} merged, ${c.superseded} superseded, ${c.unchanged} already present`);
  if (report.edges.created + report.edges.existing > 0)
    lines.push(`  edges: ${report.edges.created} created, ${report.edges.existing} already present`);
  if (report.registeredTypes.length > 0) lines.push(`  relation types registered as proposed: ${report.registeredTypes.join(', ')}`);
  if (report.redacted > 0) lines.push(`  secrets redacted: ${report.redacted}`);
  const scopes = Object.entries(report.scopes);
  if (scopes.length > 0) lines.push(`  written to: ${scopes.map(([s, n]) => `${s} (${n})`).join(', ')}`);
  const skipped = Object.entries(report.skippedByReason);
  if (skipped.length === 0) lines.push(pc.dim('  nothing skipped'));
  else {
    lines.push(`  skipped ${skipped.reduce((n, [, k]) => n + k, 0)}:`);
    for (const [reason, n] of skipped) {
      const example = report.skipped.find((s) => s.reason === reason);
      lines.push(`    ${n} × ${reason}${example !== undefined ? pc.dim(` (e.g. ${example.ref})`) : ''}`);
    }
  }
  return lines.join('\n');
}
