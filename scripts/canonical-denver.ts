// `npx tsx scripts/canonical-denver.ts --out DIR [--keyed parcel|address]`: Denver's raw deeds (../shared/data/
// denver-real-property-sales, read in place) as a canonical sources folder (README "Canonical format"): DIR/canonical/
// sales.csv, plus parcels.csv for `--keyed parcel` (the default), and the geography and reference folders linked
// beside it (scripts/canonical-folder.ts, as scripts/canonical-sales.ts lays out its folder), so `npx reii build
// --sources DIR` builds it as a market.
//   parcel   a county's deed file keyed by parcel: sales.csv leaves address, city, state and zip empty and gives
//            parcel_id; parcels.csv gives each parcel's place, facts and owner (one row per SCHEDNUM: its latest
//            deed's residential row and grantee, Denver's owner rule, 30_market_15: a day's deeds in reception-number
//            order, document_order()), and the build places each sale by
//            its parcel
//   address  the same deeds with the place written on every sale (no parcels.csv): the figures to compare with
// Denver's files have no street address, zip or point (SOURCE.md), so the place is a stand-in, the same in both forms:
// address `PARCEL <SCHEDNUM>` (King County's key in scripts/canonical-sales.ts), city Denver, CO, and as zip one of
// Denver's ZCTAs per assessor neighbourhood (NBHD_1, in code order, round the list STAND_IN_ZIPS): a grouping that
// lets per-zip figures be compared, not Denver's real zips. The rest is the raw file's, as the native adapter reads it
// (30_market_13/14): sale_date the deed's date (else the recording date), price, CLASS as the type (R, H sfr; O condo),
// GRANTEE / GRANTOR, RECEPTION_DATE and RECEPTION_NUM, INSTRUMENT as the deed_type word, and beds, baths, sqft and year
// built from the residential file's row of the deed (joined on RECEPTION_NUM and PIN: SOURCE.md). Deeds the native
// adapter rejects (no date, no price, another class) are left out and counted.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadSettings } from '../warehouse/settings.ts';
import { linkReference, readArgs, usageExit } from './canonical-folder.ts';

const SALES = path.join('denver-real-property-sales', 'real_property_sales_and_transfers_2018-2019.csv.gz');
const RESID = path.join('denver-real-property-sales', 'sales_with_residential_characteristics_2018-2019.csv.gz');
/** Denver's ZCTAs 80202-80239 (zips whose city is Denver, CO and that have a Census area), the stand-in zips. */
export const STAND_IN_ZIPS = ['80202', '80203', '80204', '80205', '80206', '80207', '80209', '80210', '80211', '80212', '80214', '80215', '80216',
  '80218', '80219', '80220', '80221', '80222', '80223', '80224', '80226', '80227', '80228', '80229', '80230', '80231', '80232', '80233', '80234',
  '80235', '80236', '80237', '80238', '80239'];

const q = (s: string): string => `'${s.replaceAll("'", "''")}'`;

