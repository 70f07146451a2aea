// The property record's `absentee_owner` (Philadelphia, warehouse/docs/property.md): the OPA mailing street is not the
// property's street line, or the mailing zip is not its zip. A pre-directional that only one of the two writes
// ("1001 SLOCUM ST" on the roll, "1001 E SLOCUM ST" as the mailing street) is the same line (same_street_line,
// 30_market_00_canonical_tables.sql). The macro is run over lines of the raw OPA file; the shared real build
// (REII_TEST_ARTIFACTS) is checked against the raw file's own mailing columns, read here with DuckDB.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { warehouseRows } from '../helpers/build.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

const OPA = path.join(SHARED_DATA, 'philadelphia-opa-properties-sample', 'opa_properties_public_sample.csv.gz');
let ctx: TestContext;
beforeAll(async () => { ctx = await makeContext(); await runSqlFile(ctx, 'pipelines/intermediate/30_market_00_canonical_tables.sql'); });
afterAll(() => ctx?.close());

/** Raw OPA parcels whose mailing street (upper case, one space) is the location but for one pre-directional word. */
async function directionOnly(): Promise<{ parcel: string; location: string; mailing: string; mzip: string; zip: string }[]> {
  return ctx.rows(`with r as (
      select parcel_number::varchar as parcel, upper(trim(location)) as location, regexp_replace(upper(trim(mailing_street)), '\\s+', ' ', 'g') as mailing,
             left(mailing_zip::varchar, 5) as mzip, left(zip_code::varchar, 5) as zip
      from read_csv('${OPA}', all_varchar = true) where mailing_street is not null and location is not null)
    select * from r where mailing <> location
      and regexp_replace(mailing, '^(\\S+) (N|S|E|W|NORTH|SOUTH|EAST|WEST) ', '\\1 ') = location
    order by parcel`);
}

describe('same_street_line', () => {
  test('a pre-directional written on one side only is the same line; two directions are two lines', async () => {
    const raw = await directionOnly();
    expect(raw.find((r) => r.location === '1001 SLOCUM ST')).toMatchObject({ mailing: '1001 E SLOCUM ST', mzip: '19150', zip: '19150' });
    const got = await ctx.rows<{ same: boolean }>(`select same_street_line(normalize_address(m), normalize_address(l)) as same
      from (values ${raw.map((r) => `('${r.mailing.replace(/'/g, "''")}', '${r.location.replace(/'/g, "''")}')`).join(', ')}) t(m, l)`);
    expect(got.every((g) => g.same)).toBe(true);
    const other = await ctx.rows<{ a: boolean; b: boolean; c: boolean }>(`select same_street_line('1001 E SLOCUM ST', '1001 W SLOCUM ST') as a,
      same_street_line('1001 EAST SLOCUM ST', '1001 E SLOCUM ST') as b, same_street_line('100 N ST', '100 ST') as c`);
    expect(other).toEqual([{ a: false, b: true, c: false }]);
  });
});

describe('absentee_owner in the real build', () => {
  test('an owner mailed at the property, its street written with a direction, in its zip, is not absentee', async () => {
    const raw = (await directionOnly()).filter((r) => r.mzip === r.zip);
    expect(raw.length).toBeGreaterThan(20);
    const built = await warehouseRows<{ parcel_id: string; absentee_owner: boolean | null }>(`select parcel_id, absentee_owner from properties
      where source = 'philadelphia' and parcel_id in (${raw.map((r) => `'${r.parcel}'`).join(', ')})`);
    expect(built.length).toBe(raw.length);
    expect(built.filter((b) => b.absentee_owner !== false).map((b) => b.parcel_id)).toEqual([]);
  });
});
