// Connecticut's zips derived again from the RAW files, by warehouse/docs/market.md "Zips guessed from coordinates"
// (the Connecticut paragraph), never the build's `zips`, `int_market_town_zctas` or macros: the sales files name a
// town and no zip, so a sale with a `Location` point (the GL extract's) takes the nearest ZCTA internal point (Census
// Gazetteer 2025) of its town's ZCTAs, the point and the distance as the build measures them (rounded to 4 decimals,
// equirectangular). A town's ZCTAs: those whose primary county subdivision (us_geo zctas.csv) is the town's; the
// town's county subdivision is the one holding a ZCTA whose USPS city (HUD's preferred city, else GeoNames' place,
// geo.md "city") is the town's name, else the only one holding ZCTAs whose USPS city has the town's name as whole
// words; a town named neither way has no ZCTA and its sales no zip. Only ZCTAs with a Gazetteer point in a zip of
// Connecticut (HUD's preferred state, else GeoNames') are candidates. Used by test/pipelines/ct-zips-raw.test.ts.
import { dataFile } from './oracle-raw-comps.ts';
import { CT_ROWS, CT_SALES } from './oracle-ct.ts';
import { STREET_SUFFIXES } from '../../warehouse/address.ts';

/** A subquery: per town (lower case) its ZCTAs (`zip`) with their internal points (`zlat`, `zlng`). */
export const CT_TOWN_ZCTAS = `(
  with hud as (select trim(ZIP) as zip, any_value(upper(trim(USPS_ZIP_PREF_CITY))) as city, any_value(trim(USPS_ZIP_PREF_STATE)) as st
               from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true) group by 1),
  gn as (select zip, arg_min(city, rn) as city, arg_min(st, rn) as st
         from (select trim(zipcode) as zip, upper(trim(place)) as city, trim(state_code) as st, row_number() over () as rn
               from read_csv('${dataFile('geonames-us-postal-codes/zipcodes.us.csv.gz')}', all_varchar = true)
               where coalesce(trim(state_code), '') <> '') group by 1),
  gaz as (select trim(GEOID) as zip, try_cast(trim(INTPTLAT) as double) as zlat, try_cast(trim(INTPTLONG) as double) as zlng
          from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', all_varchar = true, delim = '|')),
  zcta as (select lpad(trim(ZCTA5), 5, '0') as zip, nullif(trim("Primary County Subdivision"), '') as cousub
           from read_csv('${dataFile('usgeo-census-tables/zctas.csv.gz')}', all_varchar = true)),
  ct as (select z.zip, z.cousub, lower(coalesce(h.city, g.city)) as usps_city, gaz.zlat, gaz.zlng
         from zcta z join gaz using (zip) left join hud h using (zip) left join gn g using (zip)
         where coalesce(h.st, g.st) = 'CT' and z.cousub is not null and gaz.zlat is not null and gaz.zlng is not null),
  towns as (select distinct lower(trim("Town")) as town
            from read_csv('${dataFile('connecticut-real-estate-sales')}/*.csv.gz', all_varchar = true, union_by_name = true)
            where nullif(trim("Town"), '') is not null),
  named as (select distinct t.town, c.cousub from towns t join ct c on c.usps_city = t.town),
  worded as (select t.town, any_value(c.cousub) as cousub from towns t join ct c on contains(' ' || c.usps_city || ' ', ' ' || t.town || ' ')
             where t.town not in (select town from named) group by t.town having count(distinct c.cousub) = 1)
  select n.town, c.zip, c.zlat, c.zlng from (select * from named union all select * from worded) n join ct c using (cousub))`;

/** A subquery: every Connecticut sale (CT_ROWS, `why` the arm's-length rule's reason to leave it out) with `zip`, the
 *  nearest of its town's ZCTAs to its point (null without a point or without a ZCTA of the town). */
export const CT_ROWS_ZIPPED = `(
  with s as (select *, row_number() over () as sid from ${CT_ROWS}),
  near as (select s.sid, arg_min(z.zip, pow(z.zlat - round(s.lat, 4), 2) + pow((z.zlng - round(s.lng, 4)) * cos(radians(round(s.lat, 4))), 2)) as zip
           from s join ${CT_TOWN_ZCTAS} z on z.town = lower(s.town)
           where s.lat between -90 and 90 and s.lng between -180 and 180 group by s.sid)
  select s.* exclude (sid), near.zip from s left join near using (sid))`;
/** The kept sales of CT_ROWS_ZIPPED. */
export const CT_SALES_ZIPPED = `(select * exclude (why) from ${CT_ROWS_ZIPPED} where why is null)`;

/** SQL: a street line as market.md "Normalisation" stores it: punctuation other than # / & - as spaces, one space
 *  between words, the last word abbreviated to its USPS Publication 28 suffix (the table is USPS's list, kept in
 *  warehouse/address.ts; the rule is written here): "31 BIRCH HILL ROAD" (Lyme, 2022-04-12) and "31 BIRCH HILL RD"
 *  (2022-09-26) are one property. */
