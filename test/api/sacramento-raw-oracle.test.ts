// Sacramento's comps (all three percentiles and the counts) and trends (a zip's and the city's month) over HTTP against
// the RAW file, by its SOURCE.md and warehouse/docs/market.md written out in this file's own SQL (h67 audit): types
// Residential -> sfr, Condo -> condo, Multi-Family -> multi ("Unkown" rejected); prices under $10,000 left out; sq__ft 0
// is unknown; a sale recorded twice (one street, zip, date and price) counts once, and so does a near copy (one street,
// zip, date and the same facts at prices within 0.5% of the higher: 1223 LAMBERTON CIR, 95838, $155,435 and $155,500).
// Before this file only the comps median was recomputed from the raw file (oracle-raw-comps.ts); the quartiles and the
// trends' counts were not.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

const api = serveSharedBuild('pro');

const SALES = `
  with raw as (
    select row_number() over () as line, upper(trim(street)) as street, trim(zip) as zip, upper(trim(city)) as city, try_cast(sale_date_iso as date) as d,
      try_cast(price as double) as p, nullif(try_cast(sq__ft as int), 0) as sqft, beds, baths,
      case trim(type) when 'Residential' then 'sfr' when 'Condo' then 'condo' when 'Multi-Family' then 'multi' end as t
    from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)),
  kept as (select *, row_number() over (partition by street, zip, d, t, beds, baths, sqft order by line) as k,
      (max(p) over (partition by street, zip, d, t, beds, baths, sqft) - min(p) over (partition by street, zip, d, t, beds, baths, sqft))
        / max(p) over (partition by street, zip, d, t, beds, baths, sqft) <= 0.005 as one_sale
    from raw where t is not null and p >= 10000),
  sales as (select * from kept where k = 1 or not one_sale)`;

interface Cohort { key: string; n: number; comps: number; p25: number | null; median: number | null; p75: number | null }
let zips: Map<string, Cohort>;
let city: Map<string, number>;

beforeAll(async () => {
  const rows = await rawQuery<Cohort>(`${SALES}
    select zip || '|' || t as key, count(*)::int as n, count(sqft)::int as comps,
      quantile_cont(p / sqft, 0.25) as p25, quantile_cont(p / sqft, 0.5) as median, quantile_cont(p / sqft, 0.75) as p75
    from sales group by all`);
  zips = new Map(rows.map((r) => [r.key, r]));
  city = new Map((await rawQuery<{ t: string; n: number }>(`${SALES} select t, count(*)::int as n from sales where city = 'SACRAMENTO' group by t`)).map((r) => [r.t, r.n]));
}, 60_000);

const near = (got: number | null, want: number | null): boolean => (got === null || want === null ? got === want : Math.abs(got - want) <= 0.005 + 1e-9);

describe('Sacramento against its raw file', () => {
  test('comps 95823, 95828, 95838 sfr (12 months: the whole week): comps count and price per sqft quartiles', async () => {
    const bad: string[] = [];
    for (const zip of ['95823', '95828', '95838']) {
      const w = zips.get(`${zip}|sfr`)!;
      expect(w.comps).toBeGreaterThanOrEqual(20);
      const res = await api.get(`/v1/market/comps?zip=${zip}&months=12&property_type=sfr`);
      expect(res.status).toBe(200);
      const b = (await res.json()) as { sample_count: number | null; price_per_sqft: { p25: number | null; median: number | null; p75: number | null }; as_of: string };
      expect(b.as_of).toBe('2008-05-21');
      if (b.sample_count !== w.comps || !near(b.price_per_sqft.p25, w.p25) || !near(b.price_per_sqft.median, w.median) || !near(b.price_per_sqft.p75, w.p75)) {
        bad.push(`${zip}: api ${b.sample_count} ${JSON.stringify(b.price_per_sqft)}, raw ${w.comps} ${w.p25} / ${w.median} / ${w.p75}`);
      }
    }
    expect(bad).toEqual([]);
    // the near copy is counted once: 37 rows of $10,000+ in the file, 36 sales
    expect(zips.get('95838|sfr')!.n).toBe(36);
  });

  test('trends: May 2008 sales of zips 95823 and 95828 and of the city, every type', async () => {
    const bad: string[] = [];
    const month = async (q: string): Promise<number | null> => {
      const res = await api.get(`/v1/market/trends?${q}&months=3`);
      expect(res.status, q).toBe(200);
      const b = (await res.json()) as { series: { month: string; sales_count: number | null }[] };
      return b.series.find((s) => s.month === '2008-05')?.sales_count ?? null;
    };
    for (const zip of ['95823', '95828']) {
      const got = await month(`zip=${zip}&property_type=sfr`);
      if (got !== zips.get(`${zip}|sfr`)!.n) bad.push(`${zip} sfr: api ${got}, raw ${zips.get(`${zip}|sfr`)!.n}`);
    }
    for (const t of ['sfr', 'condo', 'multi']) {
      const want = city.get(t)!;
      expect(want).toBeGreaterThanOrEqual(5);
      const got = await month(`city=Sacramento&state=CA&property_type=${t}`);
      if (got !== want) bad.push(`Sacramento ${t}: api ${got}, raw ${want}`);
    }
    expect(bad).toEqual([]);
  });
});
