import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2];
const prof = JSON.parse(readFileSync(`${dir}/${readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))}`, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const selfTime = new Map(); prof.samples.forEach((s, i) => selfTime.set(s, (selfTime.get(s) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const incl = new Map(); let total = 0;
function walk(id, stack) { const n = byId.get(id); const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-3).join('/')}:${n.callFrame.lineNumber}`; const own = selfTime.get(id) ?? 0; total += own; const fresh = !stack.has(key); if (fresh) stack.add(key);
  let sum = own; for (const c of n.children ?? []) sum += walk(c, stack); if (fresh) { incl.set(key, (incl.get(key) ?? 0) + sum); stack.delete(key); } return sum; }
walk(prof.nodes[0].id, new Set());
const filter = process.argv[4] ? new RegExp(process.argv[4]) : null;
[...incl.entries()].filter(([k]) => !filter || filter.test(k)).sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 30)).forEach(([k, v]) => console.log((v / 1000).toFixed(0).padStart(7), 'ms', (100 * v / total).toFixed(1).padStart(5), '%', k));
