// Market trends (issue 23) on the shared real build: the monthly series of every King County zip against its RAW file
// (parsed here with plain DuckDB, the arm's-length rules of warehouse/docs/market.md applied, never the build's
// tables or macros), the repeat-sales index against the King County median, the minimum cohort over every trends
// shard, and the 30-day direction of the rehab score and the trends, which read one definition, over every shard.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildDir, readShard } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { completeMonth, coveredMonth, rawPartialMonths } from '../helpers/oracle-complete-month.ts';
import type { StoredTrends } from '../../api/market-trends.ts';

interface StoredMonth {
  month: string; sales_count: number | null; median_price: number | null; index_sample_count: number;
  level: number | null; se: number | null; confidence: string; complete: boolean; covered: boolean; untyped_count: number;
}
/** A trends shard with its series (stored by column) as one object per month. */
function readTrends(rel: string): StoredTrends & { months: StoredMonth[] } {
  const s = readShard<StoredTrends>(rel);
  const c = s.series;
  return { ...s, months: c.month.map((month, i) => ({
    month, sales_count: c.sales_count[i]!, median_price: c.median_price[i]!, index_sample_count: c.index_sample_count[i]!, level: c.level[i]!,
    se: c.se[i]!, confidence: c.confidence[i]!, complete: c.complete[i]!, covered: c.covered![i]!, untyped_count: c.untyped_count[i]!,
  })) };
}

/** King County's raw sales: prices of at least $10,000, a sale recorded twice (id, date, price) counted once. */
const KC = `
  with raw as (
    select zipcode as zip, strptime("date", '%Y%m%dT%H%M%S')::date as d, try_cast(price as double) as price, id
    from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
  )
  select distinct zip, d, price, id from raw where price >= 10000 and regexp_full_match(zip, '[0-9]{5}')`;

const shardsUnder = (rel: string): string[] => {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.name.endsWith('.json')) out.push(path.relative(path.join(buildDir(), 'shards'), abs));
    }
  };
  const root = path.join(buildDir(), 'shards', rel);
  if (fs.existsSync(root)) walk(root); // a zip without sales of any type has no trends folder
  return out.sort();
};

