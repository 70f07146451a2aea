// properties.distress_count counts a property's open filings (warehouse/docs/property.md "Tables"): it counted every
// filing naming the property, closed ones included, so Louisville parcel 047B00560000, whose only case was sold at the
// commissioner sale on 2015-12-15, read 1 filing of distress, as an open case would. A closed case (sold at the
// commissioner sale, discontinued, dismissed, satisfied, terminated or sold at sheriff sale: market.md "Distress
// status") is now in distress_filings_total (additive) only. Recomputed per parcel from the raw files with the test's
// own SQL (test/helpers/oracle-distress.ts) and read back from the warehouse and the bulk export's properties file.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDir, warehouseRows } from '../../helpers/build.ts';
import { ALLEGHENY_CASE_STATUS, ALLEGHENY_ROWS, LOUISVILLE_CASES } from '../../helpers/oracle-distress.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';

interface Counts { state: string; parcel_id: string; open: number; total: number }
/** `state|parcel` -> its filings, open and all, from the raw files */
let raw: Map<string, Counts>;

beforeAll(async () => {
  const rows = await rawQuery<Counts>(`
    with f as (select distinct case_id, pin from ${ALLEGHENY_ROWS} where pin is not null)
    select 'PA' as state, pin as parcel_id, count(*) filter (where s.outcome is null)::int as open, count(*)::int as total
    from f join ${ALLEGHENY_CASE_STATUS} s using (case_id) group by pin
    union all
    select 'KY', parcel, count(distinct case_no) filter (where sold is null)::int, count(distinct case_no)::int
    from ${LOUISVILLE_CASES} where parcel is not null group by parcel`);
  raw = new Map(rows.map((r) => [`${r.state}|${r.parcel_id}`, r]));
}, 120_000);

const sql = (from: string): string => `
  select state, parcel_id, distress_count::int as open, distress_filings_total::int as total from ${from}
  where state in ('KY', 'PA') and parcel_id is not null and distress_filings_total > 0 order by state, parcel_id`;

describe('properties.distress_count: open filings only', () => {
  it('equals the raw files\' open filings of every parcel; distress_filings_total counts them all', async () => {
    const rows = await warehouseRows<Counts>(sql('properties'));
    expect(rows.length).toBe(raw.size);
    const wrong = rows.filter((r) => JSON.stringify(raw.get(`${r.state}|${r.parcel_id}`)) !== JSON.stringify(r));
    expect(wrong.slice(0, 5)).toEqual([]);
    const sum = (state: string, k: 'open' | 'total'): number => [...raw.values()].filter((r) => r.state === state).reduce((a, r) => a + r[k], 0);
    // Louisville: 245 of its 358 filings were sold at the commissioner sale
    expect({ ky: [sum('KY', 'open'), sum('KY', 'total')] }).toEqual({ ky: [113, 358] });
    expect(sum('PA', 'open')).toBeLessThan(sum('PA', 'total'));
    expect(raw.get('KY|047B00560000')).toEqual({ state: 'KY', parcel_id: '047B00560000', open: 0, total: 1 });
    // Plum Boro: case MG-15-000288, discontinued without prejudice, beside four open cases
    expect(raw.get('PA|0532F00136000000')).toMatchObject({ open: 4, total: 5 });
  });

  it('the bulk export\'s properties file says the same', async () => {
    const file = path.join(buildDir(), 'export', 'properties.parquet').replaceAll("'", "''");
    const rows = await warehouseRows<Counts>(sql(`read_parquet('${file}')`));
    expect(rows.length).toBe(raw.size);
    expect(rows.filter((r) => JSON.stringify(raw.get(`${r.state}|${r.parcel_id}`)) !== JSON.stringify(r)).slice(0, 5)).toEqual([]);
  });
});
