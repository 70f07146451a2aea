// Denver's market answers over HTTP against a recomputation from the RAW deeds file (h67 audit; test/helpers/
// oracle-denver.ts: the arm's-length rule, sales for value and the investor classifier written out again from
// warehouse/docs/market.md): the investor overview's purchase rate and flips at 6, 12 and 24 months, the city trends'
// monthly counts, median prices, price per sqft and investor shares, and the comps 404 of a Denver zip (the file has no
// zip) with its count of the city's arm's-length sales. Before this file the purchase rate was checked within 8-20%
// only (market-build.test.ts), and the monthly medians of Denver against nothing raw.
// Tolerances: the shards round the rate, days and margin to 1 decimal and price per sqft to 2 (market.md "Rounding in
// the answers"): within half a unit of that place; counts and prices exact.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { DENVER_DEEDS, denverInvestor, denverMonths } from '../helpers/oracle-denver.ts';
import { rawQuery } from '../helpers/oracle-raw-comps.ts';

const api = serveSharedBuild('pro');
let asOf: string;
let armsLength: number;

beforeAll(async () => {
  const [r] = await rawQuery<{ as_of: string; n: number }>(`${DENVER_DEEDS()}
    select strftime(max(d), '%Y-%m-%d') as as_of, count(*)::int as n from deeds where arms`);
  asOf = r!.as_of;
  armsLength = r!.n;
}, 120_000);

const within = (got: number | null, want: number | null, half: number): boolean => (got === null || want === null ? got === want : Math.abs(got - want) <= half + 1e-9);

interface Investor { investor_purchase_rate_pct: number | null; flip_velocity_days: number | null; gross_flip_margin_pct: number | null; as_of: string }
interface Trends { series: { month: string; sales_count: number | null; median_price: number | null; median_price_per_sqft: number | null; investor_purchase_share_pct: number | null }[] }

describe('Denver against its raw deeds file', () => {
  test('investor overview 6, 12, 24 months: purchase rate from GRANTEE names, flip velocity and margin', async () => {
    expect(asOf).toBe('2019-07-09'); // SOURCE.md: recorded to 2019-07-10; the last arm's-length deed's date
    const want = await denverInvestor(asOf, [6, 12, 24]);
    expect(want.map((w) => w.months)).toEqual([6, 12, 24]);
    const bad: string[] = [];
    for (const w of want) {
      expect(w.sales_for_value).toBeGreaterThan(5000);
      expect(w.flips).toBeGreaterThanOrEqual(5);
      const res = await api.get(`/v1/market/investor-overview?city=Denver&state=CO&months=${w.months}`);
      expect(res.status).toBe(200);
      const b = (await res.json()) as Investor;
      expect(b.as_of).toBe(asOf);
      if (!within(b.investor_purchase_rate_pct, w.rate, 0.05) || !within(b.flip_velocity_days, w.days, 0.05) || !within(b.gross_flip_margin_pct, w.margin, 0.05)) {
        bad.push(`${w.months} months: api ${b.investor_purchase_rate_pct}% / ${b.flip_velocity_days} d / ${b.gross_flip_margin_pct}%, raw ${w.rate}% (${w.investors} of ${w.sales_for_value}) / ${w.days} d / ${w.margin}% (${w.flips} flips)`);
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);

  for (const type of ['sfr', 'condo'] as const) {
    test(`city trends, ${type}, 24 months: every month's count, and each median the answer gives`, async () => {
      const raw = new Map((await denverMonths(type)).map((m) => [m.month, m]));
      const res = await api.get(`/v1/market/trends?city=Denver&state=CO&property_type=${type}&months=24`);
      expect(res.status).toBe(200);
      const { series } = (await res.json()) as Trends;
      const bad: string[] = [];
      let medians = 0;
      for (const s of series) {
        const w = raw.get(s.month);
        // a month of fewer than 5 sales gives no count (minimum cohort); a month the file covers in part (2019-07) no median
        const n = w && w.n >= 5 ? w.n : null;
        if (s.sales_count !== n) bad.push(`${s.month}: api ${s.sales_count} sales, raw ${w?.n ?? 0}`);
        if (s.median_price === null) continue;
        medians++;
        if (s.median_price !== w?.median_price || !within(s.median_price_per_sqft, w.ppsf, 0.005) || !within(s.investor_purchase_share_pct, w.investor_share, 0.05)) {
          bad.push(`${s.month}: api $${s.median_price} $${s.median_price_per_sqft}/sqft ${s.investor_purchase_share_pct}%, raw $${w?.median_price} $${w?.ppsf}/sqft ${w?.investor_share}%`);
        }
      }
      expect(bad).toEqual([]);
      expect(medians).toBeGreaterThanOrEqual(17); // 2018-01 .. 2019-06 have medians; only 2019-07 (9 days of deeds) has none
    }, 120_000);
  }

  test('comps of a Denver zip: 404 naming the city\'s arm\'s-length sales, the file having no zip', async () => {
    const res = await api.get('/v1/market/comps?zip=80205');
    expect(res.status).toBe(404);
    const { message } = (await res.json()) as { message: string };
    expect(message).toContain(`records ${armsLength.toLocaleString('en-US')} arm's-length sales in Denver, CO`);
    expect(message).toContain('its records carry no zip code');
  });
});
