import { memoryAt } from '/work/main/bench/corpus.mjs';
const { buildRecord } = await import('/work/main/dist/core/write/new-record.js');
const { attachClaimSlot } = await import('/work/main/dist/core/write/resolve-claim.js');
const { compareClaims } = await import('/work/main/dist/core/write/claims/index.js');
const inputs = Array.from({ length: 3000 }, (_, i) => { const m = memoryAt(99, i); return { scope: 'bench/a', content: m.content, layer: m.layer, tags: m.tags }; }).filter((x) => x.layer !== 'episodic').slice(0, 300);
for (const x of inputs) { const r = buildRecord(x, { entities: [], importance: 0.5, emotion: null, salience: 0.5, surprise: 1 }, Date.now()); attachClaimSlot(r); }
for (let i = 0; i < 300; i++) compareClaims(inputs[i].content, inputs[(i + 1) % 300].content, { similarity: 0.5 });
