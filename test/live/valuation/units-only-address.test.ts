// A building address whose records are all units, asked without a unit (review h18 F2): the valuation answers what
// GET /v1/property answers, a 404 naming the units, and asks for one; before, "matches no recorded property" and the
// zip's typical house (1352 SOUTH ST, 19147: $394,000, a typical 1,319 sqft). The units are read from the raw OPA file.
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const api = serveSharedBuild('pro');

/** The raw OPA rows at a location of a zip: their units ('' for none). */
async function rawUnits(location: string, zip: string): Promise<string[]> {
  const rows = await rawQuery<{ unit: string }>(`select coalesce(trim(unit), '') as unit
    from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
    where trim(location) = '${location}' and left(trim(zip_code), 5) = '${zip}' order by 1`);
  return rows.map((r) => r.unit.replace(/^0+(?=\d)/, ''));
}

describe('an address recorded as units only, sent without a unit', () => {
  for (const [typed, location, zip] of [['1352 south st', '1352 SOUTH ST', '19147'], ['1037 Crease St', '1037 CREASE ST', '19125'], ['2002 ANNIN STREET', '2002 ANNIN ST', '19146']] as const) {
    it(`${typed} (${zip}): 404 naming its units, the property record's words; with a unit it is valued`, async () => {
      const units = await rawUnits(location, zip);
      expect(units.length, location).toBeGreaterThanOrEqual(2);
      expect(units.every((u) => u !== ''), location).toBe(true); // no whole-building record
      const res = await api.post('/v1/valuation/estimate', { zip, address: typed });
      const body = await res.json() as { message: string };
      expect(res.status, JSON.stringify(body)).toBe(404);
      const prop = await api.get(`/v1/property?zip=${zip}&address=${encodeURIComponent(typed)}`);
      const said = (await prop.json() as { message: string }).message;
      expect(prop.status).toBe(404);
      expect(body.message.startsWith(`${said}. `), body.message).toBe(true); // one message, one code
      for (const u of units.slice(0, 5)) expect(body.message).toMatch(new RegExp(`${location} #0*${u} \\(property_id `));
      expect(body.message).toContain(`as ${units.length} units and no whole property: send the address with one of its units`);
      const one = await api.post('/v1/valuation/estimate', { zip, address: `${typed} #${units[0]}` });
      expect(one.status).toBe(200);
    });
  }
});
