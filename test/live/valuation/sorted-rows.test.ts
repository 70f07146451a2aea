// The comps index finds a property's rows and an address key's latest row in sorted permutations of the rows
// (live/valuation/sorted-rows.ts), not Maps of arrays: over every comp and parcel file of the shared real build, each
// lookup answers what a Map of each key's rows, filled row by row, answers (the index's rule before the change): every
// row's pid and "<zip>|<key>", keys no row has, and a key spelled with a '|' of its own.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompIndex, type CompSetData } from '../../../live/valuation/comps.ts';
import type { ValuationMeta } from '../../../live/valuation/types.ts';
import { SortedRows } from '../../../live/valuation/sorted-rows.ts';
import { buildDir } from '../../helpers/build.ts';
import { readCompSet } from '../../../live/valuation/comp-arrow.ts';

function files(): [string, CompSetData][] {
  const dir = path.join(buildDir(), 'live', 'valuation');
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as ValuationMeta;
  return Object.values(meta.sources).flatMap((s) => [s.comps_file, s.subjects_file])
    .map((f): [string, CompSetData] => [f, readCompSet(path.join(dir, f))]);
}

/** The lookups as Maps filled row by row: "p:<pid>" and "k:<zip>|<key>" -> rows, "<zip>|<key>" -> latest row. */
function naive(d: CompSetData): { rows: Map<string, number[]>; latest: Map<string, number> } {
  const rows = new Map<string, number[]>(), latest = new Map<string, number>();
  const add = (k: string, i: number): void => { const a = rows.get(k); if (a) a.push(i); else rows.set(k, [i]); };
  for (let i = 0; i < d.day.length; i++) {
    const pid = d.pid?.[i], key = d.key[i];
    if (pid) add(`p:${pid}`, i);
    if (key) {
      const k = `${d.zips[d.zip[i]!]}|${key}`;
      add(`k:${k}`, i);
      const prev = latest.get(k);
      if (prev === undefined || d.day[prev]! <= d.day[i]!) latest.set(k, i);
    }
  }
  return { rows, latest };
}

describe('valuation index lookups over the real build', () => {
  for (const [file, d] of files()) {
    it(`${file}: every row's property rows and latest row at its key, as a Map of each key's rows gives them`, () => {
      const ix = new CompIndex(d);
      const want = naive(d);
      expect(ix.byKey.size).toBe(want.latest.size);
      const wrong: string[] = [];
      const same = (x: unknown, y: unknown, what: string): void => { if (JSON.stringify(x) !== JSON.stringify(y)) wrong.push(`${what}: ${JSON.stringify(x)} != ${JSON.stringify(y)}`); };
      for (let i = 0; i < ix.n; i++) {
        const pid = d.pid?.[i] ?? null, key = d.key[i];
        const zipKey = key ? `${d.zips[d.zip[i]!]}|${key}` : null;
        const a = pid ? want.rows.get(`p:${pid}`) ?? [] : [], b = zipKey ? want.rows.get(`k:${zipKey}`) ?? [] : [];
        same(ix.propertyRows(pid, zipKey), b.length === 0 ? a : a.length === 0 ? b : [...new Set([...a, ...b])], `row ${i} rows`);
        same(ix.propertyRows(pid, null), a, `row ${i} pid rows`);
        if (zipKey) same(ix.byKey.get(zipKey), want.latest.get(zipKey), `row ${i} latest`);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
      for (const k of ['', '00000|1 MAIN ST', `${d.zips[0]}|`, `${d.zips[0]}|A|B`, 'zzzzz', '0']) {
        expect(ix.byKey.get(k)).toBe(want.latest.get(k));
        expect(ix.propertyRows(k, k)).toEqual([]);
      }
    });
  }

  it('a key holding the separator is one key, not a zip and a key', () => {
    const keys = ['98103|A|B', '98103|A', '98103|A|B', null, '', '98103|A|B|'];
    const rows = new SortedRows(keys.length, (i) => keys[i]);
    expect(rows.rows('98103|A|B')).toEqual([0, 2]);
    expect(rows.rows('98103|A')).toEqual([1]);
    expect(rows.rows('98103|A|B|')).toEqual([5]);
    expect(rows.rows('')).toEqual([]);
    expect(rows.size).toBe(3);
  });
});
