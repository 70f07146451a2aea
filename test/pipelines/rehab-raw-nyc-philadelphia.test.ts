// The rehab score of every New York City and Philadelphia zip against their RAW files (audit h68audit2). Neither city
// has a permit source, so a score is the rehab resale share alone (market.md "mart_rehab": `100 * min(1, share / 0.10)`,
// minimum cohort 5, confidence low): recomputed with plain DuckDB over ../shared/data (rawRehabResales,
// oracle-raw-rehab.ts: RAW_MARKET_SALES's arm's-length sales, resale pairs keyed by parcel and unit as market.md and
// property.md say, never the build's macros or marts) and compared, zip by zip and window by window (3..24 months),
// with the built shards: the score, its label, the two counts, `as_of`, and which windows have no score at all.
// Before this file the rehab score of these zips was checked against the canonical tables on sampled zips only
// (test/api/values-market.test.ts). Philadelphia's OPA file holds one sale per parcel: no zip observes a resale, so no
// zip has a score (market.md: "Philadelphia's one-sale-per-parcel snapshot cannot").
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildDir, readShard } from '../helpers/build.ts';
import { type RawRehab, rawRehabResales, rehabLabel, resaleScore } from '../helpers/oracle-raw-rehab.ts';

interface Rehab { rehab_momentum_score: number; label: string; confidence: string; as_of: string; counts: { sales: number; rehab_resales: number; rehab_permits: number | null } }

// The two zips where a unit written two ways ("880 68TH STREET, 6-C" on 2023-04-24 at $280,000 and "6C" on 2023-10-18 at
// $340,000, lot 3-5770-36; 4-5193-1's "2-J" $100,000 and "2J" $210,000) is one property (property.md "Identity": "2-G and
// 2G are one property"): the build keyed the unit as written until h68audit2 found it (ours 0 -> raw 1 rehab resale in
// 11220, 1 -> 2 in 11355); now 30_market_92_resales.sql keys it without punctuation.
const UNIT_PUNCTUATION = new Set(['11220', '11355']);

let raw: RawRehab[];
const shardFile = (zip: string, months: number): string => path.join(buildDir(), 'shards', 'market', 'rehab', zip, `${months}.json`);

/** Each mismatch of the shards against the raw recount, over the zips `pick` keeps. */
function mismatches(pick: (zip: string) => boolean): { bad: string[]; scored: number } {
  const bad: string[] = [];
  let scored = 0;
  for (const r of raw.filter((x) => pick(x.zip))) {
    const want = resaleScore(r);
    const file = shardFile(r.zip, r.months);
    if (!fs.existsSync(file)) {
      if (want !== null) bad.push(`${r.zip}/${r.months}: no shard, raw ${want} (${r.rehab} of ${r.n})`);
      continue;
    }
    const b = readShard<Rehab>(`market/rehab/${r.zip}/${r.months}.json`);
    const got = `${b.rehab_momentum_score} ${b.label} ${b.confidence} ${b.counts.rehab_resales}/${b.counts.sales} ${b.as_of}`;
    const wanted = want === null ? 'no shard' : `${want} ${rehabLabel(want)} low ${r.rehab}/${r.n} ${r.as_of}`;
    if (got !== wanted || b.counts.rehab_permits !== null) bad.push(`${r.src} ${r.zip}/${r.months}: ours ${got}, raw ${wanted}`);
    else scored++;
  }
  return { bad, scored };
}

beforeAll(async () => { raw = await rawRehabResales(); }, 180_000);

describe('rehab score against the raw NYC and Philadelphia files', () => {
  test('every NYC zip and window: score, label, confidence, counts and as_of (the two zips of a unit written two ways apart)', () => {
    const { bad, scored } = mismatches((z) => !UNIT_PUNCTUATION.has(z));
    expect(bad.slice(0, 40)).toEqual([]);
    expect(scored).toBeGreaterThan(3_500); // 3,767 windows of the other zips at the build of 2026-12-02
  });

  test('11220 and 11355 count the quick resales of units written "6-C" / "6C" and "2-J" / "2J" as one property each', () => {
    const { bad, scored } = mismatches((z) => UNIT_PUNCTUATION.has(z));
    expect(bad).toEqual([]);
    expect(scored).toBeGreaterThan(0);
  });

  test('no NYC or Philadelphia zip has a rehab shard the raw files give no score, and Philadelphia none at all', () => {
    expect(raw.some((r) => r.src === 'philadelphia')).toBe(false);
    const want = new Set(raw.filter((r) => resaleScore(r) !== null).map((r) => `${r.zip}/${r.months}`));
    const nycZips = new Set(raw.map((r) => r.zip));
    const extra: string[] = [];
    for (const zip of fs.readdirSync(path.join(buildDir(), 'shards', 'market', 'rehab'))) {
      if (!/^(1[01]|19)/.test(zip)) continue; // NYC's 10xxx/11xxx, Philadelphia's 19xxx
      for (let m = 3; m <= 24; m++) if (fs.existsSync(shardFile(zip, m)) && !want.has(`${zip}/${m}`)) extra.push(`${zip}/${m}`);
    }
    expect(extra).toEqual([]);
    expect(nycZips.size).toBeGreaterThan(150);
  });
});
