// Row contracts of every market source, after every adapter has inserted its rows (30_market_10..43) and before
// anything reads them (the arm's-length flags, resales, marts): one set of rules in one place for `sales`,
// `parcels`, `permits` and `distress`, whatever the source (warehouse/docs/market.md "Row contracts").
// A row that breaks one is removed from its table and recorded in meta.rejects with its file line, the rule and
// the column with its value; then a file whose share of such rows passes settings.rejectMaxShare fails the build.
// Canonical rows only: a value the format lets be empty (list_date, list_price, beds, baths, sqft, year_built,
// lat/lng, a distress amount) out of its bounds is set to null instead and the row kept, recorded in meta.repairs as `nulled_<rule>`
// (a bad lat or lng nulls both).
//   date_in_future / date_before_1900   an event date (sale, listing, permit issue, filing) after the build's
//        clock (ctx.builtAt) or before 1900-01-01
//   out_of_range   a price, area, room count, year built, valuation, amount or coordinate outside its bounds
//        (int_contract_bounds, per property type) or not finite
//   too_long       a street line over 200 characters, a city over 100
//   unknown_state  a state code that is not one of the 50 states and DC (`states`)
//   bad_zip / unknown_zip / zip_not_in_state   a zip that is not 5 digits, not in the ZIP universe (`zips`), or
//        not in the row's state (`zips` and the HUD ZIP-county crosswalk)
//   outside_state  lat/lng outside the box of the row's state (int_contract_state_boxes: its ZIP centroids + 0.5 deg)
//   city_not_at_zip  canonical rows only: a city that is one place of `cities` in the row's state, whose geo lookup
//        does not list the zip, that is not the zip's USPS city, and whose point is over 25 km from the zip's
//        ("Hartford" on a Branford 06405 sale). The zip places the row (comps, trends, rehab read it); the city is
//        nulled (a meta.repairs row `nulled_city_not_at_zip` naming the zip's city and the distance) and takes the
//        zip's city as every row without one does (30_market_80_fill_geo.sql "City from zip"). Over the reference
//        sources the rule finds no row: their widest honest pair is NYC's "New York" on 11040, 21 km (market.md).
// The reference checks need the geography: without `states` or `zips` (a sources folder without the Census
// tables) they are skipped with a warning. A real record that is no market signal (a $0 transfer) is not a reject:
// prices may be 0 here; the arm's-length rule (30_market_45_sale_flags.sql) flags it instead.
import type { StageContext } from '../../warehouse/context.ts';
import { columnExists, queryRows, tableExists } from '../../warehouse/db.ts';
import { canonicalRejectLines, checkRejectShare } from '../sources/rejects.ts';

/** Bounds per property type (documented in warehouse/docs/market.md "Row contracts"; prices in USD, areas in sqft). */
export const PROPERTY_BOUNDS = [
  { property_type: 'sfr', max_price: 250e6, min_sqft: 100, max_sqft: 50_000 },
  { property_type: 'condo', max_price: 250e6, min_sqft: 100, max_sqft: 50_000 },
  { property_type: 'multi', max_price: 2e9, min_sqft: 100, max_sqft: 10e6 },
  { property_type: 'commercial', max_price: 5e9, min_sqft: 1, max_sqft: 50e6 },
  { property_type: 'land', max_price: 2e9, min_sqft: 1, max_sqft: 50e6 },
] as const;
/** Bounds that do not depend on the property type. */
export const BOUNDS = {
  minDate: '1900-01-01',
  maxRooms: 100, // beds and baths, each
  minYearBuilt: 1600, // and at most the build's year + 1 (a house sold before it is finished)
  maxValuation: 5e9, // a permit's declared cost
  maxAmount: 1e9, // a distress filing's claimed amount
  maxAddressChars: 200,
  maxCityChars: 100,
  boxMarginDegrees: 0.5, // added on each side of a state's ZIP centroid extent
  cityZipKm: 25, // a canonical row's city this far from its zip, neither listing the other, contradicts it
} as const;

interface TableContract {
  table: string;
  dates: string[];
  prices: string[]; // bounded by the property type's max_price; 0 allowed for the first (a recorded $0 transfer)
  money?: { column: string; max: number };
  property: boolean; // has property_type, sqft, beds, baths, year_built
  city: boolean;
  state: boolean; // has its own state_code (else the zip's state is used for the box)
  coords: boolean;
}

