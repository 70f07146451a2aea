// A market the developers have not seen, end to end: King County sales of three zips drawn by a seeded draw, written
// as a stranger writes a canonical sales.csv (./king-messy-folder.ts: BOM, CRLF, columns in another order, unknown
// columns, quoted commas, repairable values, broken lines, one exact copy), built as the only sales source by the real
// build, served on 127.0.0.1 port 0 and asked over HTTP. Every figure is recomputed from that CSV by
// test/helpers/oracle-canonical-sales.ts (csv-parse and the README's and market.md's rules), never from the build.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows } from '../../warehouse/db.ts';
import { rng } from '../../scripts/rng.ts';
import { tmp } from '../helpers/tmp.ts';
import type { TestServer } from '../helpers/server.ts';
import { compsOf, minusMonths, monthOf, quantileCont, readCanonicalSales, roundTo, type OracleSale } from '../helpers/oracle-canonical-sales.ts';
import { writeKingMessyFolder, type MessyFolder } from './king-messy-folder.ts';
import { buildAndServe, closeServed, type ServedFolder } from './served-folder.ts';

let folder: MessyFolder;
let sales: OracleSale[];
let srv: TestServer;
let key: string;
let served: ServedFolder;
let rejects: { line: number; rule: string; column: string }[];
let repairs: string[];
const draw = rng(7501);
const pick = <T>(xs: T[]): T => xs[Math.floor(draw() * xs.length)]!;
const json = (p: string): Promise<Record<string, any>> => served.json(p);
const ask = (query: string): Promise<string> => served.ask(query);

beforeAll(async () => {
  folder = writeKingMessyFolder(tmp('reii-unseen-src-'));
  sales = readCanonicalSales(folder.file).sales;
  const s = await buildAndServe(folder.sources, 'reii-unseen-art-', async (c) => ({
    rejects: await queryRows<{ line: number; rule: string; column: string }>(c, `select line::int as line, rule, column_name as "column" from meta.rejects where source = 'canonical' order by line`),
    repairs: (await queryRows<{ rule: string }>(c, `select distinct rule from meta.repairs where source = 'canonical' order by 1`)).map((r) => r.rule),
  }));
  served = s;
  ({ srv, key } = s);
  ({ rejects, repairs } = s.read);
}, 600_000);
afterAll(() => closeServed(served), 120_000);

describe('the stranger\'s file: what is rejected, what is read', () => {
  test('each broken line is rejected with its file line, rule and column; the oracle rejects the same lines', () => {
    expect(rejects).toEqual(folder.bad);
    expect(readCanonicalSales(folder.file).rejects.map((r) => r.line)).toEqual(folder.bad.map((b) => b.line));
  });
  test('the repairable values are read, each a repair, never a reject', () => {
    expect(repairs).toEqual(expect.arrayContaining(['date_zero_padded', 'lower_cased', 'number_unformatted', 'upper_cased']));
    expect(sales.length).toBe(folder.rows - folder.bad.length);
  });
});

describe('market answers equal the recount from the CSV', () => {
  test('comps of every zip, 3 to 24 months: window end, count and price per sqft percentiles', async () => {
    for (const zip of folder.zips) for (const months of [3, 6, 12, 24]) {
      const want = compsOf(sales, zip, months);
      const got = await json(`/v1/market/comps?zip=${zip}&months=${months}&property_type=sfr`);
      expect({ end: got['coverage'].window_end, n: got['sample_count'], p: got['price_per_sqft'] }, `${zip} ${months}`)
        .toEqual({ end: want.windowEnd, n: want.count >= 5 ? want.count : null, p: { p25: want.p25, median: want.median, p75: want.p75 } });
      expect(got['source'].id).toBe('canonical');
    }
  });
  test('the exact copy is one sale: its zip\'s comps note counts it as a duplicate record', async () => {
    const dup = sales.find((s) => s.line === folder.duplicateLine)!;
    const got = await json(`/v1/market/comps?zip=${dup.zip}&months=24`);
    expect(got['note']).toContain('1 duplicate record');
  });
  test('trends months of each zip and of a drawn city: count and median price, null below 5', async () => {
    const city = pick([...new Set(sales.map((s) => s.city))].sort());
    const markets = [...folder.zips.map((zip) => ({ q: `zip=${zip}`, where: { zip } })), { q: `city=${encodeURIComponent(city)}&state=WA`, where: { city } }];
    for (const m of markets) {
      const got = await json(`/v1/market/trends?${m.q}&property_type=sfr&months=24`);
      let checked = 0;
      for (const row of got['series'] as { month: string; sales_count: number | null; median_price: number | null }[]) {
        const want = monthOf(sales, m.where, row.month);
        expect({ n: row.sales_count, median: row.median_price }, `${m.q} ${row.month}`).toEqual({ n: want.count, median: want.median });
        if (want.count) checked++;
      }
      expect(checked, m.q).toBeGreaterThan(0);
    }
  });
  test('investor overview of each city: no buyer names, so no rate, said so', async () => {
    for (const city of [...new Set(sales.map((s) => s.city))]) {
      const got = await json(`/v1/market/investor-overview?city=${encodeURIComponent(city)}&state=WA`);
      expect(got['investor_purchase_rate_pct']).toBeNull();
      expect(got['note']).toContain('carry no buyer names');
    }
  });
});

