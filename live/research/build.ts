// Live data of POST /v1/research/query (live/research/endpoint.ts), written under <build>/live/research/:
//   regulations.json  every active or pending regulation record (the spec's fields, structured_data parsed)
//   bm25.json         the BM25 index over those records (title twice, summary, category and subcategory words,
//                     structured_data keys and string values, citation, city); live/research/text.ts
//   state-legal.json  the state_legal rows (landlord friendliness, foreclosure and tax sale summary), when present
//   places.json       the 51 jurisdictions, the city list (name, state, population, zips), zip -> city, state, county FIPS
//                     and the county names (FIPS, name, state, population),
//                     the gazetteer the question parser resolves places against (live/research/places.ts), and the
//                     municipalities the foreclosure and lien filings name (mart_investor, 12 months: filing-places.ts),
//                     and the neighbourhoods the sales sources name (int_market_neighborhoods: hoods.ts), and Chicago's
//                     community areas with their permits over 12 months (permit-areas-build.ts)
//   market.json       what the shards cannot give a question about sales (market-window.ts): per market (a zip, or a
//                     state + city slug, as market_monthly, a New York City borough too, a neighbourhood: hood|<state>|<name>, or a state: state-market-build.ts) and property type, the arm's-length sales of each window of
//                     3..24 months to the market's last sale (count, median price, count with a living area), and the
//                     months whose single-family sales include Connecticut's 2022 file, which has no residential subtype,
//                     and per market the sources of its sales (an answer says when they are a partial extract: partial.ts),
//                     and every Redfin zip tracker snapshot with a median days on market of every zip (redfin.ts)
//                     and the zips whose USPS city's figures leave out some of their sales, with the cities the geo
//                     lookup places them in (zip_cities: zip-city.ts)
//   sales-cover.json  every zip and city with a sale record of any kind: its sources, arm's-length and flagged counts
//                     (sales-cover-build.ts; the market endpoints' `source` and 404s, api/market-source.ts)
//   metro.json        every CBSA (OMB July 2023) with its counties and the sales placed in each, and the sales of each metro
//                     with sales (and of its suburbs) per window of 3..24 months and per year (metro-build.ts, metro.ts)
//   meta.json         format, counts, build id; written last: its presence marks a complete set
// Mart facts (comps, rehab, investor, location, legal shards) are NOT copied: the module reads the build's shards.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { buildBm25 } from './text.ts';
import type { RegulationDoc, PlacesData, ResearchMeta, StateLegalRow } from './data.ts';
import { RESEARCH_FORMAT, regulationText } from './data.ts';
import { groupHoods } from './hoods.ts';
import { formerCounties } from '../places/former-counties-build.ts';
import { permitAreas } from './permit-areas-build.ts';
import { redfinSnapshots } from './redfin-build.ts';
import { redfinFile } from './redfin-index.ts';
import { metroIndex } from './metro-build.ts';
import { salesCover } from './sales-cover-build.ts';
import { marketWindows } from './market-window-build.ts';

export const requires = ['regulations'];

interface RegRow {
  id: string; jurisdiction_level: string; state_code: string; county_fips: string | null; city: string | null;
  category: string; subcategory: string; title: string; summary: string; structured_data: string | null;
  source_citation: string | null; source_url: string | null; effective_date: string | null; status: string;
  verified_at: string | null; last_reviewed_at: string | null; uncertain_fields: string;
}

