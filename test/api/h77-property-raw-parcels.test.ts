// GET /v1/property of King County and Philadelphia OPA parcels drawn from the RAW files (h77 audit, gap d), every field
// the raw rows give recomputed by test/helpers/oracle-raw-property.ts (csv-parse, property.md "Which value wins": per
// field the newest row recording a value; sales newest first). test/live/property/h74-sample.test.ts draws its
// properties from the build and checks each value at the line its lineage cites: it cannot see a parcel the build lost,
// a field taken from an older row than the rule says, nor Philadelphia's year built or either source's property type.
// Here the draw is the raw file's (mulberry32, a fixed seed): 40 parcels of each, 10 King County parcels sold two or
// more times, and 2 Philadelphia parcels of each property type; each must answer 200 with the raw record.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { rawParcelRecords, type PropertySource, type RawRecord } from '../helpers/oracle-raw-property.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 77;
const api = serveSharedBuild('pro', 100_000);
const sample = new Map<PropertySource, RawRecord[]>();

function draw<T>(from: T[], n: number, rnd: () => number): T[] {
  const left = [...from];
  const out: T[] = [];
  while (out.length < n && left.length) out.push(left.splice(Math.floor(rnd() * left.length), 1)[0]!);
  return out;
}

beforeAll(() => {
  const rnd = rng(SEED);
  for (const src of ['king_county', 'philadelphia'] as const) {
    const all = [...rawParcelRecords(src).values()].sort((a, b) => a.parcel_id.localeCompare(b.parcel_id));
    const extra = src === 'king_county' ? draw(all.filter((r) => r.sales.length > 1), 10, rnd)
      : ['sfr', 'multi', 'condo', 'land', 'commercial'].flatMap((t) => draw(all.filter((r) => r.property_type === t), 2, rnd));
    sample.set(src, [...new Map([...draw(all, 40, rnd), ...extra].map((r) => [r.parcel_id, r])).values()]);
  }
}, 120_000);

describe(`seeded sample ${SEED}: property records of raw King County and Philadelphia parcels`, () => {
  test.each(['king_county', 'philadelphia'] as const)('%s: parcel, state, type, zip, point, beds, baths, sqft, lot, year built and sales equal the raw rows', async (src) => {
    const records = sample.get(src)!;
    expect(records.length).toBe(50);
    if (src === 'king_county') expect(records.filter((r) => r.sales.length > 1).length).toBeGreaterThanOrEqual(10);
    const bad: string[] = [];
    for (const r of records) {
      const res = await api.get(`/v1/property?parcel_id=${encodeURIComponent(r.parcel_id)}&state=${r.state}`);
      if (res.status !== 200) { bad.push(`${r.parcel_id}: ${res.status}`); continue; }
      const b = (await res.json()) as Record<string, unknown> & { sales: { date: string; price: number | null }[] };
      const got = Object.fromEntries(Object.keys(r).map((k) => [k, k === 'sales' ? b.sales.map((s) => ({ date: s.date, price: s.price })) : b[k]]));
      if (JSON.stringify(got) !== JSON.stringify(r)) bad.push(`${r.parcel_id}: api ${JSON.stringify(got)}\n  raw ${JSON.stringify(r)}`);
    }
    expect(bad).toEqual([]);
  }, 120_000);
});
