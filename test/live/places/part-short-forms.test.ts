// "Bklyn" and "Bkln", Brooklyn's short forms, read by every place reader from one table (live/places/names.ts
// PART_SHORT_FORMS): the geo lookup, a typed address's place (autocomplete; valuation and property read the same rule)
// and research (live/research/place-words.ts BOROUGHS). Before, research alone read them: the geo lookup of
// city=Bklyn&state=NY was a 404 and "691 broadway bklyn" found nothing. Where a short form contradicts the zip, the
// property's and the valuation's place notes say how it was read (live/valuation/notes.ts placeConflict). The address and its borough are read from the
// raw NYC rolling-sales files, the Brooklyns of other states from the raw Census gazetteer.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { AutocompleteEngine } from '../../../live/autocomplete/endpoint.ts';
import type { AddressMatch } from '../../../live/autocomplete/index-search.ts';
import { PART_SHORT_FORMS } from '../../../live/places/names.ts';
import { BOROUGHS } from '../../../live/research/place-words.ts';

const SHORT = ['Bklyn', 'Bkln', 'bklyn', 'BKLN'];

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro', 100_000); }, 120_000);
afterAll(async () => { await srv?.close(); });

describe('GET /v1/geo/lookup', () => {
  test('city=Bklyn (any case, Bkln too) in NY is Brooklyn\'s answer', async () => {
    const want = await srv.get('/v1/geo/lookup?city=Brooklyn&state=NY', key);
    expect(want.status).toBe(200);
    const body = await want.json() as { city_name: string; fips_code: string };
    expect([body.city_name, body.fips_code]).toEqual(['Brooklyn', '36047']);
    for (const w of SHORT) {
      const r = await srv.get(`/v1/geo/lookup?city=${w}&state=NY`, key);
      expect(r.status, w).toBe(200);
      expect(await r.json(), w).toEqual(body);
    }
  });

  test('never another state\'s Brooklyn: the gazetteer\'s Brooklyns outside NY answer by name, not by Bklyn', async () => {
    const others = await rawQuery<{ st: string }>(`select distinct "USPS" as st from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}', all_varchar = true, delim = '|')
      where "NAME" ilike 'Brooklyn %' and "USPS" <> 'NY' order by 1`);
    expect(others.length).toBeGreaterThan(0);
    for (const { st } of others) {
      expect((await srv.get(`/v1/geo/lookup?city=Bklyn&state=${st}`, key)).status, st).toBe(404);
    }
  });
});

describe('autocomplete', () => {
  let engine: AutocompleteEngine;
  let raw: { borough: string; zip: string }[];
  beforeAll(async () => {
    engine = AutocompleteEngine.fromDir(path.join(buildDir(), 'live', 'autocomplete'), 60_000);
    raw = await rawQuery(`select distinct trim("BOROUGH") as borough, trim("ZIP CODE") as zip
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
      where trim(split_part("ADDRESS", ',', 1)) = '691 BROADWAY'`);
  }, 120_000);
  const ask = (q: string, limit = 10): AddressMatch[] => {
    const a = engine.answer({ q, limit });
    if (!a.ok) throw new Error(a.message);
    return (a.body as { results: AddressMatch[] }).results;
  };

  test('"691 broadway bklyn" is "691 broadway brooklyn": the rolling sales\' 691 BROADWAY of borough 3 (Brooklyn)', () => {
    expect(raw).toContainEqual({ borough: '3', zip: '11206' });
    const want = ask('691 broadway brooklyn');
    expect(want.map((m) => [m.address, m.zip, m.county])).toContainEqual(['691 BROADWAY', '11206', 'Kings County']);
    for (const w of SHORT) {
      const got = ask(`691 broadway ${w}`);
      expect(got, w).toEqual(want);
      for (const m of got) expect(m.county, w).toBe('Kings County');
    }
  });

  test('"bklyn ny", a place alone: Brooklyn\'s addresses, as "brooklyn ny"', () => {
    const want = ask('brooklyn ny');
    expect(want.length).toBe(10);
    for (const w of SHORT) expect(ask(`${w} ny`), w).toEqual(want);
  });
});

test('research reads Brooklyn by the same table (its borough pattern holds every short form of it)', () => {
  const brooklyn = BOROUGHS.find(([, a]) => a.name === 'Brooklyn' && a.county_fips === '36047')![0];
  const forms = Object.entries(PART_SHORT_FORMS).filter(([, p]) => p.city === 'Brooklyn').map(([k]) => k);
  expect(forms.sort()).toEqual(['bkln', 'bklyn']);
  for (const f of [...forms, ...SHORT]) expect(brooklyn.test(`median price in ${f}`), f).toBe(true);
});

describe('a short form that contradicts the zip: the place notes say how it was read', () => {
  test('"10 West 28th St, Bklyn, NY" in zip 10001 (the rolling sales\' borough 1, Manhattan): the property answers with a note naming Bklyn read as Brooklyn', async () => {
    const raw = await rawQuery<{ borough: string }>(`select distinct trim("BOROUGH") as borough from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
      where trim("ADDRESS") = '10 WEST 28TH STREET' and trim("ZIP CODE") = '10001'`);
    expect(raw).toEqual([{ borough: '1' }]);
    const full = await srv.get(`/v1/property?${new URLSearchParams({ zip: '10001', address: '10 West 28th St, Brooklyn, NY' })}`, key);
    expect(full.status).toBe(200);
    const want = await full.json() as { property_id: string; notes: string[] };
    expect(want.notes.join(' ')).toContain('names Brooklyn (the property is in Manhattan)');
    const r = await srv.get(`/v1/property?${new URLSearchParams({ zip: '10001', address: '10 West 28th St, Bklyn, NY' })}`, key);
    expect(r.status).toBe(200);
    const got = await r.json() as { property_id: string; notes?: string[] };
    expect(got.property_id).toBe(want.property_id);
    expect((got.notes ?? []).join(' ')).toContain('names Bklyn (read as Brooklyn; the property is in Manhattan)');
  });

  test('the valuation of an address "..., Bklyn, NY" in zip 10001 says the same', async () => {
    const r = await srv.post('/v1/valuation/estimate', { zip: '10001', address: '9 Nowhere St, Bklyn, NY' }, key);
    expect(r.status).toBe(200);
    const notes = (await r.json() as { notes: string[] }).notes.join(' ');
    expect(notes).toContain('names Bklyn (read as Brooklyn; zip 10001 is in Manhattan)');
  });
});
