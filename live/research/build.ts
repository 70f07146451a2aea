// Live data of POST /v1/research/query (live/research/endpoint.ts), written under <build>/live/research/:
//   regulations.json  every active or pending regulation record (the spec's fields, structured_data parsed)
//   bm25.json         the BM25 index over those records (title twice, summary, category and subcategory words,
//                     structured_data keys and string values, citation, city); live/research/text.ts
//   state-legal.json  the state_legal rows (landlord friendliness, foreclosure and tax sale summary), when present
//   places.json       the 51 jurisdictions, the city list (name, state, population, zips) and zip -> city, state, county FIPS,
//                     the gazetteer the question parser resolves places against (live/research/places.ts)
//   meta.json         format, counts, build id; written last: its presence marks a complete set
// Mart facts (comps, rehab, investor, location, legal shards) are NOT copied: the module reads the build's shards.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { buildBm25 } from './text.ts';
import type { RegulationDoc, PlacesData, ResearchMeta, StateLegalRow } from './data.ts';
import { RESEARCH_FORMAT, regulationText } from './data.ts';

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
    const cities = await queryRows<{ n: string; s: string; p: number | bigint | null; z: string | null; f: string | null }>(ctx.db, `
      select city_name as n, state_code as s, coalesce(population, 0) as p, array_to_string(coalesce(zip_codes, []), ' ') as z, county_fips as f
      from cities order by state_code, city_name`);
    places.cities = cities.map((c) => [c.n, c.s, Number(c.p ?? 0), c.z ?? '', c.f ?? '']);
  } else ctx.log.warn('live/research: no cities table; questions can name states and zips only');
  if (await tableExists(ctx.db, 'zips')) {
    const zips = await queryRows<{ z: string; c: string | null; s: string | null; f: string | null }>(ctx.db,
      'select zip as z, city as c, state_code as s, county_fips as f from zips where state_code is not null order by zip');
    places.zips = zips.map((z) => [z.z, z.c ?? '', z.s ?? '', z.f ?? '']);
  }

  const write = (name: string, v: unknown): number => { const s = JSON.stringify(v); fs.writeFileSync(path.join(dir, name), s); return s.length; };
  const bytes = write('regulations.json', docs) + write('bm25.json', bm25) + write('state-legal.json', stateLegal) + write('places.json', places);
  const meta: ResearchMeta = {
    format: RESEARCH_FORMAT, build_id: ctx.buildId,
    counts: { regulations: docs.length, terms: Object.keys(bm25.df).length, state_legal: stateLegal.length, states: places.states.length,
      cities: places.cities.length, zips: places.zips.length },
  };
  write('meta.json', meta);
  ctx.log.info('live/research', { ...meta.counts, mb: Number((bytes / 1048576).toFixed(1)) });
}
