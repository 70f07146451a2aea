// Covered days of the sales sources the raw coverage tests left out (h78 audit, gap c): the investor overview of
// King County's cities (h75-investor-cover-raw.test.ts samples New York, Philadelphia, Denver, Connecticut towns and
// Sacramento cities, not King County's, whose file names no city), and the comps answers of Connecticut zips
// (h75-comps-coverage-raw.test.ts samples King County, Sacramento, NYC and Philadelphia zips; Connecticut's are guessed
// from the sales' points). Recomputed from the RAW files by market.md "Coverage of a window" (oracle-raw-coverage.ts:
// each file's first to last arm's-length sale, cut to its solid months): a city's window ends at its source's latest
// arm's-length sale, a zip's at the zip's; King County cities are named by the ZIP reference's city of their zips
// (oracle-raw-town-tier.ts), Connecticut zips by oracle-ct-zips.ts (nearest ZCTA of the sale's town).
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { RAW_MARKET_SALES, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { CT_SALES_ZIPPED } from '../helpers/oracle-ct-zips.ts';
import { coveredIn, coveredRuns, dayNo, dayOf, fileMonths, windowFirst, type RawCoverageInputs } from '../helpers/oracle-raw-coverage.ts';
import { rawInvestorCover } from '../helpers/oracle-raw-investor-cover.ts';
import { townRecords } from '../helpers/oracle-raw-town-tier.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 78_003;
const api = serveSharedBuild('pro', 100_000);
let inp: RawCoverageInputs;
let kcLast = '';
const kcCities: string[] = [];
const ctZips: string[] = [];
/** Connecticut: the files (gl, y2022) of each zip's arm's-length sales, and the order coveredRuns gives the files in. */
const zipFiles = new Map<string, Set<string>>();
let ctFileOrder: string[] = [];

/** A Connecticut zip's comps window of `months` and its covered days: the runs of the files with an arm's-length sale
 *  in the zip only (market.md "Coverage of a window": the zip's spans are those of every file with a sale in it). The
 *  2022 extract has no `Location`, so no zip: a zip's sales are the GL head-of-file extract's, whose months are never
 *  solid (under a quarter of the source's busiest month), and its windows are covered 0 days. */
function ctCoverage(zip: string, months: number): Record<string, unknown> {
  const end = inp.zipEnd.get(`connecticut|${zip}`)!;
  const first = windowFirst(end, months), last = dayNo(end);
  const runs = (inp.covered.get('connecticut') ?? []).filter((_, i) => zipFiles.get(zip)!.has(ctFileOrder[i]!));
  const c = coveredIn(runs, first, last);
  return { window_start: dayOf(first), window_end: end, window_days: last - first + 1, records_start: c.start, records_end: c.end, records_days: c.days };
}

const draw = (pool: string[], n: number, rnd: () => number): string[] => {
  const left = [...pool].sort(), out: string[] = [];
  while (out.length < n && left.length) out.push(left.splice(Math.floor(rnd() * left.length), 1)[0]!);
  return out;
};

beforeAll(async () => {
  const kc = await rawQuery<{ zip: string; d: string }>(`${RAW_MARKET_SALES}
    select zip, strftime(d, '%Y-%m-%d') as d from market where src = 'king_county' and not portfolio and d is not null`);
  const ct = await rawQuery<{ zip: string | null; d: string; file: string }>(`select zip, strftime(day, '%Y-%m-%d') as d, file from ${CT_SALES_ZIPPED}`);
  const rows = [...kc.map((r) => ({ src: 'king_county', d: r.d, file: 0, zip: r.zip })), ...ct.map((r) => ({ src: 'connecticut', d: r.d, file: r.file, zip: r.zip }))];
  const zipEnd = new Map<string, string>();
  for (const r of rows) if (r.zip) { const k = `${r.src}|${r.zip}`; if ((zipEnd.get(k) ?? '') < r.d) zipEnd.set(k, r.d); }
  for (const r of ct) if (r.zip) (zipFiles.get(r.zip) ?? zipFiles.set(r.zip, new Set()).get(r.zip)!).add(r.file);
  const { counts, ends } = fileMonths(rows);
  ctFileOrder = [...counts.get('connecticut')!.keys()].map(String);
  inp = { covered: coveredRuns(counts, ends), zipEnd, redfin: new Map() };
  kcLast = kc.map((r) => r.d).sort().at(-1)!;
  const rnd = rng(SEED);
  kcCities.push(...draw([...new Set(townRecords().filter((r) => r.source === 'king_county' && r.city).map((r) => r.city))], 10, rnd));
  ctZips.push(...draw([...zipEnd.keys()].filter((k) => k.startsWith('connecticut|')).map((k) => k.split('|')[1]!), 12, rnd));
}, 600_000);

describe(`seeded sample ${SEED}: covered days of King County cities and Connecticut zips against the raw files`, () => {
  test('investor overview of 10 King County cities, months 3-24: coverage and confidence (no buyer named: low)', async () => {
    expect(kcCities).toHaveLength(10);
    const bad: string[] = [];
    for (const city of kcCities) for (let months = 3; months <= 24; months++) {
      const res = await api.get(`/v1/market/investor-overview?city=${encodeURIComponent(city)}&state=WA&months=${months}`);
      if (res.status !== 200) { bad.push(`${city} ${months}: ${res.status}`); continue; }
      const b = (await res.json()) as { coverage: unknown; confidence: string; as_of: string };
      const want = rawInvestorCover({ cities: [], asOf: new Map([['king_county', kcLast]]), covered: inp.covered }, { src: 'king_county', state: 'WA', city, known: [] }, months);
      if (JSON.stringify(b.coverage) !== JSON.stringify(want.coverage) || b.confidence !== want.confidence || b.as_of !== kcLast)
        bad.push(`${city} ${months}: api ${JSON.stringify(b.coverage)} ${b.confidence} ${b.as_of}, raw ${JSON.stringify(want.coverage)} ${want.confidence}`);
    }
    expect(bad.slice(0, 30)).toEqual([]);
  }, 600_000);

  test('comps of 12 Connecticut zips, sfr, months 3, 6, 12, 18, 24: window and coverage', async () => {
    expect(ctZips).toHaveLength(12);
    const bad: string[] = [];
    let partial = 0;
    for (const zip of ctZips) for (const months of [3, 6, 12, 18, 24]) {
      const res = await api.get(`/v1/market/comps?zip=${zip}&property_type=sfr&months=${months}`);
      if (res.status !== 200) { bad.push(`${zip} ${months}: ${res.status}`); continue; }
      const b = (await res.json()) as { coverage: unknown };
      const want = ctCoverage(zip, months);
      if ((want['records_days'] as number) < (want['window_days'] as number)) partial++;
      if (JSON.stringify(b.coverage) !== JSON.stringify(want)) bad.push(`${zip} ${months}: api ${JSON.stringify(b.coverage)}, raw ${JSON.stringify(want)}`);
    }
    expect(bad.slice(0, 30)).toEqual([]);
    console.info(`Connecticut zips ${ctZips.join(' ')}: ${partial} of ${ctZips.length * 5} windows covered in part`);
    // every sampled zip's sales come from the GL extract alone, no month of which is solid: nothing covered
    expect([...new Set(ctZips.flatMap((z) => [...zipFiles.get(z)!]))]).toEqual(['gl']);
    expect(partial).toBe(ctZips.length * 5);
  }, 600_000);
});
