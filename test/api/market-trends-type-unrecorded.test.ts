// GET /v1/market/trends for a property type the market's sales sources record no sale of (audit h67): Denver land,
// Sacramento land and Seattle condo answered 60 empty months explained only by "no month ... complete with 20 or more
// sales", thin data where the source holds none. What each source records is read here from its raw file's own type
// column (Denver's assessor CLASS, Sacramento's `type`; King County's file has none); the answer's data_note and
// change_note must say so, a type the sources record elsewhere must not, and a market with sales keeps its figures
// (a month's count recomputed from the raw King County file). Then every trends shard of the build against the
// warehouse's sales: the note is said exactly where no source of the market records a sale of the type.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildDir, serveSharedBuild, warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { trendsBody, type StoredTrends } from '../../api/market-trends.ts';

interface Trends {
  property_type: string; series: { month: string; sales_count: number | null; median_price: number | null; price_index: number | null }[];
  summary: Record<string, unknown>; data_note: string | null; source?: { id: string; name: string };
}

const api = serveSharedBuild('builder', 100_000);

async function trends(q: string): Promise<Trends> {
  const res = await api.get(`/v1/market/trends?${q}&months=60`);
  expect(res.status, q).toBe(200);
  return (await res.json()) as Trends;
}

/** The property types a raw file's rows map to by their adapter's documented codes (SOURCE.md; warehouse/docs/market.md). */
async function rawTypes(file: string, column: string, codes: Record<string, string>): Promise<{ types: string[]; other: string[] }> {
  const rows = await rawQuery<{ v: string | null }>(`select distinct "${column}" as v from read_csv('${dataFile(file)}', all_varchar = true)`);
  const types = [...new Set(rows.flatMap((r) => (r.v !== null && codes[r.v] ? [codes[r.v]!] : [])))].sort();
  return { types, other: rows.map((r) => r.v ?? '(blank)').filter((v) => !codes[v]) };
}