export async function writeCanonicalDenver(sources: string, out: string, keyed: 'parcel' | 'address'): Promise<{ sales: number; parcels: number; left_out: number }> {
  fs.mkdirSync(path.join(out, 'canonical'), { recursive: true });
  const inst = await DuckDBInstance.create(':memory:');
  const db = await inst.connect();
  try {
    await db.run(`create temp table deeds as
      with s as (select *, row_number() over () as n from read_csv(${q(path.join(sources, SALES))}, all_varchar = true)),
      r as (select * from read_csv(${q(path.join(sources, RESID))}, all_varchar = true)
            qualify row_number() over (partition by trim(RECEPTION_NUM), trim(PIN)) = 1),
      hoods as (select nbhd, ${`[${STAND_IN_ZIPS.map(q).join(', ')}]`}[(row_number() over (order by nbhd) - 1) % ${STAND_IN_ZIPS.length} + 1] as zip
                from (select distinct coalesce(trim(NBHD_1), '') as nbhd from s))
      select trim(s.SCHEDNUM) as parcel_id, s.n, h.zip,
        strftime(coalesce(try_strptime(trim(s.SALE_YEAR) || lpad(trim(s.SALE_MONTHDAY), 4, '0'), '%Y%m%d'),
                          try_strptime(trim(s.RECEPTION_DATE), '%Y%m%d')), '%Y-%m-%d') as sale_date,
        trim(s.SALE_PRICE) as sale_price, case when trim(s.CLASS) in ('R', 'H') then 'sfr' when trim(s.CLASS) in ('O', 'A', 'B') then 'condo' end as property_type,
        trim(r.BED_RMS) as beds, try_cast(r.FULL_B as double) + coalesce(try_cast(r.HLF_B as double), 0) / 2 as baths,
        trim(r.AREA_ABG) as sqft, try_cast(try_cast(r.CCYRBLT as double) as int) as year_built,
        nullif(trim(s.GRANTEE), '') as buyer_name, nullif(trim(s.GRANTOR), '') as seller_name,
        strftime(try_strptime(trim(s.RECEPTION_DATE), '%Y%m%d'), '%Y-%m-%d') as recorded_date, nullif(trim(s.RECEPTION_NUM), '') as document_id,
        case upper(trim(s.INSTRUMENT)) when 'WD' then 'warranty' when 'SW' then 'special_warranty' when 'PR' then 'personal_representative'
             when 'TR' then 'trustee' when 'BS' then 'bargain_and_sale' when 'QC' then 'quitclaim' else 'other_nonvalue' end as deed_type
      from s join hoods h on h.nbhd = coalesce(trim(s.NBHD_1), '')
      left join r on trim(r.RECEPTION_NUM) = trim(s.RECEPTION_NUM) and trim(r.PIN) = trim(s.PIN)`);
    const ok = `sale_date is not null and try_cast(sale_price as double) >= 0 and property_type is not null and parcel_id <> ''`;
    const place = keyed === 'parcel' ? `null as address, null as city, null as state, null as zip`
      : `'PARCEL ' || parcel_id as address, 'Denver' as city, 'CO' as state, zip`;
    await db.run(`copy (
      select ${place}, sale_date, sale_price, property_type, beds, baths, sqft, year_built, null as condition, null as lat, null as lng,
             parcel_id, buyer_name, seller_name, recorded_date, document_id, deed_type
      from deeds where ${ok} order by n
    ) to ${q(path.join(out, 'canonical', 'sales.csv'))} (header, delimiter ',', quote '"')`);
    const count = async (sql: string): Promise<number> => Number((await db.runAndReadAll(sql)).getRows()[0]![0]);
    let parcels = 0;
    if (keyed === 'parcel') {
      const sql = `select parcel_id, 'PARCEL ' || parcel_id as address, 'Denver' as city, 'CO' as state, zip, property_type,
               beds, baths, sqft, year_built, null as lat, null as lng, buyer_name as owner_name
        from deeds where ${ok}
        qualify row_number() over (partition by parcel_id order by sale_date desc, lpad(document_id, 40, '0') desc nulls last, n desc) = 1`;
      await db.run(`copy (${sql} order by parcel_id) to ${q(path.join(out, 'canonical', 'parcels.csv'))} (header, delimiter ',', quote '"')`);
      parcels = await count(`select count(*) from (${sql})`);
    }
    return { sales: await count(`select count(*) from deeds where ${ok}`), parcels, left_out: await count(`select count(*) from deeds where not (${ok})`) };
  } finally { db.closeSync(); inst.closeSync(); }
}

const USAGE = `usage: npx tsx scripts/canonical-denver.ts --out DIR [--keyed parcel|address]

Writes Denver's raw deeds (the sources folder, REII_SOURCES, default ../shared/data) as a buildable sources folder:
DIR/canonical/sales.csv (+ parcels.csv when keyed by parcel) and the geography and reference folders linked beside it.
Then: npx reii build --sources DIR --artifacts ART, or npm run eval:avm -- --sources DIR.
  --out DIR        the sources folder to write (required; created if absent)
  --keyed parcel   sales.csv gives only the parcel_id, parcels.csv each parcel's place (default)
  --keyed address  the place written on every sale, no parcels.csv
`;

if (import.meta.main) {
  const values = readArgs(process.argv.slice(2), USAGE, { out: { type: 'string' }, keyed: { type: 'string', default: 'parcel' } }, ['out']);
  if (!['parcel', 'address'].includes(values['keyed']!)) usageExit(`--keyed ${values['keyed']}: parcel or address`, USAGE);
  const sources = loadSettings().sources;
  const out = path.resolve(values['out']!);
  try {
    const n = await writeCanonicalDenver(sources, out, values['keyed'] as 'parcel' | 'address');
    linkReference(sources, out);
    process.stdout.write(`${out}/canonical: ${n.sales} sales${n.parcels ? `, ${n.parcels} parcels` : ''}; left out ${n.left_out} deeds (no date, no price or not a residential class)\n`);
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