const TABLES: TableContract[] = [
  { table: 'sales', dates: ['sale_date', 'list_date'], prices: ['sale_price', 'list_price'], property: true, city: true, state: true, coords: true },
  { table: 'parcels', dates: [], prices: [], property: true, city: true, state: true, coords: true },
  { table: 'permits', dates: ['issue_date'], prices: [], money: { column: 'valuation', max: BOUNDS.maxValuation }, property: false, city: true, state: true, coords: true },
  { table: 'distress', dates: ['filing_date'], prices: [], money: { column: 'amount', max: BOUNDS.maxAmount }, property: false, city: true, state: true, coords: true },
];

const hit = (rule: string, column: string, value: string): string => `{'rule': '${rule}', 'col': '${column}', 'val': cast(${value} as varchar)}`;
/** A DOUBLE as the file most likely wrote it: 12, not 12.0 (the value a reject shows). */
const num = (x: string): string => `regexp_replace(cast(${x} as varchar), '\\.0$', '')`;

/** The CASE that gives a row's first broken rule ({rule, col, val}), or null. Column names come from TABLES, never from data. */
function rulesSql(c: TableContract, ref: { states: boolean; zips: boolean; cities: boolean }): string {
  const w: string[] = [];
  for (const d of c.dates) {
    w.push(`when t.${d} > $today::date then ${hit('date_in_future', d, `t.${d}`)}`);
    w.push(`when t.${d} < date '${BOUNDS.minDate}' then ${hit('date_before_1900', d, `t.${d}`)}`);
  }
  c.prices.forEach((p, i) => {
    const low = i === 0 ? `t.${p} < 0` : `t.${p} <= 0`;
    w.push(`when t.${p} is not null and (not isfinite(t.${p}) or ${low} or t.${p} > b.max_price) then ${hit('out_of_range', p, num(`t.${p}`))}`);
  });
  if (c.money) {
    const m = c.money.column;
    w.push(`when t.${m} is not null and (not isfinite(t.${m}) or t.${m} < 0 or t.${m} > ${c.money.max}) then ${hit('out_of_range', m, num(`t.${m}`))}`);
  }
  if (c.property) {
    w.push(`when t.sqft is not null and (not isfinite(t.sqft) or t.sqft < b.min_sqft or t.sqft > b.max_sqft) then ${hit('out_of_range', 'sqft', num('t.sqft'))}`);
    for (const r of ['beds', 'baths']) {
      w.push(`when t.${r} is not null and (not isfinite(t.${r}) or t.${r} < 0 or t.${r} > ${BOUNDS.maxRooms}) then ${hit('out_of_range', r, num(`t.${r}`))}`);
    }
    w.push(`when t.year_built is not null and (t.year_built < ${BOUNDS.minYearBuilt} or t.year_built > $year::int + 1) then ${hit('out_of_range', 'year_built', 't.year_built')}`);
  }
  if (c.coords) {
    w.push(`when t.lat is not null and (not isfinite(t.lat) or t.lat not between -90 and 90) then ${hit('out_of_range', 'lat', num('t.lat'))}`);
    w.push(`when t.lng is not null and (not isfinite(t.lng) or t.lng not between -180 and 180) then ${hit('out_of_range', 'lng', num('t.lng'))}`);
  }
  w.push(`when length(t.address) > ${BOUNDS.maxAddressChars} then ${hit('too_long', 'address', 't.address')}`);
  if (c.city) w.push(`when length(t.city) > ${BOUNDS.maxCityChars} then ${hit('too_long', 'city', 't.city')}`);
  if (c.state && ref.states) {
    w.push(`when t.state_code is not null and cs.state_code is null then ${hit('unknown_state', 'state', 't.state_code')}`);
  }
  w.push(`when t.zip is not null and not regexp_full_match(t.zip, '[0-9]{5}') then ${hit('bad_zip', 'zip', 't.zip')}`);
  if (ref.zips) {
    w.push(`when t.zip is not null and zz.zip is null then ${hit('unknown_zip', 'zip', 't.zip')}`);
    if (c.state) w.push(`when t.zip is not null and t.state_code is not null and zs.zip is null then ${hit('zip_not_in_state', 'zip', `t.zip || ' (state ' || t.state_code || ')'`)}`);
    if (c.coords) {
      w.push(`when t.lat is not null and t.lng is not null and bx.state_code is not null
                and not (t.lat between bx.min_lat and bx.max_lat and t.lng between bx.min_lng and bx.max_lng)
               then {'rule': 'outside_state', 'col': 'lat,lng', 'val': ${num('t.lat')} || ',' || ${num('t.lng')} || ' (' || bx.state_code || ')'}`);
    }
  }
  if (c.city && c.state && ref.zips && ref.cities) {
    const km = 'km_between(cp.lat, cp.lng, zz.lat, zz.lng)';
    w.push(`when t.source = 'canonical' and cp.lat is not null and zz.lat is not null and not list_contains(coalesce(cp.zip_codes, []), t.zip)
                and slug(coalesce(zz.city, '')) <> cp.city_slug and ${km} > ${BOUNDS.cityZipKm}
               then ${hit('city_not_at_zip', 'city', `t.city || ' (zip ' || t.zip || ' is ' || coalesce(zz.city, '?') || ', ' || round(${km})::int || ' km away)'`)}`);
  }
  return `case ${w.join('\n         ')} end`;
}

