/**
 * A small immutable map with structural sharing, so an `evolve` over a long stream
 * (a busy chat's messages) stays pure without copying every entry at every event:
 * `set` copies one path of a fixed three-level, 32-way trie (about 100 slots), not
 * the whole map. Reads and writes are O(1) for any size this product meets.
 */
const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

type Leaf<V> = readonly (readonly [string, V])[];
type Node<V> = readonly (Node<V> | Leaf<V> | undefined)[];

function hash(key: string): number {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class PersistentMap<V> {
  private constructor(
    private readonly root: Node<V>,
    readonly size: number,
  ) {}

  static empty<V>(): PersistentMap<V> {
    return new PersistentMap<V>([], 0);
  }

  get(key: string): V | undefined {
    const h = hash(key);
    const level1 = this.root[h & MASK] as Node<V> | undefined;
    const level2 = level1?.[(h >>> BITS) & MASK] as Node<V> | undefined;
    const leaf = level2?.[(h >>> (2 * BITS)) & MASK] as Leaf<V> | undefined;
    return leaf?.find(([k]) => k === key)?.[1];
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** A new map with `key` set to `value`; this one is unchanged. */
  set(key: string, value: V): PersistentMap<V> {
    const h = hash(key);
    const i1 = h & MASK;
    const i2 = (h >>> BITS) & MASK;
    const i3 = (h >>> (2 * BITS)) & MASK;
    const level1 = (this.root[i1] as Node<V> | undefined) ?? [];
    const level2 = (level1[i2] as Node<V> | undefined) ?? [];
    const leaf = (level2[i3] as Leaf<V> | undefined) ?? [];
    const at = leaf.findIndex(([k]) => k === key);
    const nextLeaf: Leaf<V> =
      at < 0 ? [...leaf, [key, value]] : leaf.map((entry, i) => (i === at ? ([key, value] as const) : entry));
    const nextLevel2 = withSlot<V>(level2, i3, nextLeaf);
    const nextLevel1 = withSlot<V>(level1, i2, nextLevel2);
    return new PersistentMap<V>(withSlot<V>(this.root, i1, nextLevel1), this.size + (at < 0 ? 1 : 0));
  }
}

function withSlot<V>(node: Node<V>, index: number, value: Node<V> | Leaf<V>): Node<V> {
  const copy = node.slice();
  copy[index] = value;
  return copy;
}
