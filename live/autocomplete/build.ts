// Live data of GET /v1/address/autocomplete (live/autocomplete/endpoint.ts), written under <build>/live/autocomplete/:
//   index.bin   the binary index (live/autocomplete/index-format.ts: records, token vocabulary, postings, key order),
//               built by live/autocomplete/index-builder.ts
//   meta.json   format, build id, counts (indexed records, tokens, rows left out and why); written last, so its
//               presence marks a complete set
// Every `addresses` row with a point, a city and a state is indexed (macro address_is_indexable). `addresses.zip` is
// only ever a recorded zip (a guessed one is dropped by 50_address_09_addresses.sql). An address whose zip no source
// records takes the zip of its property record when that record's zip is imputed (Connecticut GL sales: the nearest
// ZCTA centroid of its town), answered with zip_imputed true, so it links to that record; else (Chicago permits, no
// property) it is indexed with zip "" and, when its city spans several counties, county "": the answer says it does
// not know rather than serve an unmarked guess. Rows without a point (the
// Connecticut 2022 extract names the town only) stay in the table only: lat and lng are required numbers.
// Input order = the tie-break after property facts: address_id. Rules: warehouse/docs/address.md.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { appendReportSection } from '../../warehouse/build-folder.ts';
import { AutocompleteIndexBuilder } from './index-builder.ts';
import { INDEX_FORMAT, type LocationSource } from './index-format.ts';

export const requires = ['addresses'];

/** The postal city of a part of a city (addresses.city_part: NYC's BOROUGH; Queens': none, USPS names its
 *  neighbourhoods, the zip's stays). */
const PART_CITY = `values ('NY', 'Manhattan', 'New York'), ('NY', 'Bronx', 'Bronx'), ('NY', 'Brooklyn', 'Brooklyn'),
  ('NY', 'Queens', null), ('NY', 'Staten Island', 'Staten Island')`;

/** address, unit, city, state_code, zip, county, lat, lng, beds, baths, sqft, property_id, location_source, zip_imputed, source_city */
type Row = [string, string | null, string, string, string | null, string | null, number, number, number | null, number | null, number | null, string | null, LocationSource, boolean, string];

