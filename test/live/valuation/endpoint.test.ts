// POST /v1/valuation/estimate over the shared real build: the live module in-process (King County addresses and
// parcel ids, their comps, the build report's back-test section), then over HTTP: 1,000 held-out King County sales
// graded against the 80% interval and the documented MdAPE, and the request contract (200, 404, 422, 400). The
// module's rules on a synthetic market: endpoint-synthetic.test.ts; the rules: warehouse/docs/valuation.md.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../../live/valuation/helpers.ts';
import { noCompsMessage, ValuationEngine, type ValuationBody } from '../../../live/valuation/endpoint.ts';
import { REPORT_TITLE } from '../../../live/valuation/build.ts';
import { artifactsDir, buildDir, warehouseRows } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import { haversineKm } from '../../helpers/valuation-synthetic.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

describe('valuation over the shared real build', () => {
  let engine: ValuationEngine;
  beforeAll(() => {
    // no skip: a build without valuation data fails here
    engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
  });

  it('a King County address estimate validates against the schema, with comps no later than the last sale', async () => {
    const [last] = await warehouseRows<{ d: string }>(`select strftime(max(sale_date), '%Y-%m-%d') as d from sales where source = 'king_county'`);
    expect(last?.d).toBeTruthy();
    for (const input of [
      { zip: '98103', address: '4012 Stone Way N', condition: 'good' },
      { zip: '98103', address: '4012 Stone Way N', sqft: 1650, condition: 'fair' },
    ]) {
      const a = engine.answer(input);
      expect(a.ok).toBe(true);
      const b = (a as { body: ValuationBody }).body;
      expect(schemaErrors('ValuationEstimate', b)).toEqual([]);
      expect(b).toMatchObject({ zip: '98103', city: 'Seattle', state: 'WA', address: '4012 STONE WAY N' });
      expect(b.comp_count).toBeGreaterThan(0);
      expect(b.as_of <= last!.d).toBe(true);
      expect(b.value_low).toBeLessThanOrEqual(b.estimated_value);
      expect(b.value_high).toBeGreaterThanOrEqual(b.estimated_value);
      expect(b.estimated_value).toBeGreaterThan(100_000);
      expect(b.estimated_value).toBeLessThan(3_000_000);
    }
  });

  it('a King County parcel id resolves to its recorded sale: its sqft, beds and location, its own sale not a comp', async () => {
    const [p] = await warehouseRows<{ parcel_id: string; zip: string; sqft: number; beds: number; lat: number; lng: number }>(`
      select parcel_id, zip, sqft::double as sqft, beds::double as beds, lat::double as lat, lng::double as lng from sales
      where source = 'king_county' and is_arms_length and sale_price > 0 and sqft > 0 and beds > 0 and property_type in ('sfr', 'multi', 'condo')
      order by sale_date desc, sale_id desc limit 1`);
    const a = engine.answer({ zip: p!.zip, address: p!.parcel_id, condition: 'good' });
    expect(a.ok).toBe(true);
    expect(schemaErrors('ValuationEstimate', (a as { body: unknown }).body)).toEqual([]);
    const x = engine.explain({ zip: p!.zip, address: p!.parcel_id, condition: 'good' })!;
    expect(x.subject).toMatchObject({ mode: 'record', sqft: p!.sqft, beds: p!.beds, lat: p!.lat, lng: p!.lng });
    expect(x.comps.data.key.at(x.ownRow!)).toBe(p!.parcel_id);
    expect(x.estimate.rows).not.toContain(x.ownRow);
    expect(x.calibration.calibrated).toBe(true);
    // the typical-property fallback of the same zip is described differently
    const fallback = engine.explain({ zip: p!.zip, address: 'no such parcel', condition: 'good' })!;
    expect(fallback.subject.mode).toBe('typical');
    expect(fallback.subject.lat).toBeNull();
  });

  it('the comps of a King County recorded subject are earlier residential sales near it', () => {
    const d = engine.market('king_county').comps.data;
    const first = d.zip.findIndex((z) => d.zips[z] === '98103');
    expect(first).toBeGreaterThanOrEqual(0);
    const x = engine.explain({ zip: '98103', address: d.key.at(first)!, condition: 'good' })!;
    const c = x.comps;
    expect(x.subject.mode).toBe('record');
    expect(x.estimate.rows.length).toBeGreaterThanOrEqual(5);
    const asOf = dayOf(engine.meta.sources['king_county']!.as_of);
    for (const i of x.estimate.rows) {
      expect(c.day[i]!).toBeLessThanOrEqual(asOf);
      expect([0, 1, 2]).toContain(c.data.type[i]);
      expect(haversineKm(x.subject.lat!, x.subject.lng!, c.lat[i]!, c.lng[i]!)).toBeLessThan(5);
    }
  });

  it('the build report carries the back-test section with King County rows for every subject mode', () => {
    // the report's figures are the build's own account: the interval's coverage is measured independently over HTTP below
    const sections = JSON.parse(fs.readFileSync(path.join(buildDir(), 'report-sections.json'), 'utf8')) as { title: string; headers: string[]; rows: unknown[][] }[];
    const s = sections.find((x) => x.title === REPORT_TITLE)!;
    expect(s.headers).toContain('80% coverage %');
    for (const mode of ['record', 'request', 'typical']) expect(s.rows.some((r) => r[0] === 'king_county' && r[1] === mode && r[2] === 'all'), mode).toBe(true);
  });
});

