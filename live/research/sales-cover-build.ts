// live/research/sales-cover.json: every market (a zip, or a state and city slug) where a sales source of the build
// records a sale of any kind, arm's-length or flagged, with its sources and the counts of each: the rows of
// mart_market_source (pipelines/marts/30_mart_market_source.ts). The market endpoints read it (api/market-source.ts)
// to tell a market no source covers from one whose records are all flagged not arm's-length (review 18: zip 06779,
// Watertown CT, holds one land sale flagged by its non-use code, and was answered "No sales source covers zip 06779");
// each market's `source` is the mart's, the value its shards write, so the 404's wording names the source as the answers
// do. A few hundred markets: small. A zip's permits and filings ride along (`permits`, `distress`: the rehab 404 of a
// zip whose permits give no score, api/rehab-not-found.ts), and a zip of those alone has an entry with no sale; so has a
// zip of no sale record in a city a sales source records (`city`: the 404 names the city's sales, not other markets), and
// a zip or city of no sale record in a county a sales source records (`county`: the county's sales, review 24 C).
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';

/** The additive `source` of a market answer, {id, name, vintage}, as the mart composes it from the manifest's names. */
export interface MarketSource { id: string; name: string; vintage: string | null }
/** One market's sales records: `sources` (source ids), `source` (the answers' `source`, as the shards write it),
 *  `arms_length` (the sales the market endpoints count), `flagged` (the records flagged not arm's-length, duplicates
 *  included) and `reasons` (flagged records by reason). */
export interface SalesCover {
  sources: string[]; source: MarketSource | null; arms_length: number; flagged: number; reasons: Record<string, number>;
  /** a zip's permits and filings (mart_market_records), where it has any; a zip of those alone has no sale (sources []) */
  permits?: PermitCover; distress?: DistressCover;
  /** a zip no sales source records a sale in, whose city (its `zips` row) one does: that city's sales (ZipCity) */
  city?: ZipCity;
  /** a zip or a city no sales source records a sale in (and, for a zip, not its city either), whose county one does:
   *  that county's sales (CountyCover) */
  county?: CountyCover;
  /** a zip with no area of its own (a PO-box or unique zip) in which no permit counts, in the area of a permit source
   *  (mart_rehab_unaddressed): the sources and their areas, for the rehab 404 */
  unaddressed?: Unaddressed;
  /** a zip's permits placed in it from their point whose city is another one, which count in no rehab measure of it
   *  (int_market_zip_permits): OtherCityPermits */
  otherCity?: OtherCityPermits;
}
/** The permits a source placed in a zip from their coordinates (zip_imputed) that the rehab measures leave out because
 *  the zip's city (`zip_city`, int_market_zip_names) is not the permits' `city` (int_market_zip_permits: 60707, Elmwood
 *  Park, holds 885 Chicago permits; review 29: its 404 said no permit is recorded there). `n` over the sources' whole
 *  files (`file`: their first and last permit day), and the windows the rehab score would count, months 3..24 at
 *  [months - 3] to `as_of` (their last permit day): [every type and use, of a rehab type, residential rehab]. */
export interface OtherCityPermits { n: number; city: string; zip_city: string; state: string; sources: { id: string; name: string }[]; file: [string, string]; as_of: string; counts: [number, number, number][] }
/** A PO-box or unique zip (no Census ZCTA) a permit source's area holds: no street address, so no permit there. */
export interface Unaddressed { city: string; state: string; sources: { id: string; name: string; area: string }[] }
/** The county of a market without sale records, where a sales source records sales in other zips of it (King County's
 *  file holds 70 of its zips; Skykomish's 98288 has none): its arm's-length count, in how many of its zips, and the
 *  source (null where several) and its ids (review 24 C: such zips were told the sources were "files of other markets"). */
export interface CountyCover { county: string; state: string; arms_length: number; zips: number; sources: string[]; source: MarketSource | null }
/** The city of a zip without sale records, where a sales source records the city's sales: its arm's-length count and
 *  source, and `zipless` when that source records no zip code for any sale (Denver's assessor file), so its sales are
 *  in no zip at all (review 23 #2: zip 80205 was told its sources were "files of other markets"). */
