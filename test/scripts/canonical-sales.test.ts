// scripts/canonical-sales.ts: real sources converted into the canonical sales.csv (README "Canonical format"), the
// unseen-market stand-ins of issue 24. Oracles: the raw files read by DuckDB (read_csv, every value as text) with
// each SOURCE.md rule written again in SQL; and, for King County, the comps the source's own adapter gives in the
// shared real build (the canonical path must hold the same sales). Sacramento's conversion is checked end to end by
// test/live/valuation/eval-sources.test.ts.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANONICAL_SALES_COLUMNS, KING_COUNTY_FILE, NYC_FOLDER, ZIP_REFERENCE_FILE, writeCanonicalSales } from '../../scripts/canonical-sales.ts';
import { compSetsFromSources } from '../../scripts/eval-avm-sources.ts';
import { openWarehouse, queryRows, type Warehouse } from '../../warehouse/db.ts';
import type { CompSetData } from '../../live/valuation/comps.ts';
import { readCompSet } from '../../live/valuation/comp-arrow.ts';
import { buildDir } from '../helpers/build.ts';
import { REPO, SHARED_DATA } from '../helpers/paths.ts';


const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-canonical-sales-'));
let wh: Warehouse;
const rows = async <T = Record<string, unknown>>(sql: string): Promise<T[]> => {
  const c = await wh.connect();
  try { return await queryRows<T>(c, sql); } finally { c.closeSync(); }
};
const raw = (rel: string): string => `read_csv('${path.join(SHARED_DATA, rel)}', all_varchar = true, header = true)`;
beforeAll(async () => { wh = await openWarehouse(':memory:'); });
afterAll(() => { wh.close(); fs.rmSync(tmp, { recursive: true, force: true }); });

describe('King County as a canonical market', () => {
  const dir = path.join(tmp, 'king_county');
  it('writes every sale, only canonical columns, each value as SOURCE.md says', async () => {
    const conv = await writeCanonicalSales('king_county', dir, SHARED_DATA);
    expect(conv).toMatchObject({ rows: 21_613, skipped: 0 });
    const header = fs.readFileSync(conv.file, 'utf8').split('\n', 1)[0]!.split(',');
    expect(header).toEqual([...CANONICAL_SALES_COLUMNS, 'parcel_id', 'lot_sqft', 'quality_grade']); // the 14 required + the optional parcel id, lot and grade
    // each raw sale beside its converted row (a parcel is sold at most once a day: the join is one to one, so n counts
    // both), every column recomputed from the raw values
    const bad = await rows<{ n: number; mismatched: number; no_city: number }>(`
      with r as (select *, strftime(strptime(date, '%Y%m%dT%H%M%S'), '%Y-%m-%d') as iso from ${raw(KING_COUNTY_FILE)}),
           c as (select * from read_csv('${conv.file}', all_varchar = true, header = true)),
           z as (select zip_code, city from ${raw(ZIP_REFERENCE_FILE)})
      select count(*)::int as n, (count(*) filter (where z.city is null))::int as no_city,
        (count(*) filter (where not (
          c.address = 'PARCEL ' || r.id and c.parcel_id = r.id and c.city = z.city and c.state = 'WA' and c.zip = r.zipcode
          and c.sale_price::double = r.price::double and c.property_type = 'sfr'
          and c.beds::double = r.bedrooms::double and c.baths::double = r.bathrooms::double
          and c.sqft::double = r.sqft_living::double and c.year_built::int = r.yr_built::int
          and c.condition = case r.condition when '1' then 'poor' when '2' then 'fair' when '3' then 'good' when '4' then 'good' when '5' then 'excellent' end
          and c.lat::double = r.lat::double and c.lng::double = r.long::double and c.lot_sqft::double = r.sqft_lot::double
          and c.quality_grade::double = r.grade::double)))::int as mismatched
      from r join c on c.parcel_id = r.id and c.sale_date = r.iso left join z on z.zip_code = r.zipcode`);
    expect(bad[0]).toEqual({ n: 21_613, no_city: 0, mismatched: 0 });
  });

  it('through the build, the canonical path holds the same comps as the source own adapter', async () => {
    const { sets: [set] } = await compSetsFromSources(path.join(dir, 'canonical')); // a folder holding sales.csv: the evaluation links the geography
    const own = readCompSet(path.join(buildDir(), 'live', 'valuation', 'comps-king_county.arrow'));
    const sales = (s: CompSetData): string[] => s.price.map((p, i) => [s.zips[s.zip[i]!], s.day[i], p, s.sqft[i], s.year[i], s.cond[i], s.lat[i], s.lng[i]].join('|')).sort();
    expect(set!.source).toBe('canonical');
    expect(set!.price.length).toBe(own.price.length);
    expect(sales(set!)).toEqual(sales(own));
    // the lot and the quality grade (the optional lot_sqft and quality_grade) are the same log_lot and grade features
    // the own adapter reads; view and waterfront are no canonical columns, so not there
    expect(Object.keys(set!.features ?? {}).sort()).toEqual(['grade', 'log_lot']);
    const lots = (s: CompSetData): string[] => s.price.map((p, i) => [s.zips[s.zip[i]!], s.day[i], p, s.sqft[i], s.lat[i], s.lng[i], s.features!['log_lot']![i]?.toFixed(9), s.features!['grade']![i]].join('|')).sort();
    expect(lots(set!)).toEqual(lots(own));
    expect(new Set(set!.key).size).toBe(new Set(own.key).size); // one address key per parcel, as the parcel id is
  }, 1_500_000);
});