function expectEmptyTypeAnswer(body: Trends, type: string): void {
  expect(body.series).toHaveLength(60);
  expect(body.series.every((m) => m.sales_count === null && m.median_price === null && m.price_index === null)).toBe(true);
  expect(body.summary['change_note']).toMatch(/^change_3m_pct, change_12m_pct and change_24m_pct are null: the market's sales source records no (\w+ sales|property type) \(data_note\)/);
  expect(String(body.summary['change_note'])).not.toContain('complete with 20');
  expect(body.property_type).toBe(type);
}

describe('a type the market sources record none of', () => {
  test('Denver land: its raw file holds single-family, rowhouse and condo classes only, and the answer says so', async () => {
    const raw = await rawTypes('denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz', 'CLASS',
      { R: 'sfr', H: 'sfr', O: 'condo', A: 'condo', B: 'condo' });
    expect(raw.types).toEqual(['condo', 'sfr']);
    expect(raw.other).toEqual(['(blank)']); // two rows without a class: rejected, of no type
    const body = await trends('city=Denver&state=CO&property_type=land');
    expectEmptyTypeAnswer(body, 'land');
    expect(body.summary['change_note']).toContain('records no land sales (data_note)');
    expect(body.data_note).toBe('The Denver real property sales and transfers 2018-2019 source (denver), the sales source of Denver, CO, records no land sale in any of its markets '
      + `(its sales are of the types ${raw.types.reverse().join(' and ')} only), so every month of this land series is empty (no sales_count, median or price index) `
      + 'because the data holds no land sale at all, not because fewer than 5 sold: land sales made here are not in this build');
  });

  test('Sacramento land and commercial: its raw `type` is Residential, Condo or Multi-Family', async () => {
    const raw = await rawTypes('sacramento-real-estate-transactions/sacramento_transactions.csv.gz', 'type',
      { Residential: 'sfr', Condo: 'condo', 'Multi-Family': 'multi' });
    expect(raw.types).toEqual(['condo', 'multi', 'sfr']);
    for (const type of ['land', 'commercial']) {
      const body = await trends(`city=Sacramento&state=CA&property_type=${type}`);
      expectEmptyTypeAnswer(body, type);
      expect(body.data_note).toMatch(new RegExp(`^The Sacramento real estate transactions \\(May 2008\\) source \\(sacramento\\), the sales source of Sacramento, CA, records no ${type} sale in any of its markets \\(its sales are of the types sfr, multi and condo only\\)`));
    }
  });

  test('Seattle and zip 98103 condo: the King County file has no type column, so condos cannot be told apart', async () => {
    const cols = await rawQuery<{ c: string }>(`select column_name as c from (describe select * from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))`);
    expect(cols.length).toBeGreaterThan(15);
    expect(cols.filter((r) => /type|class|use|condo/i.test(r.c))).toEqual([]);
    for (const q of ['city=Seattle&state=WA', 'zip=98103']) {
      const body = await trends(`${q}&property_type=condo`);
      expectEmptyTypeAnswer(body, 'condo');
      expect(body.summary['change_note']).toContain('records no property type (data_note)');
      expect(body.data_note).toContain(`The King County WA house sales 2014-2015 source (king_county), the sales source of ${q.startsWith('zip') ? 'zip 98103' : 'Seattle, WA'}, records no property type: `
        + 'every sale in it is counted as a single-family house (sfr), so condo sales cannot be told apart');
    }
  });

  test('a market with sales of the type answers as before: 98103 sfr, its April 2015 count the raw file\'s', async () => {
    const [raw] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
      where zipcode = '98103' and left(date, 6) = '201504'`);
    expect(raw!.n).toBeGreaterThan(20);
    const body = await trends('zip=98103&property_type=sfr');
    expect(body.series.find((m) => m.month === '2015-04')!.sales_count).toBe(raw!.n);
    expect(body.summary['change_end_month']).toBe('2015-04');
    expect(String(body.data_note ?? '')).not.toContain('records no');
    expect(String(body.summary['change_note'] ?? '')).not.toContain('records no');
    const denver = await trends('city=Denver&state=CO&property_type=condo');
    expect(denver.series.some((m) => (m.sales_count ?? 0) >= 20)).toBe(true);
    expect(String(denver.data_note ?? '')).not.toContain('records no');
  });

  test('a type the source records elsewhere, not in this zip, keeps the thin-data words (0 or 1-4 sales a month)', async () => {
    const [z] = await warehouseRows<{ zip: string }>(`select zip from sales where source = 'philadelphia' and zip is not null
      group by zip having count(*) filter (where property_type = 'land') = 0 and count(*) filter (where is_arms_length) > 0 order by count(*) desc, zip limit 1`);
    const [n] = await warehouseRows<{ n: number }>(`select count(*)::int as n from sales where source = 'philadelphia' and property_type = 'land'`);
    expect(n!.n).toBeGreaterThan(0);
    const body = await trends(`zip=${z!.zip}&property_type=land`);
    expect(String(body.data_note ?? '')).not.toContain('records no');
    expect(body.summary['change_note']).toContain('no month of the 60');
  });

  test('every trends shard: the note is said exactly where no source of the market records a sale of the type', async () => {
    const rows = await warehouseRows<{ source: string; types: string[] }>(`select source, list(distinct property_type order by property_type) as types from sales where source is not null group by all`);
    const recorded = new Map(rows.map((r) => [r.source, new Set(r.types)]));
    const root = path.join(buildDir(), 'shards', 'market', 'trends');
    const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(1000);
    const wrong: string[] = [];
    let said = 0;
    for (const f of files) {
      const stored = JSON.parse(fs.readFileSync(path.join(root, f), 'utf8')) as StoredTrends;
      const none = (stored.sources ?? []).length > 0 && (stored.sources ?? []).every((s) => !recorded.get(s)?.has(stored.property_type));
      const body = trendsBody(stored, 60) as Trends;
      const says = / records? no (property type|\w+ sale in any of)/.test(String(body.data_note ?? ''));
      if (says) said++;
      if (says !== none || (says && body.series.some((m) => m.sales_count !== null))) wrong.push(`${f}: says ${says}, none recorded ${none}`);
    }
    expect(wrong.slice(0, 10), `${wrong.length} wrong`).toEqual([]);
    expect(said).toBeGreaterThan(100);
  });
});

// GET /v1/market/comps of the same types (review h67): "no arm's-length sale of this type in the window" read as a count
// of 0 where the zip's source records no sale of the type at all (pipelines/marts/30_mart_comps.sql comps_type_unrecorded).
describe('comps of a type the zip sources record none of', () => {
  async function comps(q: string): Promise<{ sample_count: number | null; note: string | null; source?: { id: string } }> {
    const res = await api.get(`/v1/market/comps?${q}&months=12`);
    expect(res.status, q).toBe(200);
    return (await res.json()) as { sample_count: number | null; note: string | null; source?: { id: string } };
  }

  test('98103 condo says the King County file records no type; Sacramento 95823 land names the raw types', async () => {
    const condo = await comps('zip=98103&property_type=condo');
    expect(condo.sample_count).toBeNull();
    expect(condo.note).toContain("no arm's-length sale of this type in the window: the zip's sales source records no property type "
      + '(every sale is counted as a single-family house, sfr), so condo sales cannot be told apart: no count of them, not even 0; no price per square foot');
    const raw = await rawTypes('sacramento-real-estate-transactions/sacramento_transactions.csv.gz', 'type',
      { Residential: 'sfr', Condo: 'condo', 'Multi-Family': 'multi' });
    const order = ['sfr', 'multi', 'condo'].filter((t) => raw.types.includes(t));
    const land = await comps('zip=95823&property_type=land');
    expect(land.source?.id).toBe('sacramento');
    expect(land.note).toContain(`the zip's sales source records no land sale in any of its markets (its sales are of the types ${order.slice(0, -1).join(', ')} and ${order.at(-1)} only)`);
    const sfr = await comps('zip=98103&property_type=sfr');
    expect(sfr.sample_count).toBeGreaterThan(100);
    expect(String(sfr.note ?? '')).not.toContain('records no');
  });

  test('every comps row: the words are said exactly where no sale of the window is counted and no source of the zip records the type', async () => {
    const rows = await warehouseRows<{ zip: string; property_type: string; months: number; sale_count: number; says: boolean; none: boolean }>(`
      with zs as (select distinct zip, source from sales where zip is not null and source is not null and is_arms_length),
           recorded as (select distinct source, property_type from sales where source is not null)
      select m.zip, m.property_type, m.months, m.sale_count,
             coalesce(m.note, '') similar to '.*records no (property type|\\w+ sale in any of).*' as says,
             not exists (select 1 from zs join recorded r using (source) where zs.zip = m.zip and r.property_type = m.property_type) as none
      from mart_comps m`);
    expect(rows.length).toBeGreaterThan(1000);
    const wrong = rows.filter((r) => r.says !== (r.none && Number(r.sale_count) === 0));
    expect(wrong.slice(0, 10), `${wrong.length} wrong`).toEqual([]);
    expect(rows.filter((r) => r.says).length).toBeGreaterThan(1000);
  });
});
