// The markdown of bench/peers.mjs: one table per conversation set, the skipped systems with their
// reasons, each system's settings, the machine and the command that reproduces the run.

/** @param {any} report the object bench/peers.mjs writes to peers.json */
export function peersMarkdown(report) {
  const lines = [
    `# Engram and its peers, side by side (${report.conversationsPerSet === 'all' ? 'all conversations' : `first ${report.conversationsPerSet} conversation(s) of each set`})`,
    '',
    `Top ${report.k} per question, the same turns and questions for every system, one system after another on one machine; every system that embeds uses ${report.embeddingModel}. Ratios are peer ÷ Engram on the same set (above 1 is better for any@10, frac@10 and ingest/s, worse for latency).`,
    '',
  ];
  for (const [set, label] of Object.entries(report.sets)) {
    const runs = report.runs.filter((r) => r.set === set);
    const ok = runs.filter((r) => r.status === 'ok');
    const first = ok[0];
    lines.push(
      `## ${label}${first ? `: ${first.conversations} conversations, ${first.ingest.turns} turns, ${first.questions} questions` : ''}`,
      '',
      '| system | version | any@10 | frac@10 | MRR@10 | ingest turns/s | query p50 ms | query p95 ms | any@10 ÷ Engram | frac@10 ÷ Engram | ingest ÷ Engram | p50 ÷ Engram | p95 ÷ Engram |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const r of ok) {
      const q = r.ratioToEngram;
      const cell = (v) => (v === undefined || v === null ? '' : `${v}×`);
      lines.push(
        `| ${r.system === 'engram' ? '**engram**' : r.system} | ${r.version} | ${r.metrics['any@10'].toFixed(3)} | ${r.metrics['frac@10'].toFixed(3)} | ${r.metrics['mrr@10'].toFixed(3)} | ${r.ingest.perSec.toFixed(1)} | ${r.query.p50.toFixed(2)} | ${r.query.p95.toFixed(2)} | ${cell(q?.['any@10'])} | ${cell(q?.['frac@10'])} | ${cell(q?.ingestPerSec)} | ${cell(q?.queryP50)} | ${cell(q?.queryP95)} |`,
      );
    }
    for (const r of runs.filter((x) => x.status !== 'ok')) lines.push(`| ${r.system} | ${r.status} | | | | | | | | | | | |`);
    lines.push('');
  }
  const notRun = report.runs.filter((r) => r.status !== 'ok');
  if (notRun.length > 0) {
    lines.push('## Not measured', '');
    const seen = new Set();
    for (const r of notRun) {
      const key = `${r.system}|${r.reason}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const sets = notRun.filter((x) => x.system === r.system && x.reason === r.reason).map((x) => x.set);
      lines.push(`- **${r.system}** (${r.status}, ${sets.join(', ')}): ${r.reason}`);
    }
    lines.push('');
  }
  lines.push('## How each system was run', '');
  const described = new Set();
  for (const r of report.runs.filter((x) => x.status === 'ok')) {
    if (described.has(r.system)) continue;
    described.add(r.system);
    const settings = Object.entries(r.settings ?? {})
      .map(([key, value]) => `${key} ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join('; ');
    lines.push(`- **${r.system}**: ${r.package} ${r.version}; embeds: ${r.embeds}; ${settings}.`);
  }
  lines.push(
    '',
    'Ingest turns/s counts from the first write until the system can answer with every feature it uses (for Engram that includes draining the concept-extraction jobs its background worker would run). Query latency is per question from the caller, query embedding included (for the peers, a loopback HTTP round trip to the local embeddings server).',
    '',
    `Measured ${report.timestamp} on ${report.cpuCount} × ${report.cpuModel}, Node ${report.node}, commit ${report.gitCommit?.slice(0, 12) ?? '?'}${report.gitDirty ? ' (with uncommitted changes)' : ''}; machine load average ${report.loadAverageAtStart.join(' / ')} at the start and ${report.loadAverage.join(' / ')} at the end (a shared 2-core machine: compare rows of one run, not runs).`,
    '',
    `Reproduce: \`npm run build && ${report.command}\``,
    '',
  );
  return lines.join('\n');
}