export interface ZipCity { city: string; state: string; arms_length: number; source: MarketSource | null; zipless: boolean }
/** Keys: `zip|<zip>` and `city|<state>|<city slug>`, as market.json's `sources`. */
export type SalesCoverFile = Record<string, SalesCover>;
/** A zip's permits that count in it (int_market_zip_permits), for the rehab 404 of a zip whose permits give no score:
 *  their count, the residential rehab ones, the sources, and why no permit rate (the permit source's area holds under
 *  half of the zip: `covered_share`, `area`, `share_basis`; or no housing unit count: `housing_units` false). */
export interface PermitCover { n: number; rehab: number; sources: { id: string; name: string }[]; covered_share: number | null; area: string | null; share_basis: string | null; housing_units: boolean;
  /** the permits of each window the rehab score counts (mart_rehab_permits), months 3..24 at [months - 3]: [every type
   *  and use, of a rehab type, residential rehab, residential rehab of no recorded use]; and the day those windows end
   *  (absent in an older build) */
  windows?: { as_of: string; counts: [number, number, number, number][] } }
/** A zip's distress filings (any date): their count and sources. */
export interface DistressCover { n: number; sources: { id: string; name: string }[] }

export async function salesCover(db: StageContext['db']): Promise<SalesCoverFile> {
  if (!(await tableExists(db, 'mart_market_source'))) return {};
  type Row = { k: string; s: string[]; src: MarketSource | null; a: number; f: number; r: { reason: string; n: number }[] };
  const rows = await queryRows<Row>(db, `
    select market_key as k, sources as s, source as src, cast(arms_length as integer) as a, cast(flagged as integer) as f,
           list_transform(reasons, x -> {reason: x.reason, n: cast(x.n as integer)}) as r
    from mart_market_source order by market_key`);
  const out: SalesCoverFile = {};
  for (const row of rows) out[row.k] = { sources: [...row.s], source: row.src ? { ...row.src } : null, arms_length: row.a, flagged: row.f, reasons: Object.fromEntries(row.r.map((x) => [x.reason, x.n])) };
  if (!(await tableExists(db, 'mart_market_records'))) return out;
  const area = (await tableExists(db, 'int_market_permit_area'))
    ? `(select zip, min(covered_share) as covered_share, string_agg(distinct area_name, ', ') as area_name, string_agg(distinct share_basis, ', ') as share_basis from int_market_permit_area group by zip)`
    : `(select null::varchar as zip, null::double as covered_share, null::varchar as area_name, null::varchar as share_basis where false)`;
  const units = (await tableExists(db, 'int_market_housing_units')) ? `(select zip from int_market_housing_units where housing_units > 0)` : `(select null::varchar as zip where false)`;
  type Kind = { k: string; kind: string; n: number; rehab: number; s: { id: string; name: string }[]; share: number | null; area: string | null; basis: string | null; units: boolean };
  const kinds = await queryRows<Kind>(db, `
    select r.market_key as k, r.kind, cast(sum(r.n) as integer) as n, cast(sum(r.rehab) as integer) as rehab, list({id: r.source, name: r.name} order by r.source) as s,
           any_value(a.covered_share) as share, any_value(a.area_name) as area, any_value(a.share_basis) as basis, bool_or(u.zip is not null) as units
    from mart_market_records r left join ${area} a on 'zip|' || a.zip = r.market_key left join ${units} u on 'zip|' || u.zip = r.market_key
    where r.kind in ('permit', 'distress') and starts_with(r.market_key, 'zip|') group by r.market_key, r.kind order by 1, 2`);
  for (const r of kinds) {
    const e = (out[r.k] ??= { sources: [], source: null, arms_length: 0, flagged: 0, reasons: {} });
    if (r.kind === 'permit') e.permits = { n: r.n, rehab: r.rehab, sources: r.s.map((x) => ({ ...x })), covered_share: r.share, area: r.area, share_basis: r.basis, housing_units: r.units };
    else e.distress = { n: r.n, sources: r.s.map((x) => ({ ...x })) };
  }
  await rehabPermits(db, out);
  if (!(await tableExists(db, 'zips'))) return out;
  type City = { k: string; city: string; state: string; a: number; src: MarketSource | null; zipless: boolean };
  const cities = await queryRows<City>(db, `
    select 'zip|' || z.zip as k, z.city, z.state_code as state, cast(c.arms_length as integer) as a, c.source as src,
           not exists (select 1 from mart_market_source m, unnest(c.sources) as u(src) where m.market_kind = 'zip' and list_contains(m.sources, u.src)) as zipless
    from zips z join mart_market_source c on c.market_kind = 'city' and c.market_key = 'city|' || z.state_code || '|' || slug(z.city) and c.arms_length > 0
    where z.zip is not null and not exists (select 1 from mart_market_source m where m.market_key = 'zip|' || z.zip)
    order by 1`);
  for (const r of cities) {
    const e = (out[r.k] ??= { sources: [], source: null, arms_length: 0, flagged: 0, reasons: {} });
    e.city = { city: r.city, state: r.state, arms_length: r.a, source: r.src ? { ...r.src } : null, zipless: r.zipless };
  }
  if (!(await tableExists(db, 'counties')) || !(await tableExists(db, 'cities'))) return out;
  // the county's sales: its zips with arm's-length sales (the zips table's county); a market with no sale record of
  // its own (a zip with none in its city either, a Census city) in such a county gets it
  type County = { k: string; county: string; state: string; a: number; z: number; s: string[]; src: MarketSource | null };
  const counties = await queryRows<County>(db, `
    with sold as (select z.county_fips, m.arms_length, m.sources, m.source from mart_market_source m join zips z on m.market_key = 'zip|' || z.zip
                  where m.market_kind = 'zip' and m.arms_length > 0 and z.county_fips is not null),
    c as (select county_fips, cast(sum(arms_length) as integer) as a, cast(count(*) as integer) as z, list_sort(list_distinct(flatten(list(sources)))) as s,
                 case when count(distinct source.id) = 1 then any_value(source) end as src from sold group by county_fips),
    markets as (select 'zip|' || zip as k, county_fips from zips where zip is not null
                union all select 'city|' || state_code || '|' || slug(city_name), county_fips from cities)
    select m.k, k.county_name as county, k.state_code as state, c.a, c.z, c.s, c.src
    from markets m join c using (county_fips) join counties k using (county_fips)
    where not exists (select 1 from mart_market_source x where x.market_key = m.k) order by 1`);
  for (const r of counties) {
    const e = out[r.k];
    if (e?.city) continue;
    (out[r.k] ??= { sources: [], source: null, arms_length: 0, flagged: 0, reasons: {} }).county = { county: r.county, state: r.state, arms_length: r.a, zips: r.z, sources: [...r.s], source: r.src ? { ...r.src } : null };
  }
  return out;
}

