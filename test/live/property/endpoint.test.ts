// GET /v1/property over the shared real build: King County's repeat sales (counted here from the raw CSV) as one
// property each with all their sales, the flips the investor overview counts, the three ways to ask, the 404 with the
// closest street lines of the zip, the plan gate and bad input (400 / 422), and the identity the warehouse tables share.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, warehouseRows } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import { closestEntries } from '../../../live/property/engine.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

interface Sale { date: string; price: number; flip_leg: boolean; arms_length: boolean | null }
interface Body { property_id: string; parcel_id: string | null; address: string | null; unit: string | null; zip: string | null; state: string | null; sales: Sale[]; [k: string]: unknown }

describe('GET /v1/property', () => {
  let server: TestServer;
  let key: string;
  const get = async (qs: string, k = key): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${server.url}/v1/property?${qs}`, { headers: { 'X-Service-Key': k } });
    return { status: res.status, body: await res.json() };
  };
  beforeAll(async () => {
    server = await startTestServer(artifactsDir());
    key = server.key('builder', 100_000); // the builder plan with a per-minute limit that these many calls stay under
  });
  afterAll(async () => { await server.close(); });

  it("answers King County's repeat sales as one property with all its sales (counted from the raw CSV)", async () => {
    const file = path.join(loadSettings({}).sources, 'king-county-wa-house-sales', 'kc_house_data.csv.gz');
    const rows = parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true }) as { id: string; date: string; price: string }[];
    const byId = new Map<string, { date: string; price: number }[]>();
    for (const r of rows) byId.set(r.id.trim(), [...(byId.get(r.id.trim()) ?? []), { date: `${r.date.slice(0, 4)}-${r.date.slice(4, 6)}-${r.date.slice(6, 8)}`, price: Number(r.price) }]);
    const repeats = [...byId].filter(([, s]) => s.length > 1);
    expect(repeats.length).toBe(176);
    const [n] = await warehouseRows<{ n: number }>(`select count(*)::integer as n from properties where source = 'king_county' and sale_count > 1`);
    expect(n!.n).toBe(repeats.length);
    for (const [id, sales] of repeats.slice(0, 40)) {
      const { status, body } = await get(`parcel_id=${id}&state=WA`);
      expect(status).toBe(200);
      const b = body as Body;
      expect(b.parcel_id).toBe(id);
      const expected = sales.map((s) => ({ date: s.date, price: s.price })).sort((x, y) => y.date.localeCompare(x.date));
      expect(b.sales.map((s) => ({ date: s.date, price: s.price }))).toEqual(expected);
    }
  });

  it("says as_of the newest record date of the property's source, read from the raw files", async () => {
    const sources = loadSettings({}).sources;
    const gz = (rel: string): Record<string, string>[] => parse(zlib.gunzipSync(fs.readFileSync(path.join(sources, rel))), { columns: true }) as Record<string, string>[];
    const kcNewest = gz('king-county-wa-house-sales/kc_house_data.csv.gz').map((r) => `${r['date']!.slice(0, 4)}-${r['date']!.slice(4, 6)}-${r['date']!.slice(6, 8)}`).sort().at(-1);
    const sacNewest = gz('sacramento-real-estate-transactions/sacramento_transactions.csv.gz').map((r) => r['sale_date_iso']!).sort().at(-1);
    for (const [source, newest] of [['king_county', kcNewest], ['sacramento', sacNewest]] as const) {
      const ids = await warehouseRows<{ property_id: string }>(`select property_id from properties where source = '${source}' order by property_id limit 3`);
      expect(ids.length).toBe(3);
      for (const { property_id } of ids) {
        const { status, body } = await get(`property_id=${property_id}`);
        expect(status).toBe(200);
        expect((body as Body)['as_of']).toBe(newest);
      }
    }
  });

  it('flags as flip legs exactly the flips the investor overview counts', async () => {
    const [a] = await warehouseRows<{ flips: number; resales: number; missing: number }>(`
      select (select count(*) from int_market_resales where is_investor_flip)::integer as flips,
             (select count(*) from property_sales where flip_role = 'resale')::integer as resales,
             (select count(*) from int_market_resales r where is_investor_flip
                and not exists (select 1 from property_sales p where p.sale_id = r.sale_id and p.flip_leg))::integer as missing`);
    expect(a!.flips).toBeGreaterThan(0);
    expect(a!.resales).toBe(a!.flips);
    expect(a!.missing).toBe(0);
    // per city and window: the investor mart's flips are the property record's resale legs in that window
    const diff = await warehouseRows(`
      with w as (select state_code, city_slug, months, flips, cast(as_of as date) - to_months(months) as start from mart_investor where flips > 0),
      legs as (select s.state_code, slug(s.city) as city_slug, p.date from property_sales p join sales s using (sale_id) where p.flip_role = 'resale')
      select w.*, (select count(*) from legs l where l.state_code = w.state_code and l.city_slug = w.city_slug and l.date > w.start) as legs
      from w where flips <> (select count(*) from legs l where l.state_code = w.state_code and l.city_slug = w.city_slug and l.date > w.start) limit 5`);
    expect(diff).toEqual([]);
    // a flip property answers both legs, the purchase before the resale
    const [f] = await warehouseRows<{ property_id: string }>(`select property_id from property_sales where flip_role = 'resale' order by sale_id limit 1`);
    const { body } = await get(`property_id=${f!.property_id}`);
    expect((body as Body).sales.filter((s) => s.flip_leg).length).toBeGreaterThanOrEqual(2);
  });

  it('finds a property by address and zip, by parcel and state, and by id: the same record', async () => {
    const [p] = await warehouseRows<{ property_id: string; address: string; zip: string; parcel_id: string; state: string }>(`
      select property_id, address, zip, parcel_id, state from properties where source = 'philadelphia' and unit is null and address is not null
      order by hash(property_id) limit 1`);
    const byId = await get(`property_id=${p!.property_id}`);
    expect(byId.status).toBe(200);
    expect(schemaErrors('PropertyRecord', byId.body)).toEqual([]);
    const typed = p!.address.toLowerCase().replace(/ st$/, ' Street');
    const byAddress = await get(`address=${encodeURIComponent(typed)}&zip=${p!.zip}`);
    expect(byAddress.status).toBe(200);
    expect(byAddress.body).toEqual(byId.body);
    const byParcel = await get(`parcel_id=${encodeURIComponent(p!.parcel_id)}&state=${p!.state}`);
    expect(byParcel.body).toEqual(byId.body);
    expect((byId.body as Body)['links']).toEqual({ comps: expect.stringMatching(new RegExp(`^/v1/market/comps\\?zip=${p!.zip}(&|$)`)), location_risk: `/v1/location/risk?zip=${p!.zip}` });
    await expectLinksAnswer(byId.body as Body);
    expect((byId.body as Body)['lineage']).toBeUndefined();
  });

  /** Every link a property answer gives answers 200 with the same key. */
  const expectLinksAnswer = async (b: Body): Promise<void> => {
    for (const link of Object.values(b['links'] as Record<string, string | null>)) {
      if (link === null) continue;
      const res = await fetch(`${server.url}${link}`, { headers: { 'X-Service-Key': key } });
      expect(res.status, link).toBe(200);
      await res.arrayBuffer();
    }
  };

  it('links only what answers: a Louisville parcel in a zip no sales source covers has no comps link (its comps are a 404), its location risk link answers (review 30)', async () => {
    const [p] = await warehouseRows<{ property_id: string; zip: string }>(`
      select property_id, zip from properties where source = 'louisville' and zip is not null
        and zip not in (select zip from sales where zip is not null) order by hash(property_id) limit 1`);
    expect(p, 'a Louisville property whose zip has no sale in the warehouse').toBeDefined();
    const { status, body } = await get(`property_id=${p!.property_id}`);
    expect(status).toBe(200);
    const links = (body as Body)['links'] as Record<string, string | null>;
    expect(links['comps']).toBeNull();
    const comps = await fetch(`${server.url}/v1/market/comps?zip=${p!.zip}`, { headers: { 'X-Service-Key': key } });
    expect(comps.status).toBe(404);
    expect(links['location_risk']).toBe(`/v1/location/risk?zip=${p!.zip}`);
    await expectLinksAnswer(body as Body);
    // a condo links the comps of condos, and that link answers: an NYC condo in the zip with the most condo sales
    const [c] = await warehouseRows<{ property_id: string }>(`
      select property_id from properties where source = 'nyc' and property_type = 'condo' and zip = (
        select zip from sales where property_type = 'condo' and source = 'nyc' group by zip order by count(*) desc, zip limit 1)
      order by hash(property_id) limit 1`);
    const condo = await get(`property_id=${c!.property_id}`);
    expect(((condo.body as Body)['links'] as Record<string, string | null>)['comps']).toContain('property_type=condo');
    await expectLinksAnswer(condo.body as Body);
  });

  it('classes owners from the raw OPA owner names: the housing authority (AUTH) is government, churches nonprofit (review 4)', async () => {
    // independent of the macro: the raw OPA rows of these owners, read here
    for (const [name, want] of [['PHILADELPHIA HOUSING AUTH', 'government'], ['SHALL NEVER THIRST MINISTRIES', 'nonprofit'], ['CHURCH OF CHRISTIAN COMPASSION', 'nonprofit'], ['CREFELD SCHOOL', 'nonprofit']] as const) {
      const parcels = await rawQuery<{ parcel: string }>(`select parcel_number as parcel
        from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
        where trim(owner_1) = '${name}' order by parcel limit 5`);
      let found = 0;
      for (const { parcel } of parcels) {
        const r = await get(`parcel_id=${encodeURIComponent(parcel)}&state=PA`);
        if (r.status === 404) continue; // a parcel the record leaves out (vacant land with no address)
        found++;
        expect((r.body as Body)['owner_type'], `${name} ${parcel}`).toBe(want);
        expect(schemaErrors('PropertyRecord', r.body)).toEqual([]);
      }
      expect(found, name).toBeGreaterThan(0);
    }
  });

  it('gives autocomplete results the property_id of their property', async () => {
    // addresses the index holds (a point, a city, a recorded zip) whose street line and zip are a property's
    const props = await warehouseRows<{ property_id: string; address: string; zip: string }>(`
      select p.property_id, a.address, a.zip from addresses a join properties p on p.zip = a.zip and p.address = a.address and p.unit is null
      where a.unit is null and a.lat is not null and a.city is not null and not a.zip_imputed and p.source in ('philadelphia', 'sacramento', 'nashville')
      order by hash(p.property_id) limit 5`);
    expect(props.length).toBe(5);
    for (const p of props) {
      const res = await fetch(`${server.url}/v1/address/autocomplete?q=${encodeURIComponent(p.address)}&limit=10`, { headers: { 'X-Service-Key': key } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: { address: string; zip: string; property_id: string | null }[] };
      expect(schemaErrors('AutocompleteResults', body)).toEqual([]);
      const hit = body.results.find((r) => r.address === p.address && r.zip === p.zip);
      expect(hit?.property_id, `${p.address} ${p.zip}`).toBe(p.property_id);
      const { status } = await get(`property_id=${hit!.property_id!}`);
      expect(status).toBe(200);
    }
  });

  it('answers an unknown address with a 404 naming the closest street lines of the zip', async () => {
    const [p] = await warehouseRows<{ address: string; zip: string; property_id: string }>(`
      select address, zip, property_id from properties where source = 'nyc' and regexp_matches(address, '^[0-9]+ ') and unit is null order by hash(property_id) limit 1`);
    const house = p!.address.split(' ')[0]!;
    const wrong = `${p!.address.slice(house.length + 1)} ZZTOP`; // the street words without the house number, plus one
    const res = await get(`address=${encodeURIComponent(`${house} ${wrong}`)}&zip=${p!.zip}`);
    expect(res.status).toBe(404);
    const message = (res.body as { message: string }).message;
    expect(message).toContain(`in zip ${p!.zip}`);
    expect(message).toContain('closest in that zip');
    expect(message).toContain(p!.property_id);
    const unknownZip = await get('address=1%20Main%20St&zip=00001');
    expect(unknownZip.status).toBe(404);
    expect((unknownZip.body as { message: string }).message).toContain('No property records for zip 00001');
    expect((await get('property_id=0123456789abcdef')).status).toBe(404);
    expect((await get('parcel_id=NOPE-1&state=WA')).status).toBe(404);
  });

  it('rejects bad input by the contract: 400 malformed or missing, 422 not allowed, 403 below builder', async () => {
    const cases: [string, number, string][] = [
      ['', 400, 'property_id'],
      ['property_id=XYZ', 400, 'property_id'],
      ['property_id=0123456789ABCDEF', 400, 'property_id'],
      ['address=1%20Main%20St', 400, 'zip'],
      ['address=1%20Main%20St&zip=123', 400, 'zip'],
      ['parcel_id=123', 400, 'state'],
      ['parcel_id=123&state=W', 400, 'state'],
      ['parcel_id=123&state=wa', 422, 'state'],
      ['parcel_id=123&state=ZZ', 422, 'state'],
      ['property_id=0123456789abcdef&include=everything', 422, 'include'],
    ];
    for (const [qs, status, field] of cases) {
      const res = await get(qs);
      expect(res.status, qs).toBe(status);
      expect((res.body as { errors: { field: string }[] }).errors.map((e) => e.field), qs).toContain(field);
    }
    const starter = await get('property_id=0123456789abcdef', server.key('starter'));
    expect(starter.status).toBe(403);
    expect((await get('parcel_id=1&state=PR')).status).toBe(404);
  });

  it('gives every table the same property_id, the property_id() of the sales row', async () => {
    const [r] = await warehouseRows<{ sales: number; unmatched: number; props: number }>(`
      select (select count(*) from property_sales)::integer as sales,
             (select count(*) from property_sales p where not exists (select 1 from properties q where q.property_id = p.property_id))::integer as unmatched,
             (select count(distinct property_id) from property_lineage)::integer as props`);
    expect(r!.sales).toBeGreaterThan(200_000);
    expect(r!.unmatched).toBe(0);
    const [n] = await warehouseRows<{ n: number }>('select count(*)::integer as n from properties');
    expect(r!.props).toBe(n!.n);
  });
});

describe('closest street lines', () => {
  it('ranks the same house number first, then shared words', () => {
    const entries: [string, string | null, string, string][] = [
      ['12 OAK ST', null, 'a', 's'], ['40 ELM RD', null, 'b', 's'], ['40 OAK AVE', null, 'c', 's'], ['7 PINE RD', null, 'd', 's'],
    ];
    expect(closestEntries(entries, '40 OAK ST', 3).map((e) => e[2])).toEqual(['c', 'b', 'a']);
  });
});
