// NYC whole-building sales whose address ends with a bare number are not units (review 18a #4; warehouse/docs/market.md,
// the NYC adapter row), over the shared real build (REII_TEST_ARTIFACTS) against the raw rolling sales files: on a
// row of a lot sold under no other unit in the files, a house or small rental building's number ("23 PROSPECT PLACE,
// 6", categories 01-03 and 14), or a larger rental building's own unit count (07, 08: "96 STERLING PLACE, 25", 25
// units), is the building's sale, with the building's area; a lot sold unit by unit and a larger building's other
// number keep their unit.
import { describe, expect, test } from 'vitest';
import { warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

const FILES = `read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)`;

/** The raw rows: category code, the street's part after the comma, units, area, and how many units the lot sold under
 *  in the files (the part, else the apartment column, as written). */
const RAW = `(select *, count(distinct coalesce(nullif(trim(apt), ''), part)) over (partition by b, blk, lot) as lot_units from (
  select "BOROUGH" as b, "BLOCK" as blk, "LOT" as lot, left("BUILDING CLASS CATEGORY", 2) as cat, "ADDRESS" as address,
         "APARTMENT NUMBER" as apt, nullif(trim(split_part("ADDRESS", ',', 2)), '') as part,
         try_cast(replace("RESIDENTIAL UNITS", ',', '') as integer) as ru, try_cast(replace("TOTAL UNITS", ',', '') as integer) as tu,
         try_cast(replace("GROSS SQUARE FEET", ',', '') as double) as gsf,
         try_cast("SALE DATE" as date) as d, try_cast(replace("SALE PRICE", ',', '') as double) as price
  from ${FILES}))`;

/** The build's sale of each raw address (its staging row: the same file and line). */
const built = (addresses: string[]): Promise<{ address: string; unit: string | null; sqft: number | null; property_type: string }[]> =>
  warehouseRows(`select g.address, s.unit, s.sqft, s.property_type from sales s join stg_nyc__sales g on g.file = s.file and g.row_number + 1 = s.line
                 where s.source = 'nyc' and g.address in (${addresses.map((a) => `'${a}'`).join(', ')}) order by g.address`);

describe('NYC whole buildings sold under a number', () => {
  test('a house or rental building sold whole is no unit and keeps its area; units sold unit by unit stay units', async () => {
    const raw = await rawQuery<{ address: string; cat: string; ru: number; gsf: number; price: number; lot_units: number }>(`
      select address, cat, ru, gsf, price, lot_units::int as lot_units from ${RAW}
      where address in ('23 PROSPECT PLACE, 6', '156 COURT STREET, 6', '96 STERLING PLACE, 25', '78 1ST STREET, 25') order by address`);
    expect(raw).toEqual([
      { address: '156 COURT STREET, 6', cat: '14', ru: 6, gsf: 5500, price: 7_065_000, lot_units: 1 },
      { address: '23 PROSPECT PLACE, 6', cat: '02', ru: 2, gsf: 3040, price: 4_800_000, lot_units: 1 },
      // one of 429 units for $380,000: the number is not the building's, its unit stays
      { address: '78 1ST STREET, 25', cat: '08', ru: 429, gsf: 323193, price: 380_000, lot_units: 1 },
      { address: '96 STERLING PLACE, 25', cat: '07', ru: 25, gsf: 18020, price: 16_500_000, lot_units: 1 },
    ]);
    expect(await built(raw.map((r) => r.address).concat('20 RIVER TERRACE, 14J'))).toEqual([
      { address: '156 COURT STREET, 6', unit: null, sqft: 5500, property_type: 'multi' },
      { address: '20 RIVER TERRACE, 14J', unit: '14J', sqft: null, property_type: 'condo' },
      { address: '23 PROSPECT PLACE, 6', unit: null, sqft: 3040, property_type: 'multi' },
      { address: '78 1ST STREET, 25', unit: '25', sqft: null, property_type: 'multi' },
      { address: '96 STERLING PLACE, 25', unit: null, sqft: 18020, property_type: 'multi' },
    ]);
  });

  test('every such row of the raw files is a building sale without a unit, no other bare number is', async () => {
    const rule = `lot_units < 2 and nullif(trim(coalesce(apt, '')), '') is null and regexp_matches(coalesce(part, ''), '^[0-9]+$')
      and (cat in ('01', '02', '03', '14') or (cat in ('07', '08') and try_cast(part as integer) in (ru, tu)))`;
    const [raw] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${RAW} where d is not null and price >= 0 and ${rule}`);
    const [numbered] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${RAW} where d is not null and price >= 0
      and regexp_matches(coalesce(part, ''), '^[0-9]+$') and nullif(trim(coalesce(apt, '')), '') is null`);
    const [b] = await warehouseRows<{ none: number; all: number }>(`
      select (count(*) filter (where s.unit is null))::int as none, count(*)::int as all
      from sales s join stg_nyc__sales g on g.file = s.file and g.row_number + 1 = s.line
      where s.source = 'nyc' and regexp_matches(coalesce(nullif(trim(split_part(g.address, ',', 2)), ''), ''), '^[0-9]+$')
        and nullif(trim(coalesce(g.apartment_number, '')), '') is null`);
    expect(b).toEqual({ none: raw!.n, all: numbered!.n });
    expect(raw!.n).toBeGreaterThan(250);
  });
});
