const D = 512, N = 100_000, B = 1024;
const blocks = [];
let seed = 1; const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) - 0.5;
for (let n = 0; n < N; n += B) { const v = new Float32Array(Math.min(B, N - n) * D); for (let i = 0; i < v.length; i++) v[i] = rnd(); blocks.push(v); }
const q = new Float32Array(D); for (let i = 0; i < D; i++) q[i] = rnd();
const out = new Float32Array(N);
function dot4(v, o, q, len) { let s0 = 0, s1 = 0, s2 = 0, s3 = 0; for (let i = 0; i < len; i += 4) { s0 += v[o + i] * q[i]; s1 += v[o + i + 1] * q[i + 1]; s2 += v[o + i + 2] * q[i + 2]; s3 += v[o + i + 3] * q[i + 3]; } return s0 + s1 + s2 + s3; }
function scanA() { let k = 0; for (const v of blocks) { const c = v.length / D; for (let s = 0; s < c; s++) out[k++] = dot4(v, s * D, q, D); } }
function scanRows4() { let k = 0; for (const v of blocks) { const c = v.length / D; let s = 0;
  for (; s + 4 <= c; s += 4) { const o0 = s * D, o1 = o0 + D, o2 = o1 + D, o3 = o2 + D; let a = 0, b = 0, cc = 0, d = 0;
    for (let i = 0; i < D; i++) { const x = q[i]; a += v[o0 + i] * x; b += v[o1 + i] * x; cc += v[o2 + i] * x; d += v[o3 + i] * x; }
    out[k++] = a; out[k++] = b; out[k++] = cc; out[k++] = d; }
  for (; s < c; s++) out[k++] = dot4(v, s * D, q, D); } }
const time = (label, fn) => { fn(); fn(); const t = []; for (let r = 0; r < 7; r++) { const s = performance.now(); fn(); t.push(performance.now() - s); } t.sort((a, b) => a - b); console.log(label.padEnd(28), 'median', t[3].toFixed(1), 'ms  min', t[0].toFixed(1)); };
time('JS dot4 per row (current)', scanA);
time('JS 4 rows at once', scanRows4);
// WASM SIMD: f32x4 dot over n rows
const bytes = (await import('./wasm-dot.mjs')).wasmBytes();
const mem = new WebAssembly.Memory({ initial: Math.ceil((N * D * 4 + D * 4 + N * 4) / 65536) + 1 });
const { instance } = await WebAssembly.instantiate(bytes, { env: { mem } });
const f32 = new Float32Array(mem.buffer);
let off = 0; for (const v of blocks) { f32.set(v, off); off += v.length; }
const qOff = N * D; f32.set(q, qOff); const outOff = qOff + D;
time('WASM SIMD f32x4', () => instance.exports.scan(0, N, D, qOff * 4, outOff * 4));
// check
scanA(); let maxErr = 0; for (let i = 0; i < N; i++) maxErr = Math.max(maxErr, Math.abs(out[i] - f32[outOff + i])); console.log('max abs diff', maxErr.toExponential(2));