export async function run(ctx: StageContext): Promise<void> {
  const started = performance.now();
  const dir = path.join(ctx.paths.build, 'live', 'autocomplete');
  fs.mkdirSync(dir, { recursive: true });
  fs.rmSync(path.join(dir, 'meta.json'), { force: true });
  const indexable = `address_is_indexable(zip, zip_imputed, lat, lng, county, city, state_code)`;
  const builder = new AutocompleteIndexBuilder();
  // one ordered query, streamed chunk by chunk (DuckDB sorts once; rows never all in memory as objects)
  // each address carries the property_id of the property with that street line, unit and zip (issue 22,
  // warehouse/docs/property.md); an address without a recorded zip, that of the one property of its street line, unit,
  // town and state whose zip is imputed (a Connecticut sale: the record's zip is guessed from its point), with that zip
  // marked zip_imputed; null when none has (or several have), or in a build without the property tables
  const withProperties = await tableExists(ctx.db, 'properties');
  // the city of an address with a recorded zip is the zip's, the warehouse's one rule (int_market_zip_names: the geo
  // zips' USPS city), as comps, valuation and location name it: NYC's files write New York for every borough, and
  // 11219 is Brooklyn; the source's own city stays searchable (source_city). A zip no source records (imputed, or none)
  // keeps the source's city
  const withNames = await tableExists(ctx.db, 'int_market_zip_names');
  // an address its source puts in a part of the city other than its zip's county (NYC's BOROUGH: Marble Hill, borough
  // 1 in zip 10463, is Manhattan while USPS and the zip's county say the Bronx): the table's county is that borough's
  // (50_address_09_addresses.sql), and its city that borough's postal city
  const withParts = await tableExists(ctx.db, 'zips') && await tableExists(ctx.db, 'counties');
  const ctes = [
    ...(withProperties ? [`pk as (select zip, address, unit, min(property_id) as property_id from properties
                where zip is not null and address is not null group by all)`,
      `pi as (select address, unit, upper(city) as city_key, state, min(zip) as zip, min(property_id) as property_id from properties
                where zip_imputed and address is not null and city is not null group by all having count(*) = 1)`] : []),
    ...(withParts ? [`bp(state_code, part, city) as (${PART_CITY})`,
      `zc as (select z.zip, coalesce(c.county_name, z.county_name) as county from zips z left join counties c on c.county_fips = z.county_fips)`] : []),
  ];
  const city = `${withNames ? 'coalesce(nm.city, a.city)' : 'a.city'}`;
  const result = await ctx.db.stream(`
    ${ctes.length ? `with ${ctes.join(',\n')}` : ''}
    select a.address, a.unit, ${withParts ? `case when zc.county is distinct from a.county and bp.city is not null then bp.city else ${city} end` : city} as city,
           a.state_code, ${withProperties ? 'coalesce(a.zip, pi.zip)' : 'a.zip'} as zip, a.county, a.lat::double,
           a.lng::double, a.beds::double, a.baths::double, a.sqft::double,
           ${withProperties ? 'coalesce(pk.property_id, pi.property_id)' : 'null::varchar'} as property_id, a.location_source,
           ${withProperties ? 'a.zip is null and pi.zip is not null' : 'false'} as zip_imputed, a.city as source_city
    from addresses a ${withNames ? `left join int_market_zip_names nm on nm.zip = a.zip and nm.state_code = a.state_code and nm.city <> ''` : ''}
    ${withProperties ? `left join pk on pk.zip = a.zip and pk.address = a.address and pk.unit is not distinct from a.unit
    left join pi on a.zip is null and pi.address = a.address and pi.unit is not distinct from a.unit and pi.city_key = upper(a.city)
                and pi.state = a.state_code` : ''}
    ${withParts ? 'left join bp on bp.state_code = a.state_code and bp.part = a.city_part left join zc on zc.zip = a.zip' : ''}
    where ${indexable.replace(/\b(zip|zip_imputed|lat|lng|county|city|state_code)\b/g, 'a.$1')}
    order by a.address_id`);
  for await (const rows of result.yieldRowsJs()) {
    for (const r of rows as Row[]) {
      builder.add({ address: r[0], unit: r[1], city: r[2], state: r[3], zip: r[4] ?? '', zip_imputed: r[13], county: r[5] ?? '',
        lat: r[6], lng: r[7], location_source: r[12], beds: r[8], baths: r[9], sqft: r[10], property_id: r[11], source_city: r[14] });
    }
  }
  const { bytes } = builder.write(path.join(dir, 'index.bin'));
  const bySource = await queryRows<{ source: string; addresses: number; indexed: number }>(ctx.db, `
    select s as source, count(*)::integer as addresses, (count(*) filter (where ${indexable}))::integer as indexed
    from (select unnest(sources) as s, * from addresses) group by s order by s`);
  const left = await queryRows<{ reason: string; n: number }>(ctx.db, `
    select case when lat is null or lng is null then 'no_point' else 'no_city_or_state' end as reason,
           count(*)::integer as n
    from addresses where not (${indexable}) group by 1 order by 1`);
  const [unknown] = await queryRows<{ zip: number; county: number }>(ctx.db, `
    select (count(*) filter (where zip is null))::integer as zip, (count(*) filter (where county is null))::integer as county
    from addresses where ${indexable}`);
  const meta = {
    format: INDEX_FORMAT, build_id: ctx.buildId, records: builder.size, bytes,
    indexed_without: unknown ?? { zip: 0, county: 0 },
    left_out: Object.fromEntries(left.map((r) => [r.reason, r.n])),
    by_source: bySource,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
  };
  fs.writeFileSync(path.join(dir, 'meta.json'), JSON.stringify(meta, null, 1));
  appendReportSection(ctx.paths.build, {
    title: 'Address autocomplete index',
    headers: ['source', 'addresses', 'indexed (point, city and state known)'],
    rows: bySource.map((r) => [r.source, r.addresses, r.indexed]),
  });
  ctx.log.info('live/autocomplete', { records: builder.size, mb: Number((bytes / 1048576).toFixed(1)), left_out: JSON.stringify(meta.left_out) });
}
