// The canonical sales.csv's deed columns (README "Canonical format": recorded_date, document_id, deed_type) and its
// 0-count rule, against the native Denver adapter over the same RAW deeds. The test writes a canonical file from the
// raw Denver file as an operator would (sale_date = the deed's date, recorded_date = RECEPTION_DATE, document_id =
// RECEPTION_NUM, deed_type = INSTRUMENT as the canonical words, beds/baths from the residential file), loads it
// through the canonical steps, loads the same parcels through the Denver adapter, runs the one arm's-length rule over
// both, and asks each deed's flags, dates and counts to be the same. Before these columns a canonical Denver had one
// date (the recording date): a double closing dated together but recorded apart was two arm's-length sales (an
// investor flip), a quit claim a market price, a bed count of 0 a studio.
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { HEADER, canonicalSources, load, sale } from '../helpers/canonical-sources.ts';
import { checkRejectShare } from '../../pipelines/sources/rejects.ts';
import { run } from '../helpers/market-fixtures.ts';
import { dataFile } from '../helpers/oracle-raw-comps.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';

const SALES = 'denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz';
const RESID = 'denver-real-property-sales/sales_with_residential_characteristics_2018-2019.csv.gz';
// 23215003000: WILSON -> MERIDIAN COL LLC $260,000 and MERIDIAN -> ADR PROPERTIES LLC $309,000, both dated 2018-02-27,
// recorded 02-28 and 03-01; 113306009000, 127308009000, 130411001000: the double closings of market-double-close;
// 23425038000 (QC $352,000), 22425048000 (AF), 217407017000 (CS): instruments for no value; 16110007000: beds 0.
const PARCELS = ['23215003000', '113306009000', '127308009000', '130411001000', '23425038000', '22425048000', '217407017000', '16110007000'];
const IN = PARCELS.map((p) => `'${p}'`).join(', ');

afterAll(removeTmpDirs);
let ctx: TestContext | undefined;
afterEach(() => ctx?.close());

/** The raw deeds of PARCELS as a canonical sales.csv (with the deed columns or without), in a new sources folder. */
async function canonicalFromRaw(deedColumns: boolean): Promise<string> {
  const dir = tmp('reii-canon-deeds-');
  fs.mkdirSync(path.join(dir, 'canonical'));
  const w = await makeContext();
  try {
    await w.db.run(`copy (
      select 'PARCEL ' || trim(s.SCHEDNUM) as address, 'Denver' as city, 'CO' as state, '80202' as zip,
        strftime(coalesce(try_strptime(trim(s.SALE_YEAR) || lpad(trim(s.SALE_MONTHDAY), 4, '0'), '%Y%m%d'),
                          strptime(s.RECEPTION_DATE, '%Y%m%d')), '%Y-%m-%d') as sale_date,
        s.SALE_PRICE as sale_price, case when s.CLASS in ('R', 'H') then 'sfr' else 'condo' end as property_type,
        r.BED_RMS as beds, try_cast(r.FULL_B as double) + coalesce(try_cast(r.HLF_B as double), 0) / 2 as baths,
        r.AREA_ABG as sqft, try_cast(try_cast(r.CCYRBLT as double) as int) as year_built,
        null as condition, null as lat, null as lng, trim(s.SCHEDNUM) as parcel_id, s.GRANTEE as buyer_name, s.GRANTOR as seller_name
        ${deedColumns ? `, strftime(strptime(s.RECEPTION_DATE, '%Y%m%d'), '%Y-%m-%d') as recorded_date, trim(s.RECEPTION_NUM) as document_id,
          case upper(trim(s.INSTRUMENT)) when 'WD' then 'warranty' when 'SW' then 'special_warranty' when 'PR' then 'personal_representative'
               when 'TR' then 'trustee' when 'BS' then 'Bargain_and_Sale' when 'QC' then 'quitclaim' else 'other_nonvalue' end as deed_type` : ''}
      from (select *, row_number() over () as n from read_csv('${dataFile(SALES)}', all_varchar = true)) s
      left join (select * from read_csv('${dataFile(RESID)}', all_varchar = true)
                 qualify row_number() over (partition by trim(RECEPTION_NUM), trim(PIN)) = 1) r
        on trim(r.RECEPTION_NUM) = trim(s.RECEPTION_NUM) and trim(r.PIN) = trim(s.PIN)
      where trim(s.SCHEDNUM) in (${IN}) order by s.n
    ) to '${path.join(dir, 'canonical', 'sales.csv')}' (header, delimiter ',', quote '"')`);
  } finally { w.close(); }
  return dir;
}

/** Loads the canonical file, then the same parcels through the Denver adapter, then the arm's-length rule over both. */
async function bothAdapters(deedColumns: boolean): Promise<TestContext> {
  ctx = (await load(await canonicalFromRaw(deedColumns))).ctx;
  await ctx.db.run(`create or replace table raw."denver__sales" as
    select * from (select *, '${SALES}' as _file, row_number() over () as _row from read_csv('${dataFile(SALES)}', all_varchar = true))
    where trim(SCHEDNUM) in (${IN})`);
  await ctx.db.run(`create or replace table raw."denver__residential" as
    select * from (select *, '${RESID}' as _file, row_number() over () as _row from read_csv('${dataFile(RESID)}', all_varchar = true))
    where trim(RECEPTION_NUM) in (select trim(RECEPTION_NUM) from raw."denver__sales")`);
  await run(ctx, 'pipelines/staging/stg_denver__sales.sql', 'pipelines/staging/stg_denver__residential.sql',
    'pipelines/intermediate/30_market_13_sales_denver.sql', 'pipelines/intermediate/30_market_14_sales_denver_characteristics.sql',
    'pipelines/intermediate/30_market_45_sale_flags.sql');
  return ctx;
}

