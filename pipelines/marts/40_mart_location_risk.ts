// mart_location_risk: one row per zip in `zips`, the Location risk object of GET /v1/location/risk?zip=
// (spec fields) plus the inputs behind it. Labels, notes, score and confidence come from
// live/location/rules.ts and score.ts, the same functions the live point lookup uses (warehouse/docs/location.md).
// The NRI score is that of the zip's NRI county (int_nri_zips: CT zips by their old county, two AK census areas by
// the census area they were made of).
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows } from '../../warehouse/db.ts';
import { appendRows, superfundLoaded } from '../../live/location/prepare.ts';
import { maxDate, superfundAddressNote, zipConfidence, zipFloodNotes, zoneClassOf, SUPERFUND_AS_OF, type AddressSite } from '../../live/location/rules.ts';
import { environmentalScore, scoreBasisNote } from '../../live/location/score.ts';

export const requires = ['zips', 'int_location_zip', 'int_nri_counties', 'int_nri_zips', 'flood_maps'];

export async function run(ctx: StageContext): Promise<void> {
  // no EPA file read (a canonical folder without epa-superfund-sems): the Superfund fields and the score are null, not
  // 0 from no file; GET /v1/location/risk refuses such a build's zips (live/location/superfund-loaded.ts)
  const sitesKnown = await superfundLoaded(ctx.db);
  const rows = await queryRows<{
    zip: string; city: string | null; state_code: string | null; county_fips: string | null; nri: number | null;
    nri_county_fips: string | null; nri_county_basis: string | null;
    geometry_source: string; sample_points: number; mapped_share: number; flood_zone: string; flood_zone_subtype: string | null;
    flood_sfha: boolean; flood_zone_class: string; flood_zone_share: number; sfha_share: number;
    superfund_count_1mi: number; superfund_address_beyond: string | null; flood_as_of: string | null; superfund_as_of: string | null;
    zone_shares: string | null; map_label: string | null; county_map: string | null;
    is_zcta: boolean | null; centroid_source: string | null; radius_m: number | null;
  }>(ctx.db, `
    select z.zip, z.city, z.state_code, z.county_fips, n.risk_score as nri, nz.county_fips as nri_county_fips, nz.basis as nri_county_basis,
           l.geometry_source, l.sample_points, l.mapped_share, l.flood_zone, l.flood_zone_subtype, l.flood_sfha,
           l.flood_zone_class, l.flood_zone_share, l.sfha_share, l.superfund_count_1mi, l.superfund_address_beyond,
           cast(l.flood_as_of as varchar) as flood_as_of, cast(l.superfund_as_of as varchar) as superfund_as_of,
           l.zone_shares, z.is_zcta, z.centroid_source, l.radius_m,
           -- the area labels of the maps the zip's samples touched, and of a map loaded for its county (flood_maps)
           (select string_agg(m.area_label, '; ' order by m.map_id) from flood_maps m
             where list_contains(string_split(l.flood_maps, ', '), m.source_file)) as map_label,
           (select string_agg(m.area_label, '; ' order by m.map_id) from flood_maps m
             where z.county_fips is not null and m.area_json like '%"' || z.county_fips || '"%') as county_map
    from zips z
    join int_location_zip l using (zip)
    left join int_nri_zips nz using (zip)
    left join int_nri_counties n on n.county_fips = nz.county_fips
    order by z.zip`);
  await ctx.db.run(`create or replace table mart_location_risk (
    zip varchar primary key,
    zip_code varchar not null,
    city varchar not null,
    state varchar not null,
    flood_zone varchar not null,
    flood_risk_label varchar not null,
    flood_risk_notes varchar not null,
    superfund_nearby boolean,           -- null (and the count and score): the build read no EPA Superfund file
    superfund_count_1mi integer,
    environmental_risk_score integer,
    confidence varchar not null,
    as_of date not null,
    county_fips varchar,
    nri_risk_score double,              -- composite risk score of the zip's NRI county (null: none)
    nri_county_fips varchar,            -- the NRI county (int_nri_zips): the zip's county, CT's old county, AK's 02261
    nri_county_basis varchar,           -- current | hud | nearest | successor (null: no NRI county)
    geometry_source varchar not null,   -- zcta_polygon | centroid_radius | none
    flood_mapped_share double not null,
    flood_zone_share double not null,
    sfha_share double not null
  )`);
  const out = rows.map((r) => {
    const cls = zoneClassOf(r.flood_zone, r.flood_zone_subtype, r.flood_sfha, r.flood_zone_class);
    const exact = r.geometry_source === 'zcta_polygon';
    const basis = scoreBasisNote(cls, r.nri);
    const notes = zipFloodNotes(cls, { zoneShare: r.flood_zone_share, sfhaShare: r.sfha_share, mappedShare: r.mapped_share, samples: r.sample_points,
      zones: r.zone_shares ? (JSON.parse(r.zone_shares) as Record<string, number>) : null, mapLabel: r.map_label, countyMap: r.county_map,
      // a zip sampled as a circle around its point (no area of its own, or a ZCTA whose polygon is not loaded): said so
      point: r.is_zcta !== null && r.geometry_source === 'centroid_radius' && r.radius_m != null ? { zip: r.zip, radiusM: r.radius_m, from: r.centroid_source, zcta: r.is_zcta } : null })
      // the sites EPA lists at the zip's address beyond the 1-mile count (live/location/zip-superfund.ts): named, not counted
      + prefixed(superfundAddressNote(r.superfund_address_beyond ? (JSON.parse(r.superfund_address_beyond) as AddressSite[]) : []))
      + prefixed(basis);
    return [
      r.zip, r.zip, r.city ?? '', r.state_code ?? '', cls.zone, cls.label, notes,
      ...(sitesKnown ? [r.superfund_count_1mi > 0, r.superfund_count_1mi, environmentalScore(cls, r.superfund_count_1mi, r.nri)] : [null, null, null]),
      r.geometry_source === 'none' ? 'low' : zipConfidence(r.mapped_share, exact),
      maxDate(r.superfund_as_of ?? SUPERFUND_AS_OF, r.flood_as_of),
      r.county_fips, r.nri, r.nri_county_fips, r.nri_county_basis, r.geometry_source, r.mapped_share, r.flood_zone_share, r.sfha_share,
    ];
  });
  await appendRows(ctx.db, 'mart_location_risk', ['varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'boolean', 'integer',
    'integer', 'varchar', 'date', 'varchar', 'double', 'varchar', 'varchar', 'varchar', 'double', 'double', 'double'], out);
  ctx.log.info('mart_location_risk', { zips: out.length });
}

const prefixed = (sentence: string | null): string => (sentence ? ` ${sentence}` : '');