describe('NYC as a canonical market', () => {
  const nyc = (): string => `read_csv('${path.join(SHARED_DATA, NYC_FOLDER)}/*.csv.gz', all_varchar = true, header = true)`;
  const out = (file: string): string => `read_csv('${file}', all_varchar = true, header = true)`;
  const zipOk = `regexp_full_match(trim("ZIP CODE"), '[0-9]{5}') and trim("ZIP CODE") <> '00000'`;

  it('keeps every sale the native adapter keeps, $0 transfers too (the format takes a price >= 0: flagged, not dropped)', async () => {
    const conv = await writeCanonicalSales('nyc', path.join(tmp, 'nyc'), SHARED_DATA);
    expect(conv.file).toBe(path.join(tmp, 'nyc', 'canonical', 'sales.csv'));
    const [want] = await rows<{ n: number; zero: number }>(`select count(*)::int as n, count(*) filter (where replace("SALE PRICE", ',', '')::double = 0)::int as zero
      from ${nyc()} where ${zipOk} and regexp_matches("BUILDING CLASS CATEGORY", '^[0-9][0-9] ') and try_cast("SALE DATE" as date) is not null
        and try_cast(replace("SALE PRICE", ',', '') as double) >= 0`);
    const [got] = await rows<{ n: number; zero: number }>(`select count(*)::int as n, count(*) filter (where sale_price::double = 0)::int as zero from ${out(conv.file)}`);
    expect(got).toEqual(want);
    expect(want!.zero).toBe(49_650); // SOURCE.md: ~29% of the rows are $0 transfers (49,656, 6 of them without a zip)
    expect(conv.rows).toBe(want!.n);
    // no point, no beds or baths, no condition: those columns are empty on every row
    const filled = await rows<{ n: number }>(`select count(*)::int as n from ${out(conv.file)} where coalesce(lat, lng, beds, baths, condition) is not null`);
    expect(filled[0]!.n).toBe(0);
  }, 120_000);

  it("a unit's sale is the unit's, as the native adapter reads it (review r21 #2): its address, a condo, no building area", async () => {
    const file = path.join(tmp, 'nyc', 'canonical', 'sales.csv');
    // 138 Willoughby Street, a special condo billing lot (category 11) of 458 units and 472,115 sqft: its rows give the
    // lot's part "RESI" as APARTMENT NUMBER and the apartment sold after the comma (", 16C"); each is one unit's sale,
    // with neither the building's area nor its land (LAND SQUARE FEET 21,474) as the unit's
    const want = await rows<{ address: string; n: number }>(`select '138 WILLOUGHBY STREET APT ' || trim(split_part(ADDRESS, ',', 2)) as address, count(*)::int as n
      from ${nyc()} where ADDRESS like '138 WILLOUGHBY STREET, %' and trim("APARTMENT NUMBER") = 'RESI' and "BUILDING CLASS CATEGORY" like '11 %'
      group by all order by all`);
    expect(want.reduce((a, r) => a + r.n, 0)).toBe(199);
    const got = await rows<{ address: string; n: number }>(`select address, count(*)::int as n from ${out(file)}
      where address like '138 WILLOUGHBY STREET%' and property_type = 'condo' and sqft is null and lot_sqft is null group by all order by all`);
    expect(got).toEqual(want);
    expect(await rows(`select address from ${out(file)} where address like '138 WILLOUGHBY STREET APT RESI'`)).toEqual([]);
    // one property per unit: the units share the billing lot (BOROUGH-BLOCK-LOT), so the parcel id carries the unit
    const lots = await rows<{ lot: string }>(`select distinct BOROUGH || '-' || BLOCK || '-' || LOT as lot from ${nyc()} where ADDRESS like '138 WILLOUGHBY STREET, %'`);
    expect(lots).toEqual([{ lot: '3-149-1102' }]);
    expect(await rows(`select address, parcel_id from ${out(file)} where address like '138 WILLOUGHBY STREET%'
      and parcel_id <> '3-149-1102-' || regexp_extract(address, ' APT (.*)$', 1)`)).toEqual([]);
    // 20 River Terrace, a rental elevator building (08) of 293 units sold unit by unit: "20 RIVER TERRACE, 11L" is a condo's sale
    const [river] = await rows<{ n: number }>(`select count(*)::int as n from ${nyc()} where ADDRESS like '20 RIVER TERRACE, %' and "BUILDING CLASS CATEGORY" like '08 %'`);
    const [riverOut] = await rows<{ n: number; condo_no_area: number }>(`select count(*)::int as n, count(*) filter (where property_type = 'condo' and sqft is null)::int as condo_no_area
      from ${out(file)} where address like '20 RIVER TERRACE APT %'`);
    expect(river!.n).toBeGreaterThan(10);
    expect(riverOut).toEqual({ n: river!.n, condo_no_area: river!.n });
    // "228 WEST 17TH STREET, 4B": apartment 4B of a 15-unit walk-up (GROSS SQUARE FEET 7,790, the building's) sold for
    // $425,000: the lot's only sale, so the building's type, but the unit's area is unknown
    expect(await rows(`select address, sale_price, property_type, sqft from ${out(file)} where address like '228 WEST 17TH STREET%'`))
      .toEqual([{ address: '228 WEST 17TH STREET APT 4B', sale_price: '425000', property_type: 'multi', sqft: null }]);
  }, 120_000);
});

