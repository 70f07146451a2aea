// Nulls with a reason, over the shared real build (REII_TEST_ARTIFACTS), warehouse/docs/market.md:
// - "mart_market_direction": a market whose records could show no rehab event at all (no permit, no repeat sale, no
//   renovation year) answers direction_30d null with direction_30d_note, never "flat 0" from no data; a market whose
//   sources could show events keeps its figure, and the rehab score's trend (a 404 where there is no source) agrees
//   over every shard.
// - "mart_investor": the investor overview's null figures carry a note saying why (no buyer names, no flip, no
//   distress source, fewer than 5 known buyers or flips: the minimum cohort), facts read from the raw files' own columns.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildDir, readShard, warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

interface Summary { direction_30d: string | null; direction_30d_pct: number | null; direction_30d_note?: string | null }
interface Trends { zip_code: string | null; summary: Summary }
interface Rehab { trend: string; trend_pct: number }
interface Investor { investor_purchase_rate_pct: number | null; flip_velocity_days: number | null; gross_flip_margin_pct: number | null; distressed_pipeline_count: number | null; note?: string | null }

const shardExists = (rel: string): boolean => fs.existsSync(path.join(buildDir(), 'shards', rel));

describe('30-day direction: null with a reason where no source could show a rehab event', () => {
  test('Sacramento 95823: the raw file (one week of 2008) sells no address twice and records no renovation year, no permit in the zip: direction null, not flat 0; rehab 404', async () => {
    const [raw] = await rawQuery<{ sales: number; repeated: number }>(`select count(*)::int as sales,
        (count(*) - count(distinct upper(trim(street))))::int as repeated
      from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true) where zip = '95823'`);
    expect(raw!.sales).toBeGreaterThan(0);
    expect(raw!.repeated).toBe(0);
    const [permits] = await warehouseRows<{ n: number }>(`select count(*)::int as n from permits where zip = '95823'`);
    expect(permits!.n).toBe(0);
    for (const type of ['sfr', 'condo']) {
      const s = readShard<Trends>(`market/trends/zip/95823/${type}.json`).summary;
      expect([s.direction_30d, s.direction_30d_pct], type).toEqual([null, null]);
      expect(s.direction_30d_note, type).toMatch(/^no rehab event source/);
    }
    expect(shardExists('market/rehab/95823/6.json')).toBe(false);
  });

  test('every zip: direction null exactly where the zip has no permit that counts in it, no resale and no renovation year; every rehab score has a direction and agrees', async () => {
    // the build's canonical tables, not the mart: which zips could show an event at all
    const observing = new Set((await warehouseRows<{ zip: string }>(`
      select zip from int_market_zip_permits where zip is not null
      union select zip from int_market_resales where zip is not null
      union select zip from sales where is_arms_length and zip is not null and year_renovated is not null`)).map((r) => r.zip));
    const zips = fs.readdirSync(path.join(buildDir(), 'shards', 'market', 'trends', 'zip'));
    let nulls = 0;
    const problems: string[] = [];
    for (const zip of zips) {
      const s = readShard<Trends>(`market/trends/zip/${zip}/sfr.json`).summary;
      const none = s.direction_30d === null;
      nulls += none ? 1 : 0;
      if (none === observing.has(zip)) problems.push(`${zip}: direction ${s.direction_30d}, observes events ${observing.has(zip)}`);
      if (none !== (s.direction_30d_pct === null) || none !== (s.direction_30d_note != null)) problems.push(`${zip}: pct ${s.direction_30d_pct}, note ${s.direction_30d_note}`);
      if (shardExists(`market/rehab/${zip}/6.json`)) {
        const r = readShard<Rehab>(`market/rehab/${zip}/6.json`);
        if (r.trend !== s.direction_30d || r.trend_pct !== s.direction_30d_pct) problems.push(`${zip}: rehab ${r.trend} ${r.trend_pct}, trends ${s.direction_30d} ${s.direction_30d_pct}`);
      }
    }
    expect(problems).toEqual([]);
    expect(nulls, 'the real build has zips without any rehab event source (Sacramento, NYC, Connecticut ...)').toBeGreaterThan(0);
  });
});

