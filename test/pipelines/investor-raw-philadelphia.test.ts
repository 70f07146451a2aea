// Philadelphia's investor purchase rate against the RAW OPA file (audit h68audit2), the buyer classified by market.md's
// "Investor classifier" word lists written out again (rawIsInvestor, oracle-raw-investor.ts), never the build's
// `is_investor_name` macro: the city's rate of every window (3..24 months; mart_investor: every sale for value, a
// price of $10,000 or more, portfolio deeds counted, over those with a known buyer, owner_1 + owner_2) from the
// investor shards, and every zip's monthly investor purchase share of each type (market_monthly: the month's
// arm's-length sales with a known buyer, 5 or more; none in a month covered in part) from the trends shards. Before this file Philadelphia's rate was
// recomputed through our own classifier macro (test/api/values-philadelphia-buyer.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildDir, readShard } from '../helpers/build.ts';
import { PHILADELPHIA_DATE, PHILADELPHIA_ROWS, PHILADELPHIA_TYPE, RAW_MARKET_SALES, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { rawIsInvestor } from '../helpers/oracle-raw-investor.ts';

const BUYER = "concat_ws(' ', nullif(trim(owner_1), ''), nullif(trim(owner_2), ''))";
/** The rate or share as the shards round it (1 decimal, half away from zero). */
const pct = (k: number, n: number): number => Math.round((1000 * k) / n) / 10;

let city: { months: number; known: number; investors: number }[];
let months: { zip: string; type: string; month: string; n: number; known: number; investors: number }[];

beforeAll(async () => {
  city = await rawQuery(`
    with v as (select ${PHILADELPHIA_DATE} as d, ${rawIsInvestor(BUYER)} as inv from ${PHILADELPHIA_ROWS}
               where try_cast(sale_price as double) >= 10000),
    ends as (select max(d) as e from v), windows as (select range::int as months from range(3, 25))
    select months, count(inv)::int as known, (count(*) filter (where inv))::int as investors
    from v cross join ends cross join windows where d > e - to_months(months) and d <= e group by months`);
  // the month's arm's-length sales (RAW_MARKET_SALES: portfolio deeds and ratio outliers out), each joined back to its
  // raw row's owner names by parcel and date
  months = await rawQuery(`${RAW_MARKET_SALES},
    owners as (select trim(parcel_number) as prop, ${PHILADELPHIA_DATE} as d, ${rawIsInvestor(BUYER)} as inv, ${PHILADELPHIA_TYPE} as t
               from ${PHILADELPHIA_ROWS}),
    arms as (select m.zip, m.type, strftime(m.d, '%Y-%m') as month, o.inv from market m join owners o on o.prop = m.prop and o.d = m.d and o.t = m.type
             where m.src = 'philadelphia' and not m.portfolio and m.zip is not null)
    select zip, type, month, count(*)::int as n, count(inv)::int as known, (count(*) filter (where inv))::int as investors from arms group by all`);
}, 180_000);

describe('Philadelphia investor purchase rate against the raw OPA file', () => {
  test('the city\'s rate of every window, 3 to 24 months', () => {
    expect(city).toHaveLength(22);
    const bad = city.filter((w) => {
      const b = readShard<{ investor_purchase_rate_pct: number | null }>(`market/investor/PA/philadelphia/${w.months}.json`);
      return b.investor_purchase_rate_pct !== (w.known >= 5 ? pct(w.investors, w.known) : null);
    }).map((w) => `${w.months}: raw ${w.investors}/${w.known}`);
    expect(bad).toEqual([]);
  });

  test('every zip, type and month: the investor purchase share of the trends series', () => {
    const bad: string[] = [];
    let figures = 0;
    for (const m of months) {
      const rel = `market/trends/zip/${m.zip}/${m.type}.json`;
      if (!fs.existsSync(path.join(buildDir(), 'shards', rel))) { if (m.n >= 5) bad.push(`${rel}: no shard`); continue; }
      const s = readShard<{ series: { month: string[]; covered: boolean[]; investor_purchase_share_pct: (number | null)[] } }>(rel).series;
      const i = s.month.indexOf(m.month);
      if (i < 0) continue; // a month outside the stored 60
      // market.md "A month covered in part": no share (the flag is the shard's, pinned by the trends coverage tests)
      const want = m.n >= 5 && m.known >= 5 && s.covered[i] ? pct(m.investors, m.known) : null;
      if (s.investor_purchase_share_pct[i] !== want) bad.push(`${m.zip} ${m.type} ${m.month}: ours ${s.investor_purchase_share_pct[i]}, raw ${want} (${m.investors}/${m.known} of ${m.n})`);
      else if (want !== null) figures++;
    }
    expect(bad.slice(0, 40)).toEqual([]);
    expect(figures).toBeGreaterThan(100);
  });
});
