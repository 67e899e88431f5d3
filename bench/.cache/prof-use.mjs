import { UseEmbedder } from '/work/main/dist/embeddings/use/index.js';
import { memoryAt } from '/work/main/bench/corpus.mjs';
const e = UseEmbedder.create({ workers: 0 });
await e.warmUp();
const texts = Array.from({ length: 256 }, (_, i) => memoryAt(5, i).content);
const t = performance.now(); await e.embed(texts); console.log('ms', performance.now() - t);
await e.close();