export const PUNCT = (a: string): string => `trim(regexp_replace(regexp_replace(${a}, '[^A-Z0-9#/&\\- ]', ' ', 'g'), '\\s+', ' ', 'g'))`;
export const SUFFIX = (st: string): string => `case regexp_extract(${st}, '(\\S+)$', 1) ${Object.entries(STREET_SUFFIXES).map(([k, v]) => `when '${k}' then regexp_replace(${st}, '\\S+$', '${v}')`).join(' ')} else ${st} end`;

/** SQL: a Connecticut street line's unit, as market.md reads a unit written on the line ("12 MAIN ST UNIT 4",
 *  "APT 2B", "#302", "UNIT4"): the token after a unit designator or '#' at the line's end; null when none. */
export const UNIT = (a: string): string => `nullif(coalesce(
  nullif(regexp_extract(${a}, '\\s+(?:(?:APT|APARTMENT|UNIT|STE|SUITE|NO)[\\s#]|#)\\s*#?\\s*([A-Z0-9-]+)$', 1), ''),
  regexp_extract(${a}, '\\s+(?:APT|APARTMENT|UNIT|STE|SUITE|NO)([0-9][A-Z0-9-]*)$', 1)), '')`;
/** SQL: the street line without that unit, its spaces single. */
export const STREET = (a: string): string => `trim(regexp_replace(regexp_replace(${a},
  '\\s+((?:APT|APARTMENT|UNIT|STE|SUITE|NO)[\\s#]|#)\\s*#?\\s*[A-Z0-9-]+$|\\s+(?:APT|APARTMENT|UNIT|STE|SUITE|NO)[0-9][A-Z0-9-]*$', ''), '\\s+', ' ', 'g'))`;
/** SQL: whether a street line names a lot (property.md "Identity"): a digit other than a route's ("ROUTE 32") or a
 *  numbered street's ("5TH AVE"), not only zeros. */
export const NAMES_LOT = (a: string): string => `regexp_matches(regexp_replace(regexp_replace(${a},
  '\\b(ROUTE|RTE|RT|HWY|HIGHWAY|US|I|INTERSTATE|SR|CR|STATE ROAD|COUNTY ROAD)[ -]?[A-Z]?-?[0-9]+[A-Z]?\\b', ' ', 'g'), '\\b[0-9]+(ST|ND|RD|TH)\\b', ' ', 'g'), '[1-9]')`;

/** One Connecticut zip and window of 3..24 months: `n` residential kept sales, `rehab` of them quick resales at a gain. */
export interface CtRehab { zip: string; src: string; months: number; as_of: string; n: number; rehab: number }

/**
 * The rehab resale share of every Connecticut zip (market.md "mart_rehab"; no permit source covers Connecticut, so
 * the score is the share alone): per zip observing a resale (a repeat kept sale of one property in it, any type) and
 * window ending at Connecticut's last kept sale (either file), the residential (sfr, condo, multi) kept sales of the
 * zip and the quick resales at a gain among them (the property's previous kept sale 1 to 365 days before, at a price
 * >= 10% lower). The property (market.md "int_market_resales", property.md "Identity"): no parcel id, so the street
 * line (normalised: PUNCT, SUFFIX) when it names a lot, within its zip, plus the unit without punctuation; a condo sale naming no unit is no
 * property's. A day's sales of one property in the order of their document number, then line.
 */
export const CT_ZIP_REHAB = `
  with p as (select * replace (${PUNCT('address')} as address) from ${CT_SALES_ZIPPED}),
  u as (select *, ${UNIT('address')} as unit, ${STREET('address')} as street0 from p),
  s as (select *, ${SUFFIX('street0')} as street from u),
  keyed as (select *, zip || '|' || street || '|' || coalesce(regexp_replace(unit, '[^A-Z0-9]', '', 'g'), '') as pkey from s
            where zip is not null and address is not null and ${NAMES_LOT('street')} and not (type = 'condo' and unit is null)),
  chain as (select *, lag(day) over w as pd, lag(price) over w as pp from keyed
            window w as (partition by pkey order by day, lpad(doc, 40, '0'), line_no)),
  observing as (select distinct zip from chain where pd is not null and pp > 0),
  ends as (select max(day) as e from ${CT_SALES}),
  residential as (select * from s where type in ('sfr', 'condo', 'multi') and zip in (select zip from observing)),
  quick as (select * from chain where type in ('sfr', 'condo', 'multi') and day - pd between 1 and 365 and price >= 1.1 * pp),
  windows as (select range::int as months from range(3, 25))
  select r.zip, 'connecticut' as src, w.months, strftime(e.e, '%Y-%m-%d') as as_of, count(*)::int as n,
         (select count(*) from quick q where q.zip = r.zip and q.day > e.e - to_months(w.months) and q.day <= e.e)::int as rehab
  from residential r cross join ends e cross join windows w
  where r.day > e.e - to_months(w.months) and r.day <= e.e
  group by r.zip, w.months, e.e`;
