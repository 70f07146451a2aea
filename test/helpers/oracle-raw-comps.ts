// An independent recomputation of the comps medians from the raw source files (King County, Sacramento, NYC,
// Philadelphia), by the rules of warehouse/docs/market.md without the build's marts, shards or macros; used by
// test/pipelines/market-build.test.ts. Plain DuckDB over the files in ../shared/data.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { SHARED_DATA } from './paths.ts';

const DATA = SHARED_DATA;
/** The path of a file under ../shared/data, its quotes doubled for a SQL string literal. */
export const dataFile = (rel: string): string => path.join(DATA, rel).replaceAll("'", "''");

/** One query over a fresh in-memory DuckDB (two threads), its rows as JSON objects. */
export async function rawQuery<T>(sql: string): Promise<T[]> {
  const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await inst.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

/** A party's name as market.md compares them: upper case, punctuation as one space. */
/** A party name as the adapters key it (upper case, letters, digits and & only, single spaces). */
export const partyKey = (col: string): string => `nullif(trim(regexp_replace(regexp_replace(upper(coalesce(${col}, '')), '[^A-Z0-9&]', ' ', 'g'), ' +', ' ', 'g')), '')`;

/** Philadelphia OPA's property type of a raw row, as its adapter reads it (market.md "Sources"): a condominium unit is
 *  filed under SINGLE FAMILY with a RES CONDO building code; a condo parking space is land. */
export const PHILADELPHIA_TYPE = `case when trim(category_code_description) = 'SINGLE FAMILY' and trim(building_code_description) like 'RES CONDO%' then 'condo'
         when trim(category_code_description) = 'SINGLE FAMILY' and trim(building_code_description) = 'CONDO PARKING SPACE' then 'land'
         when trim(category_code_description) = 'SINGLE FAMILY' then 'sfr'
         when trim(category_code_description) in ('MULTI FAMILY', 'APARTMENTS  > 4 UNITS', 'APARTMENTS > 4 UNITS') then 'multi'
         when trim(category_code_description) like 'VACANT LAND%' or trim(category_code_description) = 'GARAGE - RESIDENTIAL' then 'land'
         when trim(category_code_description) in ('MIXED USE', 'COMMERCIAL', 'OFFICES', 'INDUSTRIAL', 'SPECIAL PURPOSE') then 'commercial' end`;

/** Philadelphia OPA's raw rows with `d0`, the sale date as written, and the pieces of a sale the oracles read of them. */
export const PHILADELPHIA_ROWS = `(select *, try_cast(left(sale_date, 10) as date) as d0
            from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true))`;
/** SOURCE.md: 2068-2071 are 1968-1971 written with two digits. */
export const PHILADELPHIA_DATE = 'case when year(d0) between 2060 and 2099 then d0 - interval 100 year else d0 end::date';
export const PHILADELPHIA_DOC = "case when trim(book_and_page) <> '0000000' then trim(book_and_page) end";
export const PHILADELPHIA_BUYER = partyKey("trim(concat_ws(' ', trim(owner_1), trim(owner_2)))");

/**
 * The raw sales of every source with a zip (King County, Sacramento, NYC, Philadelphia) that market.md's arm's-length
 * rule keeps but for portfolio deeds, read straight from the raw files: a `with` clause ending in `market` (`src`,
 * `zip`, `d` the sale date, `price`, `sqft`, `type`, `prop`, `block`, `unit` (NYC's apartment, market.md's reading of
 * it), `portfolio`: a portfolio deed's sale, which a price figure leaves out). A sale recorded twice, or keyed twice at prices within 0.5%
 * with the same facts (a near copy, market.md "Duplicate"), is one sale. Shared by rawComps and the trends' raw recomputation (test/pipelines/trends-raw-nyc-philadelphia.test.ts).
 */
export const RAW_MARKET_SALES = `
    with recorded as (
      select 'king_county' as src, zipcode as zip, strptime("date", '%Y%m%dT%H%M%S')::date as d, try_cast(price as double) as price,
             try_cast(sqft_living as double) as sqft, 'sfr' as type, id as prop, null as doc, null as buyer, null as block,
             null::double as assessed, null::varchar as unit, concat_ws('|', bedrooms, bathrooms, yr_built) as facts
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
      union all
      select 'sacramento', zip, try_cast(sale_date_iso as date), try_cast(price as double), try_cast(sq__ft as double),
             case "type" when 'Residential' then 'sfr' when 'Condo' then 'condo' when 'Multi-Family' then 'multi' end,
             upper(street) || '|' || zip, null, null, null, null, null, concat_ws('|', beds, baths)
      from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
      union all
      select 'nyc', zip, d, price,
             -- a unit of a building of 2+ units: the gross area is the building's, no living area (review 6 #7); a
             -- billing lot's unit over 50,000 sqft likewise (review 15); a bare number after the comma of a lot sold under no
             -- other unit is a house or small rental building's (01-03, 14), or a larger one's unit count (07, 08): the
             -- building's sale, its area kept (review 18a #4)
             case when unit is not null and greatest(ru, tu) > 1 and not building_row then null
                  when cat = '11' and type = 'condo' and gsf > 50000 then null else gsf end,
             type, prop, null, null, block, null, case when not building_row then unit end, yb
      from (select *,
              -- market.md, NYC: a billing lot's row naming an apartment, and a rental building's row naming a unit of a lot
              -- sold under 2+ units, are condo units' sales (review 15)
              case when cat = '01' then 'sfr'
                   when cat = '11' and regexp_matches(coalesce(unit, ''), '[0-9]') then 'condo'
                   when cat in ('02', '03', '07', '08', '14') and unit is not null and count(distinct unit) over (partition by lot) >= 2 then 'condo'
                   when cat in ('02', '03', '07', '08', '11', '14') then 'multi'
                   -- co-op apartments (09, 10 and 17 CONDO COOPS): a share in a cooperative, no condo (F7)
                   when cat in ('09', '10', '17') then 'coop'
                   when cat in ('04', '12', '13', '15', '16') then 'condo'
                   when cat in ('05', '31') then 'land'
                   when regexp_matches(cat, '^[0-9]{2}$') then 'commercial' end as type,
              count(distinct unit) over (partition by lot) as lot_units,
              coalesce(count(distinct unit) over (partition by lot) < 2 and apt is null and regexp_matches(coalesce(part, ''), '^[0-9]+$')
                       and (cat in ('01', '02', '03', '14') or (cat in ('07', '08') and try_cast(part as integer) in (ru, tu))), false) as building_row
            from (select *,
                    -- the unit: the street's ", 16C" when the apartment column holds no number, else the column, else the
                    -- part after the comma unless a garage word on a house or rental row ("18 CRANBERRY STREET, GAR")
                    case when regexp_matches(coalesce(part, ''), '[0-9]') and not regexp_matches(coalesce(apt, ''), '[0-9]') then part
                         else coalesce(apt, case when not (cat in ('01', '02', '03', '07', '08', '14')
                                                      and regexp_matches(coalesce(part, ''), '^(GAR|GARAGE|GARAG|GARGE|GRG|PKG|PKNG|PAKNG|PARKING)$')) then part end) end as unit
                  from (select trim("ZIP CODE") as zip, try_cast("SALE DATE" as date) as d, try_cast(replace("SALE PRICE", ',', '') as double) as price,
                               try_cast(replace("GROSS SQUARE FEET", ',', '') as double) as gsf, trim("YEAR BUILT") as yb,
                               coalesce(try_cast(replace("RESIDENTIAL UNITS", ',', '') as integer), 0) as ru, coalesce(try_cast(replace("TOTAL UNITS", ',', '') as integer), 0) as tu,
                               case when regexp_matches(trim("BUILDING CLASS CATEGORY"), '^[0-9]{2} ') then left(trim("BUILDING CLASS CATEGORY"), 2) end as cat,
                               nullif(upper(trim("APARTMENT NUMBER")), '') as apt, nullif(upper(trim(split_part("ADDRESS", ',', 2))), '') as part,
                               trim("BOROUGH") || '-' || trim("BLOCK") || '-' || trim("LOT") as lot,
                               trim("BOROUGH") || '-' || trim("BLOCK") || '-' || trim("LOT") || '|' || upper(trim("ADDRESS")) || '|' || upper(coalesce(trim("APARTMENT NUMBER"), '')) as prop,
                               trim("BOROUGH") || '-' || trim("BLOCK") as block
                        from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true))))
      union all
      select 'philadelphia', left(trim(zip_code), 5),
             ${PHILADELPHIA_DATE},
             try_cast(sale_price as double), try_cast(total_livable_area as double),
             -- a condominium unit is filed under SINGLE FAMILY with a RES CONDO building code; a condo parking space is land
             ${PHILADELPHIA_TYPE},
             trim(parcel_number), ${PHILADELPHIA_DOC}, ${PHILADELPHIA_BUYER}, null,
             -- the roll's market value: the sale-to-assessment ratio's numerator
             try_cast(market_value as double), null,
             concat_ws('|', trim(number_of_bedrooms), trim(number_of_bathrooms), trim(year_built))
      from ${PHILADELPHIA_ROWS}
    ),
    -- market.md "Row contracts" (step 3, every source's rows): a zip outside the ZIP universe (the union of the ZIP
    -- reference, GeoNames with a state, the 2025 ZCTAs, USPS Locale Detail and the HUD crosswalk: geo.md) rejects
    -- the row (NYC's 11347 and 11255: no reference file lists them), and so do a price above its type's bound and a
    -- living area outside its type's bounds; a zip that is no 5 digits (NYC's 0) is none, the row kept without a zip
    -- (it still counts in its city's market)
    zip_universe as (
      select zip_code as z from read_csv('${dataFile('us-zip-reference/zip_reference.csv.gz')}', all_varchar = true)
      union select zipcode from read_csv('${dataFile('geonames-us-postal-codes/zipcodes.us.csv.gz')}', all_varchar = true) where coalesce(trim(state_code), '') <> ''
      union select GEOID from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', all_varchar = true, delim = '|')
      union select "DELIVERY ZIPCODE" from read_csv('${dataFile('usps-zip-locale-detail/ZIP_Locale_Detail.csv.gz')}', all_varchar = true)
      union select ZIP from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true)
    ),
    bounds as (
      select * from (values ('sfr', 250e6, 100, 50000), ('condo', 250e6, 100, 50000), ('multi', 2e9, 100, 10e6),
                            ('commercial', 5e9, 1, 50e6), ('land', 2e9, 1, 50e6)) b(type, max_price, min_sqft, max_sqft)
    ),
    usable as (
      select r.* replace (case when regexp_full_match(r.zip, '[0-9]{5}') then r.zip end as zip, nullif(r.sqft, 0) as sqft)
      from recorded r left join bounds b on b.type = (case when r.type in ('sfr', 'condo', 'multi', 'land') then r.type else 'commercial' end)
      where r.d is not null and year(r.d) >= 1900 and r.price is not null and r.type is not null
        and (not regexp_full_match(coalesce(r.zip, ''), '[0-9]{5}') or r.zip in (select z from zip_universe))
        and r.price <= b.max_price and (coalesce(r.sqft, 0) = 0 or r.sqft between b.min_sqft and b.max_sqft)
    ),
    -- market.md "Duplicate": a near copy, the same property, date, buyer and facts (type, beds, baths, area, year
    -- built, assessed value: \`facts\` holds what each file records of them) at prices within 0.5% of the higher, is one
    -- sale keyed twice (a group whose prices spread wider is left alone): one copy kept, the higher price
    -- (Sacramento's 1223 LAMBERTON CIR, 95838, $155,435 and $155,500 on 2008-05-19)
    nearing as (
      select *, count(*) over g > 1 and min(price) over g < max(price) over g and max(price) over g - min(price) over g <= 0.005 * max(price) over g as near
      from usable window g as (partition by src, prop, d, buyer, type, sqft, assessed, facts)
    ),
    marked as (
      select * exclude (near, facts),
        (doc is not null and count(distinct prop) over (partition by src, doc, d, price) >= 2)
        or (buyer is not null and count(distinct prop) over (partition by src, buyer, d, price) >= 2)
        or (block is not null and count(distinct prop) over (partition by src, block, d, price) >= 2)
        -- NYC: the blocks of one borough at a price neither a multiple of $500 nor $1 under one of $1,000 (review 16 #1)
        or (block is not null and price > 10000 and price % 500 <> 0 and (price + 1) % 1000 <> 0
            and count(distinct prop) over (partition by src, split_part(block, '-', 1), d, price) >= 2) as portfolio,
        row_number() over (partition by src, prop, d, case when not near then price end,
                           case when near then [buyer, type, sqft::varchar, assessed::varchar, facts] end order by price desc) as copy
      from nearing
    ),
    -- sales validation by the sale-to-assessment ratio (market.md): fences Q1 - 3 IQR .. Q3 + 3 IQR per source and
    -- type over the sales of at least $10,000 outside portfolio deeds (30 or more), a ratio outside them is no market sale
    fences as (
      select src, type, quantile_cont(assessed / price, 0.25) as q1, quantile_cont(assessed / price, 0.75) as q3
      from marked where price >= 10000 and not (src = 'nyc' and price <= 10000) and not portfolio and assessed > 0 group by all having count(*) >= 30
    ),
    market as (
      select m.* from marked m left join fences f using (src, type)
      where price >= 10000 and not (src = 'nyc' and price <= 10000) and copy = 1
        and not coalesce(assessed > 0 and (assessed / price < q1 - 3 * (q3 - q1) or assessed / price > q3 + 3 * (q3 - q1)), false)
    )`;

let rawCompsMemo: Promise<Map<string, { n: number; median: number; withPortfolios: number | null }>> | null = null;
/**
 * Comps medians per `zip|type|months` recomputed straight from the raw files of every source that has a zip and a
 * living area (King County, Sacramento, NYC, Philadelphia), by market.md without the build: property types from
 * each source's own codes; prices of at least $10,000 (NYC: over it, its SOURCE.md); portfolio deeds out (two or more properties on one date at one
 * price sharing Philadelphia's book and page or owner, or NYC's tax block, or NYC's borough at a price no multiple of
 * $500 nor $1 under one of $1,000); a Philadelphia sale whose ratio of the
 * roll's market value to its price is outside the 3 IQR fences of its type left out; a sale recorded twice counted once; the
 * window ending at the zip's latest such sale; comps with a living area. `withPortfolios` is the median had the
 * portfolio deeds stayed in (what the build answered before the rule).
 */
export function rawComps(): Promise<Map<string, { n: number; median: number; withPortfolios: number | null }>> {
  rawCompsMemo ??= rawQuery<{ k: string; n: number; median: number; with_portfolios: number | null }>(`
    ${RAW_MARKET_SALES},
    ends as (select zip, max(d) filter (where not portfolio) as e_arms, max(d) as e_all from market group by zip),
    windows as (select range::int as months from range(3, 25))
    select m.zip || '|' || m.type || '|' || w.months as k,
           count(*) filter (where not m.portfolio and m.d > e.e_arms - to_months(w.months) and m.d <= e.e_arms)::int as n,
           quantile_cont(m.price / m.sqft, 0.5) filter (where not m.portfolio and m.d > e.e_arms - to_months(w.months) and m.d <= e.e_arms) as median,
           quantile_cont(m.price / m.sqft, 0.5) filter (where m.d > e.e_all - to_months(w.months)) as with_portfolios
    from market m join ends e using (zip) cross join windows w
    where m.sqft > 0 and m.d > least(e.e_arms, e.e_all) - interval 24 month
    group by all`).then((rows) => new Map(rows.map((r) => [r.k, { n: r.n, median: r.median, withPortfolios: r.with_portfolios }])));
  return rawCompsMemo;
}

/** The raw NYC rolling-sales rows of Marble Hill Avenue (zip 10463, Manhattan's borough 1 though USPS names it the
 *  Bronx's): each distinct borough, address as the file writes it, and zip. Read by the addresses table's and the
 *  autocomplete index's borough tests. */
export const marbleHillRaw = (): Promise<{ borough: string; address: string; zip: string }[]> => rawQuery(`
  select distinct trim("BOROUGH") as borough, trim("ADDRESS") as address, trim("ZIP CODE") as zip
  from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
  where "ADDRESS" ilike '%MARBLE HILL AVE%'`);
