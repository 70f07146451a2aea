// The owners of Philadelphia's OPA parcels counted again from the RAW file (research's owner counts,
// warehouse/docs/research.md "Owners counted for a place"), never the build's tables or macros: per zip and for the city,
// the parcels, those naming an owner (owner_1), the absentee owners among the parcels with a mailing street (property.md
// `absentee_owner`: the mailing street, normalised as market.md "Normalisation" and a pre-directional written on one
// side only ignored, is not the location, or the mailing zip is not the parcel's zip), and the owners mailed out of
// Pennsylvania among those whose mailing_city_state ends with a state's code.
import { dataFile, rawQuery } from './oracle-raw-comps.ts';
import { STREET_SUFFIXES } from '../../warehouse/address.ts';

const OPA = dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz');
/** The 50 states and DC by their USPS codes. */
const STATES = ['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA',
  'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY'];
const DIRECTIONS: Record<string, string> = { NORTH: 'N', SOUTH: 'S', EAST: 'E', WEST: 'W' };

/** SQL: a street line normalised: upper case, punctuation other than # / & - a space, one space between words, a
 *  trailing unit ("UNIT 4D") dropped, a direction word its letter, the last word its USPS suffix, then a pre-directional after the house number dropped
 *  (two lines equal but for one side's pre-directional are one line; two different directions stay two). */
function line(col: string): string {
  let s = `trim(regexp_replace(regexp_replace(upper(coalesce(${col}, '')), '[^A-Z0-9#/&\\- ]', ' ', 'g'), '\\s+', ' ', 'g'))`;
  s = `trim(regexp_replace(${s}, '\\s+(APT|APARTMENT|UNIT|STE|SUITE|NO|#)\\s*#?\\s*[A-Z0-9-]+$', ''))`; // a trailing unit is no part of the line
  for (const [w, l] of Object.entries(DIRECTIONS)) s = `regexp_replace(${s}, '(^| )${w}( |$)', '\\1${l}\\2', 'g')`;
  return `case regexp_extract(${s}, '(\\S+)$', 1) ${Object.entries(STREET_SUFFIXES).map(([k, v]) => `when '${k}' then regexp_replace(${s}, '\\S+$', '${v}')`).join(' ')} else ${s} end`;
}

export interface RawOwners { key: string; parcels: number; named: number; absenteeKnown: number; absentee: number; stateKnown: number; outOfState: number }

/** Per `zip|<zip>` and `city|PA|philadelphia`, the raw OPA owner counts. */
export async function rawPhiladelphiaOwners(): Promise<Map<string, RawOwners>> {
  const rows = await rawQuery<{ key: string; parcels: number; named: number; ak: number; ab: number; sk: number; oos: number }>(`
    with r as (
      select left(trim(zip_code), 5) as zip, nullif(trim(owner_1), '') as owner, nullif(trim(mailing_street), '') as mstreet,
             left(trim(mailing_zip), 5) as mzip, ${line('location')} as loc, ${line('mailing_street')} as mail,
             regexp_extract(upper(trim(mailing_city_state)), '\\s([A-Z]{2})$', 1) as mstate
      from read_csv('${OPA}', all_varchar = true)),
    f as (
      select *, mstreet is not null as ak,
             mstreet is not null and (not (mail = loc or regexp_replace(mail, '^(\\S+) [NSEW] ', '\\1 ') = loc
                                         or regexp_replace(loc, '^(\\S+) [NSEW] ', '\\1 ') = mail)
                                      or (mzip is not null and mzip <> '' and mzip is distinct from zip)) as ab,
             mstate in (${STATES.map((s) => `'${s}'`).join(', ')}) as sk
      from r),
    keyed as (select 'city|PA|philadelphia' as key, * from f union all select 'zip|' || zip, * from f where zip ~ '^[0-9]{5}$')
    select key, count(*)::int as parcels, count(owner)::int as named,
           count(*) filter (where ak)::int as ak, count(*) filter (where ab)::int as ab,
           count(*) filter (where owner is not null and sk)::int as sk, count(*) filter (where owner is not null and sk and mstate <> 'PA')::int as oos
    from keyed group by key`);
  return new Map(rows.map((r) => [r.key, { key: r.key, parcels: r.parcels, named: r.named, absenteeKnown: r.ak, absentee: r.ab, stateKnown: r.sk, outOfState: r.oos }]));
}