describe('market_monthly against the raw King County file', () => {
  test('every King County zip: each month\'s count and median price within 0.1%; months under 5 sales are null', async () => {
    const raw = await rawQuery<{ zip: string; month: string; n: number; median: number; as_of: string }>(`
      with s as (${KC})
      select zip, strftime(d, '%Y-%m') as month, count(*)::int as n, median(price) as median,
             strftime(max(max(d)) over (partition by zip), '%Y-%m') as as_of
      from s group by zip, month order by zip, month`);
    const zips = [...new Set(raw.map((r) => r.zip))];
    expect(zips.length).toBe(70);
    const [span] = await rawQuery<{ first: string; last: string }>(`
      select strftime(min(d), '%Y-%m-%d') as first, strftime(max(d), '%Y-%m-%d') as last
      from (select strptime("date", '%Y%m%dT%H%M%S')::date as d from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))`);
    expect(span).toEqual({ first: '2014-05-02', last: '2015-05-27' });
    const kcPartial = (await rawPartialMonths()).get('king_county')!;
    expect([...kcPartial]).toEqual(['2015-05']); // 646 sales to the 27th against 2,231 in April; January's 978 pass
    let compared = 0, partial = 0;
    for (const zip of zips) {
      const stored = readTrends(`market/trends/zip/${zip}/sfr.json`);
      expect(stored.months.length).toBe(60);
      const rows = raw.filter((r) => r.zip === zip);
      expect(stored.months.at(-1)!.month).toBe(rows[0]!.as_of); // the series ends at the zip's last sale
      const byMonth = new Map(stored.months.map((m) => [m.month, m]));
      for (const r of rows) {
        const m = byMonth.get(r.month);
        expect(m, `${zip} ${r.month}`).toBeDefined();
        if (r.n < 5) {
          expect(m!.sales_count, `${zip} ${r.month}`).toBeNull();
          expect(m!.median_price, `${zip} ${r.month}`).toBeNull();
          continue;
        }
        expect(m!.sales_count, `${zip} ${r.month}`).toBe(r.n);
        // review 17: a month the file covers in part only (May 2015: it ends on the 27th) keeps its count, no median
        if (!coveredMonth(r.month, [span!])) { expect(m!.median_price, `${zip} ${r.month}`).toBeNull(); continue; }
        expect(Math.abs(m!.median_price! - r.median) / r.median, `${zip} ${r.month}`).toBeLessThanOrEqual(0.001);
        compared++;
      }
      // months without a raw sale carry no figure
      const known = new Set(rows.map((r) => r.month));
      for (const m of stored.months) if (!known.has(m.month)) expect(m.sales_count).toBeNull();
      // a month is complete by the raw file's span (its first and last sale day over every row) and the raw file's
      // total monthly counts (not the zip's own: its winter dip is no partial month): the months before it and its last
      // month, cut on 2015-05-27, are not (low confidence)
      stored.months.forEach((m) => {
        expect(m.complete, `${zip} ${m.month}`).toBe(!kcPartial.has(m.month) && coveredMonth(m.month, [span!]));
        if (!m.complete) { expect(m.confidence, `${zip} ${m.month}`).toBe('low'); partial++; }
      });
    }
    expect(compared).toBeGreaterThan(500);
    expect(partial).toBeGreaterThan(70 * 47); // the 47 months before May 2014 in every zip, and May 2015 (the file ends on the 27th)
  });

  test('King County: every resale is within 13 months (a flip), so every market uses the median model; Seattle\'s index tracks the median of its own raw sales within its stated 95% interval', async () => {
    const [longest] = await rawQuery<{ days: number }>(`
      with s as (${KC}), p as (select d - lag(d) over (partition by id order by d) as days from s)
      select max(days)::int as days from p`);
    expect(longest!.days).toBeLessThan(365); // REPEAT_SALES_MIN_DAYS: no King County pair qualifies
    const raw = await rawQuery<{ zip: string }>(`with s as (${KC}) select distinct zip from s`);
    for (const { zip } of raw) expect(readShard<StoredTrends>(`market/trends/zip/${zip}/sfr.json`).method, zip).toBe('median');
    const stored = readTrends('market/trends/city/WA/seattle/sfr.json');
    expect(stored.method).toBe('median');
    // Seattle's sales: those in the zips Seattle's geo lookup lists (market.md "City from zip"), not the county's
    const seattleZips = readShard<{ zip_codes: string[] }>('geo/lookup/WA/seattle.json').zip_codes.map((z) => `'${z}'`).join(', ');
    const own = new Map((await rawQuery<{ month: string; median: number }>(`
      with s as (${KC}) select strftime(d, '%Y-%m') as month, median(price) as median from s where zip in (${seattleZips}) group by month`)).map((r) => [r.month, r.median]));
    const months = stored.months.filter((m) => m.level !== null && own.has(m.month));
    expect(months.length).toBe(12); // 2014-05..2015-04: May 2015, covered to the 27th only, has no level (review 17)
    const base = months[0]!;
    for (const m of months.slice(1)) {
      const index = m.level! - base.level!;
      const median = Math.log(own.get(m.month)! / own.get(base.month)!);
      // the interval the answer states for the median model: 1.96 sqrt(se^2 + se_base^2) on the log scale (warehouse/price-index.ts rebase)
      expect(Math.abs(index - median), m.month).toBeLessThanOrEqual(1.959964 * Math.hypot(m.se!, base.se!));
    }
  });

  test('NYC records no buyer names, so no NYC pair can be screened for flips: every NYC market uses the median model', async () => {
    const files = ['2021-04_2022-03', '2023-03_2024-02'].map((w) => dataFile(`nyc-rolling-sales/nyc_rolling_sales_${w}.csv.gz`));
    for (const f of files) {
      const columns = await rawQuery<{ column_name: string }>(`describe select * from read_csv('${f}', all_varchar = true)`);
      expect(columns.length).toBeGreaterThan(15);
      expect(columns.filter((c) => /buyer|grantee|purchaser/i.test(c.column_name))).toEqual([]);
    }
    const zips = await rawQuery<{ zip: string }>(`
      select distinct "ZIP CODE" as zip from read_csv([${files.map((f) => `'${f}'`).join(', ')}], all_varchar = true)
      where regexp_full_match("ZIP CODE", '[0-9]{5}') and "ZIP CODE" <> '00000'`);
    const nyc = [...zips.flatMap(({ zip }) => shardsUnder(`market/trends/zip/${zip}`)), ...shardsUnder('market/trends/city/NY/new-york')];
    expect(nyc.length).toBeGreaterThan(300);
    // before the rule, unscreened pairs made 36 NYC series repeat-sales ones (single-family +65% in 24 months)
    for (const f of nyc) expect(readShard<StoredTrends>(f).method, f).toBe('median');
  });

  test('the index choice: Denver\'s single-family market has 30+ screened pairs but no month with 20 pair ends, beside hundreds of sales a month, so it uses the median model and has change figures', () => {
    const denver = readTrends('market/trends/city/CO/denver/sfr.json');
    expect(denver.pair_count).toBeGreaterThanOrEqual(30); // enough pairs for repeat sales by count alone
    expect(denver.method).toBe('median');
    expect(denver.months.filter((m) => m.index_sample_count >= 20).length).toBeGreaterThan(12); // sales, not pair ends
    expect(denver.summary['change_12m_pct']).not.toBeNull();
    // every repeat-sales series (none at the real build) has pair ends of 20+ in at least one month
    for (const f of shardsUnder('market/trends').filter((x) => readShard<StoredTrends>(x).method === 'repeat_sales')) {
      expect(readTrends(f).months.some((m) => m.index_sample_count >= 20), f).toBe(true);
    }
  });
});