// the geography and reference folders of ../shared/data (README "Data sources": the first row)
const GEOGRAPHY = ['simplemaps-uscities', 'usgeo-census-tables', 'census-gazetteer-2025', 'census-cbsa-delineation-2023', 'census-acs2023-population',
  'geonames-us-postal-codes', 'hud-usps-zip-county-crosswalk', 'usps-zip-locale-detail', 'us-zip-reference', 'zcta-boundaries-2010',
  // and the hazard folders (h75unseen): without them every zip's location risk answered "no Superfund site within 1
  // mile" as of EPA SEMS 2021-06-13 from no SEMS file at all, while the build's warning said it would answer no zip
  'epa-superfund-sems', 'fema-nfhl-flood-zones', 'fema-nri'];

describe('the converters\' command line (review r21 #7): a usage text, one-line errors, no stack trace', () => {
  const run = (script: string, ...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'scripts', script), ...args], { encoding: 'utf8', cwd: REPO });
  it.each(['canonical-sales.ts', 'canonical-denver.ts'])('%s', (script) => {
    const help = run(script, '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npx tsx scripts\/canonical-/);
    expect(help.stdout).toContain('DIR/canonical/sales.csv');
    for (const [args, why] of [[['--bogus'], /error: Unknown option '--bogus'/], [[], /error: missing (--from, )?--out/],
      [script === 'canonical-sales.ts' ? ['--from', 'denver', '--out', path.join(tmp, 'x')] : ['--out', path.join(tmp, 'x'), '--keyed', 'street'], /error: --(from denver|keyed street): /]] as const) {
      const r = run(script, ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toContain('usage: ');
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack
    }
  }, 60_000);
  it('canonical-sales.ts lays out a buildable sources folder: canonical/sales.csv, the geography and hazard folders linked beside it', () => {
    const out = path.join(tmp, 'sac-cli');
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'scripts', 'canonical-sales.ts'), '--from', 'sacramento', '--out', out],
      { encoding: 'utf8', cwd: REPO, env: { ...process.env, REII_SOURCES: SHARED_DATA } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${path.join(out, 'canonical', 'sales.csv')}: 984 sales (1 left out: 1 unknown_property_type)\n`);
    expect(fs.readdirSync(out).sort()).toEqual([...GEOGRAPHY, 'canonical'].sort());
    for (const g of GEOGRAPHY) expect(fs.realpathSync(path.join(out, g))).toBe(fs.realpathSync(path.join(SHARED_DATA, g)));
  }, 30_000);
  it('canonical-sales.ts has no default source: --out alone names the missing --from', () => {
    const r = run('canonical-sales.ts', '--out', path.join(tmp, 'x'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: missing --from/);
    expect(fs.existsSync(path.join(tmp, 'x'))).toBe(false);
  }, 30_000);
});

describe('--without', () => {
  it('--without: a market whose records lack some columns (an optional one left out, a required one empty)', async () => {
    const conv = await writeCanonicalSales('king_county', path.join(tmp, 'kc-without'), SHARED_DATA, ['lot_sqft', 'quality_grade', 'lat', 'lng']);
    expect(fs.readFileSync(conv.file, 'utf8').split('\n', 1)[0]!.split(',')).toEqual([...CANONICAL_SALES_COLUMNS, 'parcel_id']);
    const filled = await rows<{ n: number; sqft: number }>(`select count(*) filter (where coalesce(lat, lng) is not null)::int as n,
      count(sqft)::int as sqft from read_csv('${conv.file}', all_varchar = true, header = true)`);
    expect(filled[0]).toEqual({ n: 0, sqft: 21_613 });
    await expect(writeCanonicalSales('king_county', path.join(tmp, 'kc-x'), SHARED_DATA, ['grade'])).rejects.toThrow(/--without grade/);
  });

  it('refuses a source it cannot convert, naming the ones it can', async () => {
    await expect(writeCanonicalSales('denver', path.join(tmp, 'denver'), SHARED_DATA)).rejects.toThrow(/sacramento, king_county, nyc/);
  });
});