export async function run(ctx: StageContext): Promise<void> {
  const dir = path.join(ctx.paths.build, 'live', 'research');
  fs.mkdirSync(dir, { recursive: true });
  fs.rmSync(path.join(dir, 'meta.json'), { force: true });

  const rows = await queryRows<RegRow>(ctx.db, `
    select id, jurisdiction_level, state_code, county_fips, city, category, subcategory, title, summary,
           cast(structured_data as varchar) as structured_data, source_citation, source_url,
           cast(effective_date as varchar) as effective_date, status, cast(verified_at as varchar) as verified_at,
           cast(last_reviewed_at as varchar) as last_reviewed_at, to_json(uncertain_fields)::varchar as uncertain_fields
    from regulations
    where status in ('active', 'pending')
    order by state_code, case jurisdiction_level when 'state' then 3 when 'county' then 2 else 1 end, category, subcategory, id`);
  const docs: RegulationDoc[] = rows.map((r) => ({
    id: r.id, level: r.jurisdiction_level, state: r.state_code, county_fips: r.county_fips, city: r.city,
    category: r.category, subcategory: r.subcategory, title: r.title, summary: r.summary,
    data: r.structured_data ? (JSON.parse(r.structured_data) as Record<string, unknown>) : {},
    citation: r.source_citation, url: r.source_url, effective_date: r.effective_date, status: r.status,
    verified_at: r.verified_at, last_reviewed_at: r.last_reviewed_at, uncertain: JSON.parse(r.uncertain_fields) as string[],
  }));
  const bm25 = buildBm25(docs.map(regulationText));

  let stateLegal: StateLegalRow[] = [];
  if (await tableExists(ctx.db, 'state_legal')) {
    stateLegal = await queryRows<StateLegalRow>(ctx.db, `
      select state_code, state_name, cast(landlord_friendliness_score as double) as landlord_friendliness_score,
             landlord_friendliness_label, foreclosure_type, lien_or_deed, cast(interest_rate_pct as double) as interest_rate_pct,
             cast(redemption_period_months as double) as redemption_period_months, rent_control_preemption,
             statewide_rent_control, cast(last_reviewed_at as varchar) as last_reviewed_at
      from state_legal order by state_code`);
  } else ctx.log.warn('live/research: no state_legal table; landlord friendliness answers will say so');

  const places: PlacesData = { states: [], cities: [], zips: [] };
  if (await tableExists(ctx.db, 'int_legal_state_names')) {
    places.states = (await queryRows<{ c: string; n: string }>(ctx.db, 'select state_code as c, state_name as n from int_legal_state_names order by 1'))
      .map((r) => [r.c, r.n]);
  }
  if (await tableExists(ctx.db, 'cities')) {
    const cities = await queryRows<{ n: string; s: string; p: number | bigint | null; z: string | null; f: string | null; i: boolean | null }>(ctx.db, `
      select city_name as n, state_code as s, coalesce(population, 0) as p, array_to_string(coalesce(zip_codes, []), ' ') as z, county_fips as f,
        is_incorporated as i
      from cities order by state_code, city_name`);
    places.cities = cities.map((c) => [c.n, c.s, Number(c.p ?? 0), c.z ?? '', c.f ?? '', c.i === true]);
  } else ctx.log.warn('live/research: no cities table; questions can name states and zips only');
  if (await tableExists(ctx.db, 'zips')) {
    const zips = await queryRows<{ z: string; c: string | null; s: string | null; f: string | null }>(ctx.db,
      'select zip as z, city as c, state_code as s, county_fips as f from zips where state_code is not null order by zip');
    places.zips = zips.map((z) => [z.z, z.c ?? '', z.s ?? '', z.f ?? '']);
  }
  if (await tableExists(ctx.db, 'counties')) {
    // county names, for a per-zip market question about a county ("which zip in King County ...")
    places.counties = (await queryRows<{ f: string; n: string; s: string; p: number | bigint | null }>(ctx.db,
      'select county_fips as f, county_name as n, state_code as s, coalesce(population, 0) as p from counties where county_name is not null order by 1'))
      .map((c) => [c.f, c.n, c.s, Number(c.p ?? 0)]);
  }

  // Connecticut's former counties (Fairfield County...) and their towns, which a question naming one reads it as
  const former = await formerCounties(ctx.db);
  if (former.counties.length) { places.former_counties = former.counties; places.unplaced_towns = former.unplaced; }

  if (await tableExists(ctx.db, 'mart_investor')) {
    // the filing municipalities (filing-places.ts): every city whose 12-month investor overview has a distressed
    // pipeline (a distress source covers it), as its shard names it, with that count
    places.filings = (await queryRows<{ n: string; s: string; p: number }>(ctx.db, `
      select city as n, state_code as s, cast(distressed_pipeline_count as integer) as p
      from mart_investor where months = 12 and distressed_pipeline_count is not null order by state_code, city_slug`)).map((r) => [r.n, r.s, r.p]);
  }

  if (await tableExists(ctx.db, 'int_market_neighborhoods')) {
    // the neighbourhoods the sources name for their sales (hoods.ts): city part, zips, sales (duplicate copies left out)
    const rows = await queryRows<{ n: string; s: string; c: string; p: string; z: string | null; k: number }>(ctx.db, `
      select h.neighborhood as n, h.state_code as s, any_value(s.city) as c, h.city_part as p, s.zip as z, cast(count(*) as integer) as k
      from int_market_neighborhoods h join sales s using (sale_id) where not s.is_duplicate group by h.neighborhood, h.state_code, h.city_part, s.zip
      order by 1, 2, 4, 5`);
    places.hoods = groupHoods(rows).map((h) => [h.key, h.state, h.city, h.part, h.zips.join(' '), h.sales, h.names.join('|')]);
  }

  // Chicago's community areas and their permits (permit-areas.ts): the permits file names each permit's area
  const areas = await permitAreas(ctx.db);
  if (areas.length) places.permit_areas = areas;

  const write = (name: string, v: unknown): number => { const s = JSON.stringify(v); fs.writeFileSync(path.join(dir, name), s); return s.length; };
  const market = await marketWindows(ctx.db);
  const bytes = write('regulations.json', docs) + write('bm25.json', bm25) + write('state-legal.json', stateLegal) + write('places.json', places)
    + write('market.json', market) + write('redfin.json', redfinFile(await redfinSnapshots(ctx.db)))
    + write('sales-cover.json', await salesCover(ctx.db));
  // the metro areas (CBSAs), the counties of each the build has sales for, and their sales (metro-build.ts, metro.ts)
  const metro = await metroIndex(ctx.db);
  fs.rmSync(path.join(dir, 'metro.json'), { force: true });
  const metroBytes = metro ? write('metro.json', metro) : 0;
  const meta: ResearchMeta = {
    format: RESEARCH_FORMAT, build_id: ctx.buildId,
    counts: { regulations: docs.length, terms: Object.keys(bm25.df).length, state_legal: stateLegal.length, states: places.states.length,
      cities: places.cities.length, zips: places.zips.length, filing_places: places.filings?.length ?? 0, market_windows: Object.keys(market.windows).length,
      metro_areas: metro?.metros.length ?? 0 },
  };
  write('meta.json', meta);
  ctx.log.info('live/research', { ...meta.counts, mb: Number(((bytes + metroBytes) / 1048576).toFixed(1)) });
}