/** The rehab score's permit windows of each zip with permits (mart_rehab_permits: residential rehab permits beside those of
 *  every type and use), and the PO-box and unique zips a permit source's area holds (mart_rehab_unaddressed), for the
 *  rehab 404 (api/rehab-not-found.ts). */
async function rehabPermits(db: StageContext['db'], out: SalesCoverFile): Promise<void> {
  if (await tableExists(db, 'mart_rehab_permits')) {
    type W = { k: string; a: string; c: [number, number, number, number][] };
    const rows = await queryRows<W>(db, `
      select 'zip|' || zip as k, strftime(any_value(permits_as_of), '%Y-%m-%d') as a,
             list([permits_all, permits_rehab_types, permits_rehab, permits_rehab_use_unrecorded]::integer[] order by months) as c
      from mart_rehab_permits group by zip order by 1`);
    for (const r of rows) {
      const p = out[r.k]?.permits;
      if (p) p.windows = { as_of: r.a, counts: r.c.map((x) => [x[0]!, x[1]!, x[2]!, x[3]!]) };
    }
  }
  await otherCityPermits(db, out);
  if (!(await tableExists(db, 'mart_rehab_unaddressed')) || !(await tableExists(db, 'mart_market_records'))) return;
  type U = { k: string; city: string; state: string; s: { id: string; name: string; area: string }[] };
  const rows = await queryRows<U>(db, `
    select 'zip|' || u.zip as k, any_value(u.city) as city, any_value(u.state_code) as state,
           list({id: u.source, name: coalesce(n.name, u.source), area: u.area_name} order by u.source) as s
    from mart_rehab_unaddressed u left join (select source, any_value(name) as name from mart_market_records group by source) n using (source)
    group by u.zip order by 1`);
  for (const r of rows) {
    (out[r.k] ??= { sources: [], source: null, arms_length: 0, flagged: 0, reasons: {} }).unaddressed = { city: r.city, state: r.state, sources: r.s.map((x) => ({ ...x })) };
  }
}

