import { describe, expect, it } from 'vitest';
import { PersistentMap } from './persistent-map.js';

describe('PersistentMap', () => {
  it('keeps every key of a large map and leaves earlier versions unchanged', () => {
    let map = PersistentMap.empty<number>();
    const versions: PersistentMap<number>[] = [];
    for (let i = 0; i < 50_000; i++) {
      map = map.set(`key-${i}`, i);
      if (i % 10_000 === 0) versions.push(map);
    }
    expect(map.size).toBe(50_000);
    for (let i = 0; i < 50_000; i += 997) expect(map.get(`key-${i}`)).toBe(i);
    expect(map.get('missing')).toBeUndefined();
    expect(versions[0]!.size).toBe(1);
    expect(versions[0]!.get('key-1')).toBeUndefined();
    expect(versions[1]!.get('key-10000')).toBe(10_000);
    expect(versions[1]!.get('key-10001')).toBeUndefined();
  });

  it('replaces a value without growing, in a new version only', () => {
    const before = PersistentMap.empty<string>().set('a', 'one');
    const after = before.set('a', 'two');
    expect(after.size).toBe(1);
    expect(after.get('a')).toBe('two');
    expect(before.get('a')).toBe('one');
  });
});