describe('addresses of the market', () => {
  test('a drawn sale: property by parcel, autocomplete of its address, valuation matched; an unknown address unmatched', async () => {
    const s = pick(sales.filter((x) => x.armsLength));
    const prop = await json(`/v1/property?parcel_id=${s.parcel}&state=WA`);
    const want = sales.filter((x) => x.parcel === s.parcel && x.armsLength).map((x) => ({ date: x.date, price: x.price })).sort((a, b) => b.date.localeCompare(a.date));
    expect((prop['sales'] as { date: string; price: number; arms_length: boolean }[]).filter((x) => x.arms_length).map((x) => ({ date: x.date, price: x.price }))).toEqual(want);
    expect(prop['zip']).toBe(s.zip);
    const ac = await json(`/v1/address/autocomplete?q=${encodeURIComponent(s.address.slice(0, 8))}&state=WA&limit=10`);
    expect((ac['results'] as { address: string; zip: string }[]).some((r) => r.address === s.address && r.zip === s.zip)).toBe(true);
    const matched = (await (await srv.post('/v1/valuation/estimate', { zip: s.zip, address: s.address }, key)).json()) as Record<string, any>;
    expect(matched['subject'].matched).toBe(true);
    const unmatched = (await (await srv.post('/v1/valuation/estimate', { zip: s.zip, address: '412 NOWHERE AVE', sqft: 1500 }, key)).json()) as Record<string, any>;
    expect(unmatched['subject'].matched).toBe(false);
    expect(unmatched['estimated_value']).toBeGreaterThan(0);
  });
  test('location risk of each zip answers with the hazard folders linked', async () => {
    for (const zip of folder.zips) expect((await json(`/v1/location/risk?zip=${zip}`))['zip_code']).toBe(zip);
  });
});

describe('research questions naming its cities and zips', () => {
  test('"how many sales in <city> last year": the 12 months to the city\'s latest sale, count and median price', async () => {
    const city = pick([...new Set(sales.map((s) => s.city))].sort());
    const arm = sales.filter((s) => s.armsLength && s.city === city && s.type === 'sfr');
    const end = arm.map((s) => s.date).sort().at(-1)!;
    const prices = arm.filter((s) => s.date > minusMonths(end, 12)).map((s) => s.price).sort((a, b) => a - b);
    const name = city[0] + city.slice(1).toLowerCase();
    const answer = await ask(`how many sales in ${name}, WA last year`);
    expect(answer).toContain(`${prices.length} arm's-length single-family sales in the 12 months to ${end}`);
    expect(answer).toContain(`$${roundTo(quantileCont(prices, 0.5), 0).toLocaleString('en-US')}`);
  });
  test('"<zip> price per square foot": the 6 months\' count and median', async () => {
    const zip = pick(folder.zips);
    const want = compsOf(sales, zip, 6);
    const answer = await ask(`${zip} price per square foot`);
    expect(answer).toContain(`${want.count} single-family sales in the 6 months to ${want.windowEnd} had a median $${Math.round(want.median!)} per sqft`);
  });
});
