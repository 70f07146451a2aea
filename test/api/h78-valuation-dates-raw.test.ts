// POST /v1/valuation/estimate names two dates (h78 audit, gap d): `as_of`, the newest kept comp's sale (valuation.md
// "Estimate"), and in `data_age_note` the day the estimate values the house at, the source's latest arm's-length sale,
// to which every comp's price is time-adjusted (valuation.md "The answer"). They differ (Philadelphia 19115: as_of
// 2022-11-18, the roll's latest sale 2022-12-12) and the note once said only "a value as of 2022-12-12": two
// contradictory "as of" dates. Here both are recomputed from the RAW files: the source's latest sale from
// RAW_MARKET_SALES (oracle-raw-comps.ts, market.md's arm's-length rule over the raw files), and each kept comp's sale
// found in the raw rows (csv-parse: its street line or parcel id, zip and price), the newest of them `as_of`; the note
// must name each date for what it is.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { RAW_MARKET_SALES, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { rawSale } from '../helpers/oracle-raw-sale-rows.ts';
import { rawRows } from '../../scripts/raw-lines.ts';

const FILES = {
  philadelphia: 'philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz',
  king_county: 'king-county-wa-house-sales/kc_house_data.csv.gz',
} as const;
type Src = keyof typeof FILES;
const CASES: [Src, Record<string, unknown>][] = [
  ['philadelphia', { address: '1812 BERWYN ST', zip: '19115' }],
  ['philadelphia', { address: '2517 ISLAND AVE', zip: '19153' }],
  ['king_county', { address: '7500 35th Ave NE', zip: '98115', sqft: 1800 }],
];
const api = serveSharedBuild('pro', 100_000);
const latest = new Map<Src, string>();
/** Per source: `key|zip|price` of every raw row -> its sale dates (key: OPA `location`, King County `id`). */
const raw = new Map<Src, Map<string, string[]>>();

beforeAll(async () => {
  const rows = await rawQuery<{ src: Src; last: string }>(`${RAW_MARKET_SALES} select src, max(d)::varchar as last from market group by src`);
  for (const r of rows) if (r.src in FILES) latest.set(r.src, r.last);
  for (const src of Object.keys(FILES) as Src[]) {
    const m = new Map<string, string[]>();
    for (const row of rawRows(SHARED_DATA, FILES[src])) {
      if (row[src === 'philadelphia' ? 'sale_date' : 'date'] === undefined) continue; // the OPA file's 3 blank lines
      const s = rawSale(FILES[src], row);
      const unit = (row['unit'] ?? '').trim(); // the OPA roll's unit column: a comp's address is "street #unit"
      const key = src === 'philadelphia' ? `${(row['location'] ?? '').trim()}${unit ? ` #${unit}` : ''}|${(row['zip_code'] ?? '').trim().slice(0, 5)}` : `${row['id']}|${row['zipcode']}`;
      const k = `${key}|${s.price}`;
      m.set(k, [...(m.get(k) ?? []), s.date]);
    }
    raw.set(src, m);
  }
}, 300_000);

describe('valuation: `as_of` and the data-age note\'s date, each recomputed from the raw files and named for what it is', () => {
  test.each(CASES)('%s %j', async (src, body) => {
    const res = await api.post('/v1/valuation/estimate', body);
    expect(res.status).toBe(200);
    const b = (await res.json()) as { as_of: string; data_age_note: string | null; comps: { address: string; zip: string; sale_date: string; price: number; kept: boolean }[] };
    const day = latest.get(src)!;
    // every kept comp's sale is a raw row's (street or parcel, zip, price, date), and the newest of them is as_of
    const dates = b.comps.filter((c) => c.kept).map((c) => {
      const found = raw.get(src)!.get(`${c.address}|${c.zip}|${c.price}`) ?? [];
      expect(found, `${c.address} ${c.zip} $${c.price} in the raw file`).toContain(c.sale_date);
      return c.sale_date;
    });
    const asOf = dates.sort().at(-1)!;
    expect(b.as_of).toBe(asOf);
    expect(asOf < day, 'the newest comp sold before the source\'s latest sale').toBe(true);
    expect(b.data_age_note).toContain(`The latest record of this source is from ${day},`);
    expect(b.data_age_note).toContain(`the estimate is a value as of ${day} (the source's latest sale, the day the comps' prices are adjusted to; the newest comp used, the answer's as_of, sold ${asOf}), not today's.`);
  }, 300_000);
});