describe('investor overview: each null figure says why (note)', () => {
  test('Seattle: the King County file has no buyer column and no distress source covers WA: rate, flips and pipeline null, each explained', async () => {
    const [cols] = await rawQuery<{ c: string }>(`select string_agg(column_name, ',') as c from (describe select * from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}'))`);
    expect(cols!.c).not.toMatch(/buyer|grantee|owner/i);
    const r = readShard<Investor>('market/investor/WA/seattle/12.json');
    expect([r.investor_purchase_rate_pct, r.flip_velocity_days, r.gross_flip_margin_pct, r.distressed_pipeline_count]).toEqual([null, null, null, null]);
    expect(r.note).toMatch(/no buyer names: no investor purchase rate.*no flip velocity or margin/);
    expect(r.note).toMatch(/no distress source covers this city/);
  });

  test('Denver: buyer names (GRANTEE) and flips give figures; no distress source: only the pipeline is explained', async () => {
    const r = readShard<Investor>('market/investor/CO/denver/12.json');
    expect(r.investor_purchase_rate_pct).not.toBeNull();
    expect(r.flip_velocity_days).not.toBeNull();
    expect(r.distressed_pipeline_count).toBeNull();
    // of the null figures only the pipeline is explained (the note may open with the window's coverage: Denver's file
    // ends 2019-07-10, so July 2019 is a part month, market.md "Coverage of a window")
    // ... and, flip_velocity_days being given, the clause saying what it measures (FLIP_BASIS, last)
    expect(r.note).toMatch(/(^|; )no distress source covers this city \(no pre-foreclosure, tax-delinquent or lien filing on record\): no distressed pipeline count; flip_velocity_days is the median days from an investor's purchase deed to the property's resale deed, [^;]*$/);
    expect(r.note).not.toMatch(/no buyer names|no flip|no investor purchase rate/);
  });

  test('every investor shard: a note exactly when a figure is null, naming each null one', () => {
    const root = path.join(buildDir(), 'shards', 'market', 'investor');
    const problems: string[] = [];
    for (const state of fs.readdirSync(root)) {
      for (const city of fs.readdirSync(path.join(root, state))) {
        const r = readShard<Investor>(`market/investor/${state}/${city}/12.json`);
        const rate = r.investor_purchase_rate_pct === null, flip = r.flip_velocity_days === null, pipe = r.distressed_pipeline_count === null;
        const note = r.note ?? '';
        if ((rate || flip || pipe) !== (note !== '')) problems.push(`${state}/${city}: note ${r.note}`);
        if (rate !== /no investor purchase rate/.test(note)) problems.push(`${state}/${city}: rate ${r.investor_purchase_rate_pct}, note ${note}`);
        if (flip !== /no flip velocity or margin|flip velocity or flip margin/.test(note)) problems.push(`${state}/${city}: flips ${r.flip_velocity_days}, note ${note}`);
        if (pipe !== /no distressed pipeline count/.test(note)) problems.push(`${state}/${city}: pipeline ${r.distressed_pipeline_count}, note ${note}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('every investor shard, every window: no figure of 1-4 known buyers or flips (minimum cohort), and a note that says fewer than 5', async () => {
    const rows = await warehouseRows<{ state: string; slug: string; months: number; known: number; flips: number }>(`
      select state_code as state, city_slug as slug, months, known_buyer_sales::int as known, flips::int as flips from mart_investor`);
    const problems: string[] = [];
    let flipped = 0;
    for (const m of rows) {
      const r = readShard<Investor>(`market/investor/${m.state}/${m.slug}/${m.months}.json`);
      const note = r.note ?? '';
      if ((r.investor_purchase_rate_pct !== null) !== (m.known >= 5)) problems.push(`${m.state}/${m.slug}/${m.months}: rate ${r.investor_purchase_rate_pct} from ${m.known} known buyers`);
      if ((r.flip_velocity_days !== null || r.gross_flip_margin_pct !== null) && m.flips < 5) problems.push(`${m.state}/${m.slug}/${m.months}: flip figures from ${m.flips} flips`);
      if (m.known >= 1 && m.known <= 4 && !/fewer than 5 sales for value in the window record a buyer name: no investor purchase rate/.test(note)) problems.push(`${m.state}/${m.slug}/${m.months}: ${m.known} known buyers, note ${note}`);
      if (m.known > 0 && m.flips >= 1 && m.flips <= 4 && !/fewer than 5 investor flips .*: no flip velocity or margin/.test(note)) problems.push(`${m.state}/${m.slug}/${m.months}: ${m.flips} flips, note ${note}`);
      flipped += r.flip_velocity_days !== null ? 1 : 0;
    }
    expect(problems).toEqual([]);
    expect(flipped, 'Denver has 5 flips or more in every window').toBeGreaterThanOrEqual(22);
  });
});
