// The thirteenth research review's window, topic and caveat findings, over the shared real build on the suite's pinned
// clock: a window's months the source does not cover are said, a span past the data says the data's own start and
// stays the change asked, "investors in <city>" is its investor overview, a flip figure not kept says the mart's note,
// a county's filings name the window's municipalities, and a place compared whose record says "no cap" is not "no
// data". Expected figures are our own SQL over the raw files in ../shared/data and the canonical tables (oracle_arms,
// oracle-research-market.ts; the regulation rows, oracle-research.ts).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { regKey, regs, sd, sql } from '../../helpers/oracle-research.ts';
import { investorOracle } from '../../helpers/oracle-research-market.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const ask = askWithSalesOracle();
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const NYC = ['nyc-rolling-sales/nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz'];

describe('a window with months the source does not cover says them', () => {
  it('Queens over 2 years: its 24 months to 2024-02-29 hold sales of 13 months only (no file for 2022-04..2023-02)', async () => {
    const [raw] = await rawQuery<{ months: number; first: string }>(`select count(distinct strftime(cast("SALE DATE" as date), '%Y-%m'))::int as months
      from read_csv([${NYC.map((f) => `'${dataFile(f)}'`).join(', ')}], all_varchar = true)
      where cast("SALE DATE" as date) > date '2024-02-29' - interval 24 month and cast("SALE DATE" as date) <= date '2024-02-29'`);
    expect(raw!.months).toBe(13);
    // the borough's arm's-length single-family sales of the window: each sale's borough read from its raw file's line
    const [w] = await sql<{ n: number; median: number }>(`with raw as (
        select 'a' as f, row_number() over () + 1 as line, "BOROUGH" as b from read_csv('${dataFile(NYC[0]!)}', all_varchar = true)
        union all select 'b', row_number() over () + 1, "BOROUGH" from read_csv('${dataFile(NYC[1]!)}', all_varchar = true))
      select count(*)::int as n, quantile_cont(s.sale_price, 0.5) as median from oracle_arms s
      join raw on s.line = raw.line and raw.f = case when s.file like '%2021-04_2022-03%' then 'a' else 'b' end
      where s.source = 'nyc' and raw.b = '4' and s.property_type = 'sfr' and s.sale_date > date '2024-02-29' - interval 24 month and s.sale_date <= date '2024-02-29'`);
    const r = await ask('median price in queens over 2 years');
    expect(r.answer).toContain(`the median of the ${w!.n.toLocaleString('en-US')} arm's-length single-family sales in the 24 months to 2024-02-29 (the source covers none of 2022-04 to 2023-02, inside this window, so these sales fall in the ${raw!.months} months of it the source covers`);
    expect(r.answer).toContain(`was ${usd(w!.median)}`);
    expect((await ask('how many homes sold in queens in the last 24 months')).answer).toContain('the source covers none of 2022-04 to 2023-02, inside this window');
  });
});

describe('a span past the data', () => {
  it('Seattle over 5 years says the data starts 2014-05 (raw), not the 60-month series\' start', async () => {
    const [raw] = await rawQuery<{ m: string }>(`select strftime(min(strptime(substr(date, 1, 8), '%Y%m%d')), '%Y-%m') as m from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)`);
    const r = await ask('median price in Seattle over the past 5 years');
    expect(r.answer).toContain(`there is no 60-month index change: the data does not reach back that far (its first sales are in ${raw!.m})`);
    expect(r.answer).not.toMatch(/it starts in 2010/);
  });
  it('Queens price change over 5 years leads with the 60 months asked (none: the data starts 2021-04), not a 3-month change', async () => {
    const [raw] = await rawQuery<{ m: string }>(`select strftime(min(cast("SALE DATE" as date)), '%Y-%m') as m from read_csv([${NYC.map((f) => `'${dataFile(f)}'`).join(', ')}], all_varchar = true)`);
    const r = await ask('queens price change over 5 years');
    expect(r.answer).toContain(`In Queens, NY, single-family prices have no 60-month change: the data does not reach back that far (its first sales are in ${raw!.m})`);
    expect(r.answer).not.toMatch(/changed [+-][\d.]+% over the 3 months/);
  });
});

describe('investor topics', () => {
  it('"investors in denver" is Denver\'s investor overview, not a tax lien rule', async () => {
    const rate = await investorOracle('CO', 'Denver', 12);
    const r = await ask('investors in denver');
    expect(r.answer).toContain(`In Denver, CO, investors bought ${rate}% of the homes sold in the 12 months to`);
    expect(r.answer).not.toMatch(/tax lien/);
  });
  it('flip velocity in Philadelphia: the mart\'s note says why there is none, never dropped silently', async () => {
    for (const q of ['flip velocity philadelphia', 'how many days do flips take in philly']) {
      const r = await ask(q);
      expect(r.answer, q).toContain('but no investor purchase resold 1 to 365 days later has its resale in the window (a flip needs both deeds in the records): no flip velocity or margin');
    }
    // King County's file has no buyer column: no investor purchase, so no flip, said once, not the note twice over
    const [cols] = await rawQuery<{ n: number }>(`select count(*)::int as n from (describe select * from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}')) where column_name ilike '%buyer%' or column_name ilike '%grantee%'`);
    expect(cols!.n).toBe(0);
    expect((await ask('flip velocity seattle')).answer).toContain('carry no buyer names, so the investor share is unknown, and without buyer names no investor purchase, and so no flip, can be told: no flip velocity or margin');
  });
  it('Allegheny County\'s filings name the window\'s municipalities (raw: 112 in 12 months, 107 in 6), not the whole file\'s', async () => {
    const [raw] = await rawQuery<{ m12: number; m6: number; all: number }>(`select count(distinct municipality) filter (where filing_date > date '2022-08-30' - interval 12 month)::int as m12,
      count(distinct municipality) filter (where filing_date > date '2022-08-30' - interval 6 month)::int as m6, count(distinct municipality)::int as "all"
      from read_csv('${dataFile('allegheny-county-mortgage-foreclosures/foreclosures.csv.gz')}')`);
    expect(raw!.m12).toBeLessThan(raw!.all);
    expect((await ask('distressed properties in allegheny county')).answer).toContain(`each counted once, in the ${raw!.m12} municipalities with open filings in the window`);
    expect((await ask('foreclosure filings in allegheny county last 6 months')).answer).toContain(`each counted once, in the ${raw!.m6} municipalities with open filings in the window`);
  });
});

describe('places compared on a record found by full-text search', () => {
  // ("texas vs florida for landlords" is now the states' landlord friendliness: review-15.test.ts)
  it('"texas vs florida statutory cap": Texas\'s deposit record says no cap, so Texas is not "no data"', async () => {
    const tx = sd(regs.get(regKey('TX', 'landlord_tenant', 'security_deposit')));
    expect(tx?.['has_statutory_cap']).toBe(false);
    const r = await ask('texas vs florida statutory cap');
    expect(r.answer).toContain('Texas no statutory cap');
    expect(r.answer).not.toMatch(/Texas:? no data/);
  });
});