const DEEDS = `select parcel_id as parcel, strftime(sale_date, '%Y-%m-%d') as date, sale_price as price, buyer_name as buyer,
    is_arms_length as arms, non_arms_length_reason as reason, beds, baths from sales where source = $source
  order by parcel_id, sale_date, sale_price, buyer_name`;

describe('a canonical file with the deed columns is read as the native Denver adapter reads the same deeds', () => {
  test('every deed: same date, flags and counts in both; the double closing, the quit claim and the 0 beds as native', async () => {
    const c = await bothAdapters(true);
    const native = await c.rows(DEEDS, { source: 'denver' });
    const canonical = await c.rows(DEEDS, { source: 'canonical' });
    expect(native.length).toBeGreaterThan(15);
    expect(canonical).toEqual(native);
    const pick = (parcel: string, price: number) => canonical.find((r) => r.parcel === parcel && r.price === price);
    // dated together, recorded apart: the wholesaler's purchase is a double_close, the end buyer's deed the sale
    expect(pick('23215003000', 260000)).toMatchObject({ date: '2018-02-27', buyer: 'MERIDIAN COL LLC', arms: false, reason: 'double_close' });
    expect(pick('23215003000', 309000)).toMatchObject({ date: '2018-02-27', buyer: 'ADR PROPERTIES LLC', arms: true, reason: null });
    expect(pick('23425038000', 352000)).toMatchObject({ arms: false, reason: 'deed_type' });
    expect(canonical.filter((r) => r.parcel === '16110007000')).toMatchObject([{ beds: null, baths: 2.5 }]);
    // the 0 is a repair the build report counts, never silent
    expect(await c.rows(`select rule, detail from meta.repairs where source = 'canonical' and detail like 'beds=%'`))
      .toEqual([{ rule: 'nulled_zero_is_unknown', detail: 'beds=0 -> null' }]);
    // the document and the recording date land where the Denver adapter puts its own
    expect(await c.rows(`select document_id, deed_type, strftime(recorded_date, '%Y-%m-%d') as recorded from sales
        where source = 'canonical' and parcel_id = '23215003000' order by document_id`)).toEqual([
      { document_id: '2018024251', deed_type: 'WD', recorded: '2018-02-28' },
      { document_id: '2018024669', deed_type: 'WD', recorded: '2018-03-01' },
      { document_id: '2018058502', deed_type: 'WD', recorded: '2018-05-17' },
    ]);
  });

  test('a file without the deed columns loads as before: no recording date, no document, no deed type', async () => {
    const c = await bothAdapters(false);
    expect(await c.rows(`select count(*)::int as n, count(recorded_date)::int as recorded, count(document_id)::int as docs,
        count(deed_type)::int as types from sales where source = 'canonical'`)).toEqual([{ n: 17, recorded: 0, docs: 0, types: 0 }]);
  });

  test('a deed type outside the list is nulled (a repair), a bad recording date too; the sale is kept', async () => {
    const dir = tmp('reii-canon-deeds-bad-');
    fs.mkdirSync(path.join(dir, 'canonical'));
    fs.writeFileSync(path.join(dir, 'canonical', 'sales.csv'), [
      'address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng,recorded_date,document_id,deed_type',
      '1 MAIN ST,Denver,CO,80202,2024-01-05,500000,condo,0,1,600,1990,,,,2024-01-09,D-1,grant',
      '2 MAIN ST,Denver,CO,80202,2024-01-05,500000,condo,1,1,600,1990,,,,09/01/2024,D-2,quitclaim',
    ].join('\n') + '\n');
    ctx = (await load(dir)).ctx;
    expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs where source = 'canonical' order by line, detail`)).toEqual([
      { line: 2, rule: 'nulled_zero_is_unknown', detail: 'beds=0 -> null' },
      { line: 2, rule: 'nulled_not_in_list', detail: 'deed_type=grant -> null' },
      { line: 3, rule: 'nulled_not_a_date', detail: 'recorded_date=09/01/2024 -> null' },
    ]);
    expect(await ctx.rows(`select line::int as line, beds, document_id, deed_type, recorded_date is null as no_recorded from sales order by line`)).toEqual([
      { line: 2, beds: null, document_id: 'D-1', deed_type: null, no_recorded: false },
      { line: 3, beds: 1, document_id: 'D-2', deed_type: 'QC', no_recorded: true },
    ]);
  });
});

describe('the reject-share gate names every required column the file leaves empty', () => {
  test('address and zip empty: both named with their rows, not only the first rule of each row', async () => {
    ctx = (await load(canonicalSources({ 'sales.csv': [HEADER, sale({ address: '', zip: '' }), sale({ address: '', zip: '' }),
      sale({ zip: '' }), sale({ address: '', sale_price: '' }), sale()].join('\n') + '\n' }))).ctx;
    const err = await checkRejectShare(ctx).catch((e: unknown) => e);
    expect((err as Error).message).toContain('80% of its rows were rejected (4 of 5)');
    expect((err as Error).message).toContain('top reasons: missing_value (address) 3, missing_value (zip) 1; '
      + 'required columns left empty: address 3, zip 3, sale_price 1 (every rejected row');
  });
});
