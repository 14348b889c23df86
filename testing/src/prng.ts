/**
 * A small seeded PRNG (mulberry32) for generated histories: a failing run is replayed from
 * its seed. `int(n)` is 0..n-1; `some` picks 1..max distinct items.
 */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const some = <T>(xs: readonly T[], max: number): T[] => {
    const copy = [...xs];
    const out: T[] = [];
    const n = 1 + int(Math.min(max, copy.length));
    while (out.length < n && copy.length > 0) out.push(copy.splice(int(copy.length), 1)[0]!);
    return out;
  };
  return { next, int, pick, some };
}
