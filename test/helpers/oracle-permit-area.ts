// The area a permit source covers and a zip's share of it, recomputed from the raw files with plain DuckDB SQL, as
// warehouse/docs/market.md "Permit source area" states it (never the build's int_market_permit_area):
//   - Nashville covers Davidson County, TN (47037): the share of the zip's residential addresses in the county, from
//     the HUD-USPS ZIP-county crosswalk (RES_RATIO; TOT_RATIO where the zip has no residential address), null for a
//     zip the crosswalk does not list;
//   - Chicago covers the City of Chicago, IL (Census place 1714000): the share of the zip's homes in the city, its ACS
//     housing units less the homes outside the city, each other place's part of the ZCTA's land at that place's own
//     housing density and the ZCTA's land in no place at the ZCTA's mean density (us_geo zcta_places, zctas, places).
export interface PermitArea { area: string; basis: string; sql: string }

/** The area of a permit source and SQL over the raw files giving (`zip`, `share`) for each of the zips the area
 *  data knows (a zip it does not know has no row: no share to read); null for a source with no declared area. */
export function permitAreaOracle(source: string | null | undefined, zips: string[], file: (rel: string) => string): PermitArea | null {
  for (const z of zips) if (!/^\d{5}$/.test(z)) throw new Error(`not a zip: ${z}`);
  const list = zips.map((z) => `'${z}'`).join(', ');
  if (source === 'nashville') {
    return {
      area: 'Davidson County, TN', basis: "of the zip's residential addresses (HUD-USPS 2023 Q1)",
      sql: `
        with x as (
          select lpad(trim("ZIP"), 5, '0') as zip, trim("COUNTY") as c, try_cast("RES_RATIO" as double) as r, try_cast("TOT_RATIO" as double) as t
          from read_csv('${file('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true)
          where lpad(trim("ZIP"), 5, '0') in (${list}))
        select zip, case when sum(r) > 0 then coalesce(sum(r) filter (where c = '47037'), 0)
                         else coalesce(sum(t) filter (where c = '47037'), 0) end as share from x group by zip`,
    };
  }
  if (source === 'chicago') {
    const geo = (f: string) => `read_csv('${file(`usgeo-census-tables/${f}`)}', all_varchar = true)`;
    return {
      area: 'the City of Chicago, IL',
      basis: "of the zip's homes (estimated from the Census 2020 ZCTA-place land and ACS 2023 housing units)",
      sql: `
        with hu as (
          select "zip code tabulation area" as zip, max(try_cast("B25001_001E" as double)) as hu
          from read_csv('${file('census-acs2023-population/acs5_2023_zcta_population.csv.gz')}', all_varchar = true)
          where "zip code tabulation area" in (${list}) group by 1),
        z as (select "ZCTA5" as zip, try_cast("Land Area" as double) as land from ${geo('zctas.csv.gz')} where "ZCTA5" in (${list})),
        parts as (
          select zp."ZCTA5" as zip, zp."Place GEOID" as place, try_cast(zp."Land Area" as double) as land,
                 try_cast(p."Housing Units" as double) / nullif(try_cast(p."Land Area" as double), 0) as density
          from ${geo('zcta_places.csv.gz')} zp left join ${geo('places.csv.gz')} p on p."GEOID" = zp."Place GEOID"
          where zp."ZCTA5" in (${list}) and try_cast(zp."Land Area" as double) > 0),
        base as (select zip, hu.hu, z.land, hu.hu / z.land as mean_density from hu join z using (zip) where hu.hu > 0 and z.land > 0),
        outside as (
          select base.zip, coalesce(sum(parts.land * coalesce(parts.density, base.mean_density)) filter (where parts.place <> '1714000'), 0)
               + greatest(0, base.land - coalesce(sum(parts.land), 0)) * base.mean_density as homes
          from base left join parts using (zip) group by base.zip, base.land, base.mean_density)
        select zip, greatest(0, least(1, 1 - outside.homes / base.hu)) as share from base join outside using (zip)`,
    };
  }
  return null;
}