export async function run(ctx: StageContext): Promise<void> {
  const db = ctx.db;
  const today = ctx.builtAt.toISOString().slice(0, 10);
  const year = ctx.builtAt.getUTCFullYear();
  const nonEmpty = async (t: string): Promise<boolean> =>
    (await tableExists(db, t)) && ((await queryRows<{ n: number }>(db, `select count(*)::int as n from (select 1 from ${t} limit 1)`))[0]?.n ?? 0) > 0;
  const ref = { states: await nonEmpty('states'), zips: await nonEmpty('zips'), cities: await nonEmpty('cities') };
  if (!ref.states || !ref.zips) {
    ctx.log.warn('row contracts: no geography (states/zips), so real state, zip in state and coordinates in state are not checked');
  }

  await db.run(`create or replace table int_contract_bounds as
    select * from (values ${PROPERTY_BOUNDS.map((b) => `('${b.property_type}', ${b.max_price}::double, ${b.min_sqft}::double, ${b.max_sqft}::double)`).join(', ')})
      t(property_type, max_price, min_sqft, max_sqft)`);
  await db.run(`create or replace temp table contract_states as select ${ref.states ? 'distinct state_code from states' : 'null::varchar as state_code where false'}`);
  await db.run(ref.zips
    ? `create or replace table int_contract_state_boxes as
       select z.state_code,
              min(z.lat) - ${BOUNDS.boxMarginDegrees} as min_lat, max(z.lat) + ${BOUNDS.boxMarginDegrees} as max_lat,
              min(z.lng) - ${BOUNDS.boxMarginDegrees} as min_lng, max(z.lng) + ${BOUNDS.boxMarginDegrees} as max_lng,
              count(*)::int as zips
       from zips z where z.lat is not null and z.lng is not null and z.state_code is not null group by 1 order by 1`
    : `create or replace table int_contract_state_boxes (state_code varchar, min_lat double, max_lat double, min_lng double, max_lng double, zips integer)`);
  // the states a zip is in: its state in `zips`, and the state of every county the HUD crosswalk puts it in
  const hud = ref.zips && ref.states && (await tableExists(db, 'stg_hud_crosswalk__zip_county'));
  await db.run(`create or replace temp table contract_zip_state as select ${ref.zips ? `zip, state_code, lat, lng, ${(await columnExists(db, 'zips', 'city')) ? 'city' : 'null::varchar as city'} from zips where zip is not null` : 'null::varchar as zip, null::varchar as state_code, null::double as lat, null::double as lng, null::varchar as city where false'}`);
  // a city name that is one place of its state (a name two places share says nothing of where the row is)
  await db.run(`create or replace temp table contract_city_points as
    ${ref.cities ? `select state_code, city_slug, any_value(lat) as lat, any_value(lng) as lng, any_value(zip_codes) as zip_codes
       from cities where state_code is not null and city_slug is not null group by all having count(*) = 1` : 'select null::varchar as state_code, null::varchar as city_slug, null::double as lat, null::double as lng, null::varchar[] as zip_codes where false'}`);
  await db.run(`create or replace temp table contract_zip_states as
    select distinct zip, state_code from (
        select zip, state_code from contract_zip_state
        ${hud ? `union all select h.zip, s.state_code from stg_hud_crosswalk__zip_county h join states s on s.state_fips = left(h.county_fips, 2) where h.zip is not null` : ''}
    ) where state_code is not null`);

  for (const c of TABLES) {
    if (!(await tableExists(db, c.table))) continue;
    // A canonical row's optional value out of its bounds is nulled and the row kept (README "Canonical format"):
    // a meta.repairs row `nulled_<rule>` (detail `<column>=<value> -> null`), then the row is checked again (its next broken rule may be another column's).
    const nullable = nullableColumns(c);
    for (let pass = 0; pass <= nullable.length + 1; pass++) {
      await hitsOf(c);
      const repair = `source = 'canonical' and (hit.col in (${[...nullable, 'lat,lng'].map((x) => `'${x}'`).join(', ')}) or hit.rule = 'city_not_at_zip')`;
      const [r] = await queryRows<{ n: number }>(db, `select count(*)::int as n from contract_hits where ${repair}`);
      if (!r?.n || pass === nullable.length + 1) break;
      await db.run(`insert into meta.repairs
        select 'intermediate', source, file, line, 'nulled_' || hit.rule, reject_detail(hit.col, hit.val) || ' -> null' from contract_hits where ${repair}`);
      const sets = nullable.map((x) => `${x} = case when rowid in (select rid from contract_hits where ${repair} and hit.col in (${x === 'lat' || x === 'lng' ? `'lat', 'lng', 'lat,lng'` : `'${x}'`})) then null else ${x} end`);
      if (c.city) sets.push(`city = case when rowid in (select rid from contract_hits where ${repair} and hit.rule = 'city_not_at_zip') then null else city end`);
      await db.run(`update ${c.table} set ${sets.join(', ')} where rowid in (select rid from contract_hits where ${repair})`);
      ctx.log.info(`row contracts: ${r.n} optional ${c.table} values nulled (canonical rows kept)`);
    }
    // a line already rejected for the same rule (the sale and the parcel one line of a source made) is recorded once
    await db.run(`
      insert into meta.rejects
      select 'intermediate', h.source, h.file, h.line, h.hit.rule, reject_detail(h.hit.col, h.hit.val)
      from contract_hits h
      where not exists (select 1 from meta.rejects r where r.source = h.source and r.file = h.file and r.line = h.line and r.rule = h.hit.rule)`);
    await db.run(`delete from ${c.table} where rowid in (select rid from contract_hits)`);
    const [n] = await queryRows<{ n: number }>(db, `select count(*)::int as n from contract_hits`);
    if (n?.n) ctx.log.info(`row contracts: ${n.n} ${c.table} rows rejected`);
  }
  await db.run(`drop table if exists contract_hits; drop table if exists contract_states; drop table if exists contract_zip_state; drop table if exists contract_zip_states; drop table if exists contract_city_points;`);
  await checkRejectShare(ctx);
  // the operator's own files apart from the reference sources' rejects (review 15), one line per file
  for (const line of await canonicalRejectLines(db)) ctx.log.info(`your canonical rejects: ${line}`);

  async function hitsOf(c: TableContract): Promise<void> {
    await db.run(`
      create or replace temp table contract_hits as
      select * from (
          select t.rowid as rid, t.source, t.file, t.line, ${rulesSql(c, ref)} as hit
          from ${c.table} t
          ${c.property ? `left join int_contract_bounds b on b.property_type = coalesce(t.property_type, 'commercial')` : ''}
          left join contract_states cs on cs.state_code = t.state_code
          left join contract_zip_state zz on zz.zip = t.zip
          left join contract_zip_states zs on zs.zip = t.zip and zs.state_code = t.state_code
          ${c.city && c.state ? `left join contract_city_points cp on cp.state_code = t.state_code and cp.city_slug = slug(t.city)` : ''}
          left join int_contract_state_boxes bx on bx.state_code = coalesce(t.state_code, zz.state_code)
      ) where hit is not null`, { ...(c.dates.length ? { today } : {}), ...(c.property ? { year } : {}) });
  }
}

/** The columns of a table the canonical format lets be empty, whose bad value is nulled (the row kept). */
function nullableColumns(c: TableContract): string[] {
  return [
    ...c.dates.slice(1), ...c.prices.slice(1), // list_date, list_price
    ...(c.property ? ['beds', 'baths', 'sqft', 'year_built'] : []),
    ...(c.coords ? ['lat', 'lng'] : []),
    ...(c.money?.column === 'amount' ? ['amount'] : []),
  ];
}
