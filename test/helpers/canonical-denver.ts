// Denver's raw deeds (../shared/data/denver-real-property-sales) written as a canonical folder, as an operator would
// write a county's deed file: for the canonical tests of a deed file keyed by parcel (README "Canonical format").
// Denver's files have no street address, zip or point (SOURCE.md), so the place is a stand-in, the same in every
// form: address `PARCEL <SCHEDNUM>` (the key scripts/canonical-sales.ts gives King County's houses), city Denver, CO,
// zip 80202. Everything else is the raw file's: sale_date the deed's date (else the recording date, as the native
// adapter reads it), price, class as the type, parties, parcel id, recording date and number, and beds, baths, sqft,
// year built from the residential file's row of the deed (joined on RECEPTION_NUM and PIN: SOURCE.md).
//   keyed 'address'  sales.csv gives each sale's place (no parcels.csv unless `parcels`)
//   keyed 'parcel'   sales.csv leaves address, city, state and zip empty; parcels.csv gives them, one row per parcel
//                    (its facts from the parcel's latest deed's residential row); the `unlisted` parcels are left out of it
import fs from 'node:fs';
import path from 'node:path';
import { makeContext } from './context.ts';
import { dataFile } from './oracle-raw-comps.ts';

const SALES = 'denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz';
const RESID = 'denver-real-property-sales/sales_with_residential_characteristics_2018-2019.csv.gz';
export const DENVER_ZIP = '80202';

export interface DenverCanonical {
  keyed: 'address' | 'parcel';
  /** the deeds to write: a condition on the raw file's trimmed SCHEDNUM, e.g. `like '1611%'` */
  schednum: string;
  /** the parcels left out of parcels.csv (their deeds then have no place): a condition on the parcel id, e.g. `like '16111%'` */
  unlisted?: string;
  /** write parcels.csv (always for keyed 'parcel') */
  parcels?: boolean;
}

/** Writes `<dir>/canonical/sales.csv` (and `parcels.csv`) from Denver's raw deeds. */
export async function writeDenverCanonical(dir: string, o: DenverCanonical): Promise<void> {
  fs.mkdirSync(path.join(dir, 'canonical'), { recursive: true });
  const w = await makeContext();
  const place = o.keyed === 'parcel'
    ? `null as address, null as city, null as state, null as zip`
    : `'PARCEL ' || parcel_id as address, 'Denver' as city, 'CO' as state, '${DENVER_ZIP}' as zip`;
  try {
    await w.db.run(`create temp table deeds as
      select trim(s.SCHEDNUM) as parcel_id, s.n,
        strftime(coalesce(try_strptime(trim(s.SALE_YEAR) || lpad(trim(s.SALE_MONTHDAY), 4, '0'), '%Y%m%d'),
                          strptime(s.RECEPTION_DATE, '%Y%m%d')), '%Y-%m-%d') as sale_date,
        s.SALE_PRICE as sale_price, case when s.CLASS in ('R', 'H') then 'sfr' else 'condo' end as property_type,
        r.BED_RMS as beds, try_cast(r.FULL_B as double) + coalesce(try_cast(r.HLF_B as double), 0) / 2 as baths,
        r.AREA_ABG as sqft, try_cast(try_cast(r.CCYRBLT as double) as int) as year_built,
        s.GRANTEE as buyer_name, s.GRANTOR as seller_name,
        strftime(strptime(s.RECEPTION_DATE, '%Y%m%d'), '%Y-%m-%d') as recorded_date, trim(s.RECEPTION_NUM) as document_id
      from (select *, row_number() over () as n from read_csv('${dataFile(SALES)}', all_varchar = true)) s
      left join (select * from read_csv('${dataFile(RESID)}', all_varchar = true)
                 qualify row_number() over (partition by trim(RECEPTION_NUM), trim(PIN)) = 1) r
        on trim(r.RECEPTION_NUM) = trim(s.RECEPTION_NUM) and trim(r.PIN) = trim(s.PIN)
      where trim(s.SCHEDNUM) ${o.schednum}`);
    await w.db.run(`copy (
      select ${place}, sale_date, sale_price, property_type, beds, baths, sqft, year_built, null as condition, null as lat, null as lng,
             parcel_id, buyer_name, seller_name, recorded_date, document_id
      from deeds order by n
    ) to '${path.join(dir, 'canonical', 'sales.csv')}' (header, delimiter ',', quote '"')`);
    if (o.keyed === 'parcel' || o.parcels) {
      await w.db.run(`copy (
        select parcel_id, 'PARCEL ' || parcel_id as address, 'Denver' as city, 'CO' as state, '${DENVER_ZIP}' as zip, property_type,
               beds, baths, sqft, year_built, null as lat, null as lng
        from deeds where not coalesce(parcel_id ${o.unlisted ?? 'is null'}, false)
        qualify row_number() over (partition by parcel_id order by recorded_date desc, document_id desc) = 1
        order by parcel_id
      ) to '${path.join(dir, 'canonical', 'parcels.csv')}' (header, delimiter ',', quote '"')`);
    }
  } finally { w.close(); }
}
