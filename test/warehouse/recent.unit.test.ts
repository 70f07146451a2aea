// RecentCache: a value is made once while kept (null included), and the oldest made is dropped past the bound.
import { expect, test } from 'vitest';
import { RecentCache } from '../../warehouse/recent.ts';

test('made once while kept, null included; the oldest made goes first past the bound', () => {
  const made: string[] = [];
  const cache = new RecentCache<string | null>(2);
  const load = (k: string) => () => { made.push(k); return k === 'none' ? null : k.toUpperCase(); };
  expect(cache.get('a', load('a'))).toBe('A');
  expect(cache.get('none', load('none'))).toBeNull();
  expect(cache.get('a', load('a'))).toBe('A');
  expect(cache.get('none', load('none'))).toBeNull();
  expect(made).toEqual(['a', 'none']);
  expect(cache.get('b', load('b'))).toBe('B'); // three made: 'a' (the oldest) is dropped
  expect(cache.get('none', load('none'))).toBeNull();
  expect(cache.get('a', load('a'))).toBe('A');
  expect(made).toEqual(['a', 'none', 'b', 'a']);
});
