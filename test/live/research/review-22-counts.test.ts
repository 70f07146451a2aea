// The twenty-second review's research counts (finding 9): a count of permits asked of a zip or city is answered with
// the count by kind over the window asked (permit-counts.ts), not "not the permit counts themselves"; a kind of
// distress asked (tax-delinquent) is that kind's count where the filings record it (distress-kinds.ts); a zip's
// distressed count, said as its city's, names its records as filings, not sales (freshness.ts). Over the shared real
// build on the suite's pinned clock. Expected figures: the permits re-counted here over the canonical `permits` table
// (the zip rule of market.md mart_rehab re-derived: a guessed zip counts only in a zip of its own city), Louisville's
// filings from the raw lien-foreclosure file (a Commonwealth case is tax-delinquent, market.md "Louisville Metro").
import { describe, expect, it } from 'vitest';
import { sql } from '../../helpers/oracle-research.ts';
import { LOUISVILLE_CASES } from '../../helpers/oracle-distress.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;

/** A zip's permits by kind over the `months` to its permit source's last issue date. */
async function zipPermits(zip: string, months: number): Promise<{ asOf: string; of: (k: string) => number; all: number }> {
  const rows = await sql<{ t: string; n: number; a: string }>(`
    with own as (select * from permits where zip = $zip and (not coalesce(zip_imputed, false)
           or regexp_replace(lower(city), '[^a-z]', '', 'g') = (select regexp_replace(lower(any_value(city)), '[^a-z]', '', 'g') from zips where zip = $zip))),
    e as (select max(issue_date) as a from permits where source in (select source from own))
    select permit_type as t, count(*)::int as n, e.a::varchar as a from own, e
    where issue_date > e.a - to_months(${months}) and issue_date <= e.a group by all`, { zip });
  return { asOf: rows[0]!.a, of: (k) => rows.find((r) => r.t === k)?.n ?? 0, all: rows.reduce((s, r) => s + r.n, 0) };
}

describe('review 22 #9: permit counts', () => {
  it('a Nashville zip: renovation permits counted over the 12 months asked, with the window and the source', async () => {
    const p = await zipPermits('37206', 12);
    expect(p.of('renovation')).toBeGreaterThan(0);
    const a = await ask('How many renovation permits were issued in 37206 over the last 12 months?');
    expect(a).not.toMatch(/not the permit counts themselves/);
    expect(a).toContain(`${p.of('renovation').toLocaleString('en-US')} renovation/alteration permits were applied for in the 12 months to ${p.asOf}`);
    expect(a).toContain(`of ${p.all.toLocaleString('en-US')} permits of every kind`);
    expect(a).toMatch(/from the permit records of [^;.]*Nashville/i);
  });

  it('a Chicago zip: demolition permits counted, not "kept per community area only"', async () => {
    const p = await zipPermits('60623', 6);
    expect(p.of('demolition')).toBeGreaterThan(0);
    const a = await ask('How many demolition permits were issued in 60623 in the last 6 months?');
    expect(a).toContain(`${p.of('demolition').toLocaleString('en-US')} demolition permits were issued in the 6 months to ${p.asOf}`);
  });

  it('which Chicago zip has the most renovation permits: the city\'s zips ranked by their counts', async () => {
    const rows = await sql<{ zip: string; n: number; a: string }>(`
      with own as (select p.* from permits p join zips z using (zip) where z.city = 'Chicago' and z.state_code = 'IL'
             and (not coalesce(p.zip_imputed, false) or regexp_replace(lower(p.city), '[^a-z]', '', 'g') = 'chicago')),
      e as (select max(issue_date) as a from permits where source = 'chicago')
      select zip, count(*)::int as n, e.a::varchar as a from own, e
      where permit_type = 'renovation' and issue_date > e.a - to_months(12) and issue_date <= e.a group by all order by n desc, zip limit 3`);
    const a = await ask('Which Chicago zip has the most renovation permits?');
    expect(a).toContain(`${rows[0]!.zip} had the most renovation/alteration permits in the 12 months to ${rows[0]!.a}: ${rows.map((r) => `${r.zip} (${r.n.toLocaleString('en-US')})`).join(', ')}`);
  });
});

describe('review 22 #9: distress by kind, and its records named', () => {
  /** Louisville's distinct parcels of a kind with a case filed in the `months` to the file's last filing, not sold by then. */
  async function louisville(months: number, kind: 'tax_delinquent' | null): Promise<{ n: number; asOf: string }> {
    const [r] = await sql<{ n: number; a: string; unparcelled: number }>(`
      with c as (select *, case when regexp_matches(upper(style), '^\\s*(C/W|CW|COMM|COMMONWEALTH)\\b') then 'tax_delinquent' else 'lien_foreclosure' end as kind from ${LOUISVILLE_CASES}),
      e as (select max(filed) as a from c)
      select count(distinct parcel)::int as n, count(*) filter (where parcel is null)::int as unparcelled, e.a::varchar as a from c, e
      where filed > e.a - to_months(${months}) and filed <= e.a and (sold is null or sold > e.a) ${kind ? `and kind = '${kind}'` : ''} group by e.a`);
    expect(r!.unparcelled).toBe(0); // every filing of the window names its parcel: the count is of parcels
    return { n: r!.n, asOf: r!.a };
  }

  it('tax-delinquent properties in Louisville: the tax-delinquent count, beside every kind\'s', async () => {
    const [tax, all] = [await louisville(6, 'tax_delinquent'), await louisville(6, null)];
    expect(tax.n).toBeLessThan(all.n);
    const a = await ask('tax delinquent properties in Louisville KY over the last 6 months');
    expect(a).toContain(`${tax.n} tax-delinquent properties are in the pipeline over the 6 months to ${tax.asOf}, of ${all.n} distressed properties`);
  });

  it('a zip\'s distressed count said as its city\'s names its records filings, not sales', async () => {
    const all = await louisville(12, null);
    const a = await ask('How many distressed properties are in zip 40211?');
    expect(a).toContain(`${all.n} distressed properties`);
    expect(a).toMatch(/the latest filings in this source are from/);
    expect(a).not.toMatch(/latest sales/);
  });
});
