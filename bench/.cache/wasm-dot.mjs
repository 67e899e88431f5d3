// Hand-assembled WebAssembly module: scan(vecs, n, dim, query, out) writes dot(vecs[r], query) for r < n
// using f32x4 SIMD, 4 lanes × 2 accumulators. Pointers are byte offsets into the imported memory.
const leb = (n) => { const out = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n); return out; };
const sleb = (n) => { const out = []; for (;;) { let b = n & 0x7f; n >>= 7; if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) { out.push(b); return out; } out.push(b | 0x80); } };
const section = (id, body) => [id, ...leb(body.length), ...body];
const vec = (items) => [...leb(items.length), ...items.flat()];
const str = (s) => [...leb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
export function wasmBytes() {
  const I32 = 0x7f, V128 = 0x7b;
  const type = section(1, vec([[0x60, ...vec([I32, I32, I32, I32, I32]), 0]]));
  const imp = section(2, vec([[...str('env'), ...str('mem'), 0x02, 0x00, 0x01]]));
  const func = section(3, vec([[0]]));
  const exp = section(7, vec([[...str('scan'), 0x00, 0]]));
  // params: 0 vecs, 1 n, 2 dim, 3 query, 4 out ; locals: 5 r, 6 i, 7 p(row ptr), 8 end  (i32) ; 9 acc0, 10 acc1 (v128)
  const get = (i) => [0x20, ...leb(i)], set = (i) => [0x21, ...leb(i)], tee = (i) => [0x22, ...leb(i)];
  const i32c = (n) => [0x41, ...sleb(n)];
  const simd = (op) => [0xfd, ...leb(op)];
  const v128load = (offset) => [...simd(0), 0x04, ...leb(offset)]; // align 2^4
  const f32x4_add = simd(228), f32x4_mul = simd(230);
  const body = [
    ...get(2), ...i32c(2), 0x74, ...set(8), // end = dim << 2 (bytes per row)
    ...i32c(0), ...set(5),
    0x02, 0x40, 0x03, 0x40, // block loop (rows)
      ...get(5), ...get(1), 0x4e, 0x0d, 1, // if r >= n break
      ...simd(12), ...Array(16).fill(0), ...set(9), // acc0 = 0
      ...simd(12), ...Array(16).fill(0), ...set(10), // acc1 = 0
      ...i32c(0), ...set(6),
      0x02, 0x40, 0x03, 0x40, // block loop (dims, 8 floats per step)
        ...get(6), ...get(8), 0x4e, 0x0d, 1, // if i >= end break
        ...get(9), ...get(7), ...get(6), 0x6a, ...v128load(0), ...get(3), ...get(6), 0x6a, ...v128load(0), ...f32x4_mul, ...f32x4_add, ...set(9),
        ...get(10), ...get(7), ...get(6), 0x6a, ...v128load(16), ...get(3), ...get(6), 0x6a, ...v128load(16), ...f32x4_mul, ...f32x4_add, ...set(10),
        ...get(6), ...i32c(32), 0x6a, ...set(6),
        0x0c, 0, 0x0b, 0x0b,
      // out[r] = horizontal sum(acc0 + acc1)
      ...get(9), ...get(10), ...f32x4_add, ...tee(9),
      ...simd(31), 0, ...get(9), ...simd(31), 1, 0x92, ...get(9), ...simd(31), 2, 0x92, ...get(9), ...simd(31), 3, 0x92,
      ...set(11 - 11 + 12), // store into f32 local 12 temp
      ...get(4), ...get(5), ...i32c(2), 0x74, 0x6a, ...get(12), 0x38, 0x02, 0x00, // f32.store out + r*4
      ...get(7), ...get(8), 0x6a, ...set(7), // p += rowBytes
      ...get(5), ...i32c(1), 0x6a, ...set(5),
      0x0c, 0, 0x0b, 0x0b,
    0x0b,
  ];
  // locals: 4 i32 (5..8), 2 v128 (9,10), 1 i32 unused (11), 1 f32 (12)
  const locals = vec([[...leb(4), I32], [...leb(2), V128], [...leb(1), I32], [...leb(1), 0x7d]]);
  // p starts at vecs
  const init = [...get(0), ...set(7)];
  const fbody = [...locals, ...init, ...body];
  const code = section(10, vec([[...leb(fbody.length), ...fbody]]));
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...type, ...imp, ...func, ...exp, ...code]);
}
