// GET /v1/market/comps says how many of the window's sales of the type it left out as not arm's-length, and why
// (review 26: Philadelphia 19134's 12-month single-family comps dropped 14 portfolio deeds and 19 sales far under their
// assessed value by market.md's "Arm's-length rule" and never said so). The note's clause (mart_comps comps_left_out)
// is recomputed here from the raw Philadelphia file by market.md's rules for its fields, without the build: a price
// under $10,000 nominal; a roll-value-to-price ratio outside the 3 IQR fences of its type (over the sales of $10,000 or
// more outside portfolio deeds) an assessment-ratio outlier; two or more parcels on one date at one price sharing a
// book and page or an owner a portfolio deed; each sale by its first flag (the rule's reason, else portfolio, else
// duplicate). A real server over the shared build.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PHILADELPHIA_BUYER, PHILADELPHIA_DATE, PHILADELPHIA_DOC, PHILADELPHIA_ROWS, PHILADELPHIA_TYPE, rawComps, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
afterAll(async () => { await srv.close(); });

const WORDS: Record<string, string> = { nominal_price: 'nominal price', assessment_ratio: 'price out of line with the assessed value', portfolio: 'portfolio (multi-parcel) deed', duplicate: 'duplicate record' };

/** The raw Philadelphia sales of a zip and type left out of its window's comps, by first flag. */
async function leftOut(zip: string, type: string, months: number): Promise<{ why: string; n: number }[]> {
  return rawQuery<{ why: string; n: number }>(`
    with recorded as (
      select left(trim(zip_code), 5) as zip, ${PHILADELPHIA_DATE} as d, try_cast(sale_price as double) as price, trim(parcel_number) as prop,
             ${PHILADELPHIA_DOC} as doc, ${PHILADELPHIA_BUYER} as buyer, try_cast(market_value as double) as assessed, ${PHILADELPHIA_TYPE} as type
      from ${PHILADELPHIA_ROWS}),
    marked as (
      select *, (doc is not null and count(distinct prop) over (partition by doc, d, price) >= 2)
                or (buyer is not null and count(distinct prop) over (partition by buyer, d, price) >= 2) as portfolio,
             row_number() over (partition by prop, d, price) as copy
      from recorded where regexp_full_match(zip, '[0-9]{5}') and d is not null and year(d) >= 1800 and price is not null and type is not null),
    fences as (
      select type, quantile_cont(assessed / price, 0.25) as q1, quantile_cont(assessed / price, 0.75) as q3
      from marked where price >= 10000 and not portfolio and assessed > 0 group by all having count(*) >= 30),
    flagged as (
      select m.*, coalesce(case when price < 10000 then 'nominal_price'
                                when assessed > 0 and (assessed / price < q1 - 3 * (q3 - q1) or assessed / price > q3 + 3 * (q3 - q1)) then 'assessment_ratio' end,
                           case when portfolio then 'portfolio' when copy > 1 then 'duplicate' end) as why
      from marked m left join fences f using (type)),
    e as (select max(d) as e from flagged where zip = '${zip}' and why is null)
    select why, count(*)::int as n from flagged, e
    where zip = '${zip}' and type = '${type}' and why is not null and d > e.e - to_months(${months}) and d <= e.e
    group by why order by n desc, why`);
}

test('Philadelphia 19134 single-family, 12 months: the note counts the sales left out by reason, as the raw file does', async () => {
  const out = await leftOut('19134', 'sfr', 12);
  const of = (w: string): number => out.find((r) => r.why === w)?.n ?? 0;
  expect(of('portfolio')).toBeGreaterThan(0);
  expect(of('assessment_ratio')).toBeGreaterThan(0);
  const total = out.reduce((s, r) => s + r.n, 0);
  const res = await srv.get('/v1/market/comps?zip=19134&property_type=sfr&months=12', srv.key('builder'));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { sample_count: number; note: string | null };
  expect(body.sample_count).toBe((await rawComps()).get('19134|sfr|12')!.n);
  expect(body.note).toContain(`${total} other sales of this type in the window are left out as not arm's-length: ${out.map((r) => `${r.n} ${WORDS[r.why]}`).join(', ')}`);
});

test('a window with no sale left out says nothing of it', async () => {
  // King County's file (one row per sale, every price a market one): 98103's window has nothing flagged
  const res = await srv.get('/v1/market/comps?zip=98103&property_type=sfr&months=6', srv.key('builder'));
  expect(res.status).toBe(200);
  expect(((await res.json()) as { note: string | null }).note ?? '').not.toMatch(/left out as not arm's-length/);
});