describe('every trends shard', () => {
  test('the minimum cohort: no figure from fewer than 5 sales, no index from fewer than 5 sales or pair ends', () => {
    const files = shardsUnder('market/trends');
    expect(files.length).toBeGreaterThan(3000);
    for (const f of files) {
      const s = readTrends(f);
      for (const m of s.months) {
        if (m.sales_count !== null) expect(m.sales_count, f).toBeGreaterThanOrEqual(5);
        else expect(m.median_price, f).toBeNull();
        if (m.index_sample_count < 5) expect(m.level, f).toBeNull();
      }
    }
  });

  test('the 3/12/24-month changes: from the latest complete month with 20+ sales back n months to a month with 20+ sales of its subtype mix, from the stored levels; else null', async () => {
    // complete: covered (the stored flag, tested against the raw files' spans above, in market-trends-sources.test.ts
    // and over given rows in market-trends-coverage.test.ts) and no partial month of the market's source by the raw
    // files' monthly totals (oracle-complete-month.ts rawPartialMonths)
    const partials = await rawPartialMonths();
    let nonNull = 0, thin = 0, partial = 0, ownDip = 0;
    for (const f of shardsUnder('market/trends')) {
      const s = readTrends(f);
      const n = s.months.map((m) => m.index_sample_count);
      const solid = s.months.map((m) => m.level !== null && m.index_sample_count >= 20);
      let last = solid.length - 1;
      const complete = s.months.map((m) => m.covered && !s.sources!.some((src) => partials.get(src)!.has(m.month)));
      s.months.forEach((m, i) => expect(m.complete, `${f} ${m.month}`).toBe(complete[i]));
      ownDip += s.months.filter((m, i) => m.complete && !completeMonth(n, i)).length;
      while (last >= 0 && !(solid[last] && complete[last])) last--;
      if (solid.lastIndexOf(true) > last) partial++;
      expect(s.summary['change_end_month'], f).toBe(last >= 0 ? s.months[last]!.month : null); // the month every change ends on
      // the median model's months by subtype mix (warehouse/price-mix.ts): a month of Connecticut's 2022 extract (no
      // residential subtype) is no end of a change whose other end is typed; 5% of the other kind is a stray
      const kind = (i: number): string => {
        const u = s.months[i]!.untyped_count / Math.max(n[i]!, 1);
        return u <= 0.05 ? 'typed' : u >= 0.95 ? 'untyped' : 'mixed';
      };
      const like = (i: number, j: number): boolean => s.method !== 'median' || (kind(i) === kind(j) && kind(i) !== 'mixed');
      for (const k of [3, 12, 24]) {
        const got = s.summary[`change_${k}m_pct`] as number | null;
        const ok = last >= k && solid[last - k] && complete[last - k]; // both ends complete
        if (!ok) { expect(got, `${f} ${k}m`).toBeNull(); if (last >= k && s.months[last - k]!.level !== null) thin++; continue; }
        if (!like(last - k, last)) {
          expect(got, `${f} ${k}m`).toBeNull();
          expect(s.summary['change_note'], `${f} ${k}m`).toContain(`change_${k}m_pct is null: `);
          continue;
        }
        nonNull++;
        // the change is stored to 0.1 point and the levels rounded too: within 0.1 point
        expect(Math.abs(got! - 100 * (Math.exp(s.months[last]!.level! - s.months[last - k]!.level!) - 1)), `${f} ${k}m`).toBeLessThan(0.1);
      }
    }
    expect(nonNull).toBeGreaterThan(100); // most markets are too thin at one end
    expect(ownDip).toBeGreaterThan(1000); // complete months under half of the market's own months around them (98103's 2015-01)
    expect(thin).toBeGreaterThan(0); // changes from a month of 5-19 sales exist to be refused (Philadelphia's first months)
    expect(partial).toBeGreaterThan(0); // partial last months with 20+ sales exist to be passed over
    const philly = readTrends('market/trends/city/PA/philadelphia/sfr.json');
    expect(philly.summary['change_12m_pct']).toBeNull(); // from November 2021: 2 sales
    // December 2022 (33 sales, the file's last days) is passed over: a change would end in November
    const at = (m: string) => philly.months.find((x) => x.month === m)!;
    expect(at('2022-12').index_sample_count).toBeLessThan(at('2022-11').index_sample_count / 2);
    // and starts nowhere before September: August's 97 sales are under half of September's (the roll keeps each
    // parcel's last sale only), so no 3-month change (it read +24.3%, August -> November)
    expect(at('2022-08').index_sample_count).toBeLessThan(at('2022-09').index_sample_count / 2);
    expect(at('2022-08').index_sample_count).toBeGreaterThanOrEqual(20); // solid by count: only completeness refuses it
    expect(philly.summary['change_3m_pct']).toBeNull();
  });

  test('Philadelphia\'s raw roll: single-family sales of August 2022 are under half of September\'s (a thin, survivor-biased base month), so the city has no 3-month change', async () => {
    // OPA keeps each parcel's last sale only: the months before its coverage starts hold the parcels not sold since
    const raw = await rawQuery<{ month: string; n: number; median: number }>(`
      select strftime(d, '%Y-%m') as month, count(*)::int as n, median(p) as median
      from (select try_cast(left(sale_date, 10) as date) as d, try_cast(sale_price as double) as p
            from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
            where trim(category_code_description) = 'SINGLE FAMILY' and trim(building_code_description) not like 'RES CONDO%'
              and trim(building_code_description) <> 'CONDO PARKING SPACE')
      where p >= 10000 and d between date '2022-06-01' and date '2022-11-30' group by month order by month`);
    const by = new Map(raw.map((r) => [r.month, r]));
    expect(by.get('2022-08')!.n).toBeGreaterThanOrEqual(20); // enough sales by count alone
    expect(by.get('2022-08')!.n).toBeLessThan(by.get('2022-09')!.n / 2);
    expect(by.get('2022-09')!.n).toBeGreaterThanOrEqual(by.get('2022-10')!.n / 2); // September is a base
    // what the thin base made: the raw medians rise over 15% August -> November (the +24.3% the API gave)
    expect(by.get('2022-11')!.median / by.get('2022-08')!.median).toBeGreaterThan(1.15);
    const philly = readShard<StoredTrends>('market/trends/city/PA/philadelphia/sfr.json');
    expect(philly.summary['change_3m_pct']).toBeNull();
    expect(philly.summary['change_12m_pct']).toBeNull();
  });

  test('Connecticut\'s 2022 file records no residential subtype: its sales in a town\'s single-family months are counted as untyped, and those months are low confidence', async () => {
    const raw = await rawQuery<{ month: string; n: number }>(`
      select strftime(strptime("Date Recorded", '%m/%d/%Y'), '%Y-%m') as month, count(*)::int as n
      from read_csv('${dataFile('connecticut-real-estate-sales/real_estate_sales_2022-01_2022-09_listyear2021.csv.gz')}', all_varchar = true)
      where "Town" = 'Stamford' and "Property Type" = 'Residential' and try_cast(replace("Sale Amount", ',', '') as double) >= 10000
      group by month order by month`);
    expect(raw.map((r) => r.month)).toEqual(['2022-01', '2022-02', '2022-03', '2022-04', '2022-05', '2022-06', '2022-07', '2022-08', '2022-09']);
    const s = readTrends('market/trends/city/CT/stamford/sfr.json');
    const at = new Map(s.months.map((m) => [m.month, m]));
    let untyped = 0, rawTotal = 0;
    for (const r of raw) {
      const m = at.get(r.month)!;
      expect(m.untyped_count, r.month).toBeGreaterThan(0);
      expect(m.untyped_count, r.month).toBeLessThanOrEqual(r.n); // a duplicate record counts once
      expect(m.untyped_count, r.month).toBeLessThanOrEqual(m.sales_count ?? 0);
      expect(m.confidence, r.month).toBe('low');
      untyped += m.untyped_count; rawTotal += r.n;
    }
    expect(untyped).toBeGreaterThan(0.95 * rawTotal);
    // the other file's months tell single-family from condo: none untyped
    for (const m of s.months) if (m.month >= '2022-10') expect(m.untyped_count, m.month).toBe(0);
  });

  test('rehab and trends never disagree on the 30-day direction nor on the day its windows end', () => {
    const rehab = shardsUnder('market/rehab');
    expect(rehab.length).toBeGreaterThan(1000);
    let compared = 0;
    for (const f of rehab) {
      const zip = f.split('/')[2]!;
      const { trend, trend_end: end } = readShard<{ trend: string; trend_end: string }>(f);
      for (const type of ['sfr', 'multi', 'condo', 'land', 'commercial']) {
        const rel = `market/trends/zip/${zip}/${type}.json`;
        if (!fs.existsSync(path.join(buildDir(), 'shards', rel))) continue;
        const { summary } = readShard<StoredTrends>(rel);
        expect([summary['direction_30d'], summary['direction_30d_end']], `${zip} ${type}`).toEqual([trend, end]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
