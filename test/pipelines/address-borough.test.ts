// The `addresses` table's county of an NYC address whose borough is not its zip's county (warehouse/docs/address.md
// "What an answer says"): the borough the rolling sales' BOROUGH gives every sale row of it, as the autocomplete index
// answers. Before, only the index was corrected and the table kept the zip's county: Marble Hill (zip 10463, the
// Bronx's by USPS and the zip's county) read Bronx County in the table and New York County in the index. The boroughs
// are read here from the raw rolling-sales files.
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildDir, warehouseRows } from '../helpers/build.ts';
import { marbleHillRaw } from '../helpers/oracle-raw-comps.ts';
import { AutocompleteEngine } from '../../live/autocomplete/endpoint.ts';
import type { AddressMatch } from '../../live/autocomplete/index-search.ts';
import { normalizeAddress } from '../../warehouse/address.ts';

/** The rolling sales' borough codes and their counties (SOURCE.md; Census names). */
const COUNTY: Record<string, string> = { '1': 'New York County', '2': 'Bronx County', '3': 'Kings County', '4': 'Queens County', '5': 'Richmond County' };

interface Row { address: string; unit: string | null; zip: string; county: string; zip_county: string; city_part: string | null }
let engine: AutocompleteEngine;
let moved: Row[];
beforeAll(async () => {
  engine = AutocompleteEngine.fromDir(path.join(buildDir(), 'live', 'autocomplete'), 60_000);
  moved = await warehouseRows<Row>(`
    select a.address, a.unit, a.zip, a.county, coalesce(c.county_name, z.county_name) as zip_county, a.city_part
    from addresses a join zips z on z.zip = a.zip left join counties c on c.county_fips = z.county_fips
    where a.state_code = 'NY' and a.county is distinct from coalesce(c.county_name, z.county_name)
    order by a.address_id`);
}, 120_000);

describe('addresses: the county of the borough its source names', () => {
  test('Marble Hill (zip 10463): borough 1 in every raw row, so New York County in the table (before: Bronx County, the zip\'s)', async () => {
    const raw = await marbleHillRaw();
    expect(raw.length).toBeGreaterThan(0);
    for (const r of raw) {
      expect([r.borough, r.zip]).toEqual(['1', '10463']);
      const line = normalizeAddress(r.address).street;
      const rows = await warehouseRows<{ county: string; city_part: string }>(`select county, city_part from addresses where zip = '10463' and address = $line`, { line });
      expect(rows.length, line).toBeGreaterThan(0);
      for (const t of rows) expect([t.county, t.city_part], line).toEqual([COUNTY[r.borough], 'Manhattan']);
    }
  });

  test('every NY address whose county is not its zip\'s is so by its borough, and the index answers that county', () => {
    const parts: Record<string, string> = { Manhattan: '1', Bronx: '2', Brooklyn: '3', Queens: '4', 'Staten Island': '5' };
    expect(moved.length).toBeGreaterThan(200);
    for (const r of moved) expect(COUNTY[parts[r.city_part ?? ''] ?? ''], `${r.address} ${r.zip}`).toBe(r.county);
    // the index's record of each: the same county (its answer to the street line and zip)
    let checked = 0;
    for (const r of moved) {
      const a = engine.answer({ q: `${r.address}${r.unit ? ` unit ${r.unit}` : ''} ${r.zip}`, limit: 10 });
      if (!a.ok) throw new Error(a.message);
      const hits = (a.body as { results: AddressMatch[] }).results.filter((m) => m.zip === r.zip && m.address === (r.unit ? `${r.address} UNIT ${r.unit}` : r.address));
      for (const m of hits) { expect(m.county, m.address).toBe(r.county); checked++; }
    }
    expect(checked).toBeGreaterThan(moved.length / 2);
  });
});