/** Each zip's permits placed there from their point that the rehab measures leave out (`permits` less
 *  int_market_zip_permits: the rule's own tables), with the windows mart_rehab_permits would count them over. */
async function otherCityPermits(db: StageContext['db'], out: SalesCoverFile): Promise<void> {
  for (const t of ['permits', 'int_market_zip_permits', 'int_market_zip_names', 'mart_market_records']) if (!(await tableExists(db, t))) return;
  type O = { k: string; n: number; city: string; zc: string; st: string; s: { id: string; name: string }[]; f0: string; f1: string; a: string; c: [number, number, number][] };
  const rows = await queryRows<O>(db, `
    with left_out as (
        select p.* from permits p
        where p.zip is not null and coalesce(p.zip_imputed, false) and p.permit_id not in (select permit_id from int_market_zip_permits)),
    files as (select source, min(issue_date) as first_day, max(issue_date) as last_day from permits group by source),
    ends as (select zip, min(f.first_day) as first_day, max(f.last_day) as as_of from (select distinct zip, source from left_out) z join files f using (source) group by zip),
    windows as (
        select l.zip, cast(m.months as integer) as months,
               count(*) filter (where l.issue_date > cast(e.as_of - to_months(cast(m.months as integer)) as date)) as a,
               count(*) filter (where l.issue_date > cast(e.as_of - to_months(cast(m.months as integer)) as date) and l.permit_type in ('renovation', 'addition', 'repair')) as t,
               count(*) filter (where l.issue_date > cast(e.as_of - to_months(cast(m.months as integer)) as date) and is_residential_rehab(l.permit_type, l.building_use, l.valuation)) as r
        from left_out l join ends e using (zip) cross join range(3, 25) m(months) group by all),
    names as (select source, any_value(name) as name from mart_market_records group by source)
    select 'zip|' || l.zip as k, cast(count(*) as integer) as n, string_agg(distinct l.city, ', ' order by l.city) as city,
           any_value(zn.city) as zc, any_value(zn.state_code) as st,
           list(distinct {id: l.source, name: coalesce(nm.name, l.source)}) as s,
           strftime(any_value(e.first_day), '%Y-%m-%d') as f0, strftime(any_value(e.as_of), '%Y-%m-%d') as f1, strftime(any_value(e.as_of), '%Y-%m-%d') as a,
           (select list([w.a, w.t, w.r]::integer[] order by w.months) from windows w where w.zip = l.zip) as c
    from left_out l join ends e using (zip) left join int_market_zip_names zn using (zip) left join names nm using (source)
    group by l.zip order by 1`);
  for (const r of rows) {
    (out[r.k] ??= { sources: [], source: null, arms_length: 0, flagged: 0, reasons: {} }).otherCity = {
      n: r.n, city: r.city, zip_city: r.zc, state: r.st, sources: r.s.map((x) => ({ ...x })).sort((a, b) => a.id.localeCompare(b.id)),
      file: [r.f0, r.f1], as_of: r.a, counts: r.c.map((x) => [x[0]!, x[1]!, x[2]!]) };
  }
}