describe('POST /v1/valuation/estimate over HTTP', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(artifactsDir());
    key = server.key('builder');
  });
  afterAll(async () => { await server.close(); });

  it('King County held-out sales: the 80% interval covers about 80% of the true prices in each subject mode; record MdAPE within the documented 9%', async () => {
    // The holdout, chosen here from the canonical sales table by warehouse/docs/valuation.md: the source's comps
    // (arm's-length residential sales with a zip, price, sqft and a price per sqft of 10..10,000), in date order.
    // Arm's-length is decided here by market.md's rule, not read from the build's flags: King County records no
    // document, party or code, so that is a price of at least $10,000 and one copy of a sale recorded twice (the
    // same parcel, date and price);
    // the test slice is the last 20% (from the day of the 80% point on). Only each parcel's latest sale is taken:
    // the endpoint leaves exactly that sale out of a recorded address's comps, so it is never graded on a price it
    // used. A deterministic sample of 1,000 (ordered by a hash of the sale id).
    const sample = await warehouseRows<{ parcel_id: string; zip: string; price: number; sqft: number; condition: string }>(`
      with kc as (
        select * from sales where source = 'king_county' and sale_price >= 10000
        qualify row_number() over (partition by parcel_id, sale_date, sale_price order by line desc) = 1),
      comps as (
        select sale_id, parcel_id, zip, sale_date, sale_price, sqft, condition from kc
        where property_type in ('sfr', 'multi', 'condo') and zip is not null
          and sale_price > 0 and sqft > 0 and sale_price / sqft between 10 and 10000
          and sale_date > (select max(sale_date) from kc) - interval 5 year),
      ranked as (select sale_date, row_number() over (order by sale_date, sale_id) as k, count(*) over () as n from comps),
      latest as (select *, row_number() over (partition by parcel_id order by sale_date desc, sale_id desc) as r from comps)
      select parcel_id, zip, sale_price::double as price, sqft::double as sqft, condition from latest
      where r = 1 and sale_date >= (select min(sale_date) from ranked where k > 0.8 * n)
      order by md5(sale_id) limit 1000`);
    expect(sample).toHaveLength(1000);
    const enterprise = server.key('enterprise'); // no per-minute limit for 3,000 calls
    const modes = {
      // the address is known (King County: the parcel number): its own characteristics, condition as recorded
      record: (s: (typeof sample)[number]) => ({ zip: s.zip, address: s.parcel_id, condition: s.condition }),
      // an unknown address with the sale's sqft; an unknown address alone. (The endpoint cannot tell which sale is
      // meant here, so the sale itself stays among the zip's comps: these two lean, if anything, optimistic.)
      request: (s: (typeof sample)[number]) => ({ zip: s.zip, address: '1 NO SUCH PARCEL', sqft: s.sqft, condition: s.condition }),
      typical: (s: (typeof sample)[number]) => ({ zip: s.zip, address: '1 NO SUCH PARCEL', condition: s.condition }),
    };
    const result: Record<string, { coverage: number; mdape: number }> = {};
    for (const [mode, body] of Object.entries(modes)) {
      let inside = 0;
      const ape: number[] = [];
      for (let i = 0; i < sample.length; i += 10) { // ten requests in flight at a time
        await Promise.all(sample.slice(i, i + 10).map(async (s) => {
          const res = await server.post('/v1/valuation/estimate', body(s), enterprise);
          expect(res.status, `${mode} ${s.parcel_id}`).toBe(200);
          const b = (await res.json()) as ValuationBody;
          if (s.price >= b.value_low && s.price <= b.value_high) inside++;
          ape.push(Math.abs(b.estimated_value / s.price - 1));
        }));
      }
      ape.sort((a, b) => a - b);
      result[mode] = { coverage: (100 * inside) / sample.length, mdape: 100 * (ape[499]! + ape[500]!) / 2 };
    }
    console.log(`valuation holdout, 1,000 King County test-slice sales over HTTP: ${JSON.stringify(result)}`);
    // 1,000 draws of an 80% interval: binomial sd = sqrt(0.8 x 0.2 / 1000) = 1.26 points; 75..85 is +-4 sd, far
    // outside chance for a calibrated interval, while an interval 20% too narrow or too wide moves coverage ~6 points
    for (const [mode, r] of Object.entries(result)) {
      expect(r.coverage, `${mode} coverage ${r.coverage}`).toBeGreaterThan(75);
      expect(r.coverage, `${mode} coverage ${r.coverage}`).toBeLessThan(85);
    }
    // valuation.md "King County goals (record subjects): MdAPE <= 9%"
    expect(result['record']!.mdape).toBeLessThanOrEqual(9);
    // without the property the estimate is worse: request (sqft sent) between record and typical
    expect(result['request']!.mdape).toBeGreaterThan(result['record']!.mdape);
    expect(result['typical']!.mdape).toBeGreaterThan(result['request']!.mdape);
  });

  it('200 with a valid Valuation estimate for a King County zip', async () => {
    const res = await server.post('/v1/valuation/estimate', { zip: '98115', address: '7500 35th Ave NE', sqft: 1800 }, key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(schemaErrors('ValuationEstimate', body)).toEqual([]);
    expect((body as ValuationBody).price_per_sqft).not.toBeNull();
  });

  it('King County\'s file ends in May 2015, over 3 years before the build: every answer says so and is low confidence', async () => {
    const raw = await rawQuery<{ last: string }>(`select strftime(max(strptime("date", '%Y%m%dT%H%M%S')), '%Y-%m-%d') as last
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)`);
    const last = raw[0]!.last;
    const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { as_of: string };
    for (const body of [{ zip: '98115', address: '7500 35th Ave NE', sqft: 1800 }, { zip: '98103', address: '4000 Stone Way N', sqft: 1800 }]) {
      const b = (await (await server.post('/v1/valuation/estimate', body, key)).json()) as ValuationBody;
      expect(b.confidence).toBe('low');
      expect(b.data_age_note).toContain(`from ${last}`);
      expect(b.data_age_note).toContain(`(${manifest.as_of})`);
      expect(b.data_age_note).toContain(`not today's`);
    }
  });

  it('404 for a zip whose sales have no living area (Connecticut): the message says so, not "no sales"', async () => {
    // the warehouse holds arm's-length sales in 06830, none with a living area (the Connecticut files record none)
    const [w] = await warehouseRows<{ n: number; with_sqft: number }>(`select count(*)::integer as n, count(sqft)::integer as with_sqft from sales where zip = '06830' and is_arms_length`);
    expect(w!.n).toBeGreaterThan(0);
    expect(w!.with_sqft).toBe(0);
    const res = await server.post('/v1/valuation/estimate', { zip: '06830', address: '1 Knollwood Dr' }, key);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe(noCompsMessage('06830'));
  });

  it('404 for a zip without sales: not covered by the build\'s sales sources (not "no arm\'s-length sale")', async () => {
    const res = await server.post('/v1/valuation/estimate', { zip: '59001', address: '1 Main St' }, key);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe("Zip 59001 (MT) is not covered by this build's sales sources: valuations cover the zips with recorded sales of king_county, nyc, philadelphia, sacramento");
  });

  it.each([[0], [-1], [10 ** 7]])('422 for sqft %s', async (sqft) => {
    const res = await server.post('/v1/valuation/estimate', { zip: '98115', address: '1 Main St', sqft }, key);
    expect(res.status).toBe(422);
  });

  it('422 for condition "meh"', async () => {
    expect((await server.post('/v1/valuation/estimate', { zip: '98115', address: '1 Main St', condition: 'meh' }, key)).status).toBe(422);
  });

  it('400 for a missing address, a 4-digit zip and a body that is not JSON', async () => {
    expect((await server.post('/v1/valuation/estimate', { zip: '98115' }, key)).status).toBe(400);
    expect((await server.post('/v1/valuation/estimate', { zip: '9810', address: '1 Main St' }, key)).status).toBe(400);
    expect((await server.post('/v1/valuation/estimate', '{"zip": "98115", address', key)).status).toBe(400);
  });
});
