// `npx tsx scripts/property-lineage-audit.ts [--artifacts DIR] [--per N] [--seed S]`: checks GET /v1/property's
// lineage against the raw files (warehouse/docs/property.md "Tables"). A real server on 127.0.0.1 port 0 over the
// current build of DIR (default ./artifacts); N properties per source (default 10), picked by a seeded hash of their
// id (default seed "h29lin"); every field of each answer, the chosen value and each losing value, is looked up at
// the file and line its lineage cites (csv-parse over the sources folder, line 1 the header) and:
//   - imputed null (read there): the value the adapter makes of that line's columns must be the value; the adapter's
//     transforms (normalize_address, title_case, owner_type, ...) are evaluated with the build's own SQL macros on the
//     raw text, so a mismatch means the cited line does not hold the value, not that a transform differs;
//   - imputed (filled): the cited line must not hold the field (no such column, or an empty one);
//   - county (cited to the geography's zip table, no file or line): not checked; a canonical folder's files have no
//     reading here (reported as such): test/live/property/lineage-filled.test.ts checks its place citations.
// Prints per source the citations checked and each mismatch (field, value, cited file:line, what the line holds).
// Exit 1 when a mismatch was found.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { startServer } from '../api/server.ts';
import { loadSettings } from '../warehouse/settings.ts';
import { sqlString } from '../warehouse/sql.ts';
import { rawLine, type RawRow as Raw } from './raw-lines.ts';

interface Cite { value: unknown; source: string; table: string; file: string | null; line: number | null; imputed: string | null }
interface FieldLineage extends Cite { losing_values: Cite[] }

const arg = (name: string, def: string): string => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1]! : def; };
const artifacts = path.resolve(arg('artifacts', 'artifacts'));
const per = Number(arg('per', '10'));
const seed = arg('seed', 'h29lin');

/** Per raw file (a pattern of its path in the sources folder), the SQL the adapter makes of the row `r` for each field it
 *  reads there (the staging rename and the adapter's expression, 30_market_*.sql). A field not listed: the file has no
 *  column for it (a cited value must then be imputed). */
const NA = (c: string): string => `nullif(trim(r."${c}"), 'NA')`;
const num = (c: string): string => `try_cast(replace(r."${c}", ',', '') as double)`;
const FIELDS: [RegExp, Record<string, string>][] = Object.entries<Record<string, string>>({
  '^king-county-wa-house-sales/': {
    parcel_id: `trim(r.id)`, zip: `zip5(trim(r.zipcode))`, lat: num('lat'), lng: num('long'),
    beds: `case when ${num('bedrooms')} between 1 and 20 then ${num('bedrooms')} end`, baths: `positive_or_null(${num('bathrooms')})`,
    sqft: `positive_or_null(${num('sqft_living')})`, lot_sqft: `positive_or_null(${num('sqft_lot')})`, year_built: `positive_or_null(${num('yr_built')})`,
  },
  '^sacramento-real-estate-transactions/': {
    address: `normalize_address(r.street)`, unit: `address_unit(r.street)`, city: `title_case(r.city)`, state: `upper(trim(r.state))`,
    zip: `zip5(trim(r.zip))`, lat: num('latitude'), lng: num('longitude'), beds: `positive_or_null(${num('beds')})`,
    baths: `positive_or_null(${num('baths')})`, sqft: `positive_or_null(${num('sq__ft')})`,
    property_type: `case trim(r.type) when 'Residential' then 'sfr' when 'Condo' then 'condo' when 'Multi-Family' then 'multi' end`,
  },
  '^nyc-rolling-sales/': {
    parcel_id: `trim(r."BOROUGH") || '-' || trim(r."BLOCK") || '-' || trim(r."LOT")`,
    address: `normalize_address(split_part(r."ADDRESS", ',', 1))`,
    unit: `nyc_unit(r."ADDRESS", r."APARTMENT NUMBER", trim(r."BUILDING CLASS CATEGORY"))`, zip: `zip5(trim(r."ZIP CODE"))`,
    sqft: `positive_or_null(${num('GROSS SQUARE FEET')})`, year_built: `try_cast(r."YEAR BUILT" as integer)`,
    property_type: `trim(r."BUILDING CLASS CATEGORY")`, // a category code: checked by NYC_TYPES
  },
  '^denver-real-property-sales/real_property_sales_and_transfers': {
    parcel_id: `trim(r."SCHEDNUM")`, owner_type: `owner_type(nullif(trim(r."GRANTEE"), ''))`,
    property_type: `case trim(r."CLASS") when 'R' then 'sfr' when 'H' then 'sfr' when 'O' then 'condo' when 'A' then 'condo' when 'B' then 'condo' end`,
  },
  '^denver-real-property-sales/sales_with_residential_characteristics': {
    beds: `positive_or_null(${num('BED_RMS')})`, baths: `positive_or_null(coalesce(${num('FULL_B')}, 0) + coalesce(${num('HLF_B')}, 0) / 2)`,
    sqft: `positive_or_null(${num('AREA_ABG')})`, year_built: `try_cast(${num('CCYRBLT')} as integer)`, lot_sqft: `positive_or_null(${num('LAND_SQFT')})`,
  },
  '^philadelphia-opa-properties-sample/': {
    parcel_id: `trim(r.parcel_number)`, address: `normalize_address(r.location)`,
    unit: `coalesce(normalize_unit(r.unit), address_unit(r.location))`, zip: `zip5(trim(r.zip_code))`, lat: num('lat'), lng: num('lng'),
    beds: `positive_or_null(${num('number_of_bedrooms')})`, baths: `positive_or_null(${num('number_of_bathrooms')})`,
    sqft: `positive_or_null(${num('total_livable_area')})`, lot_sqft: `positive_or_null(${num('total_area')})`,
    year_built: `case when try_cast(r.year_built as integer) between 1700 and 2100 then try_cast(r.year_built as integer) end`,
    owner_type: `owner_type(nullif(trim(concat_ws(' ', trim(r.owner_1), trim(r.owner_2))), ''))`,
    absentee_owner: `case when nullif(trim(r.mailing_street), '') is not null and r.location is not null
      then not coalesce(same_street_line(normalize_address(r.mailing_street), normalize_address(r.location)), false)
        or (canonical_zip(nullif(trim(r.mailing_zip), '')) is not null and canonical_zip(nullif(trim(r.mailing_zip), '')) is distinct from zip5(trim(r.zip_code))) end`,
    property_type: `case when trim(r.category_code_description) = 'SINGLE FAMILY' and trim(r.building_code_description) like 'RES CONDO%' then 'condo'
      when trim(r.category_code_description) = 'SINGLE FAMILY' and trim(r.building_code_description) = 'CONDO PARKING SPACE' then 'land'
      when trim(r.category_code_description) = 'SINGLE FAMILY' then 'sfr'
      when trim(r.category_code_description) in ('MULTI FAMILY', 'APARTMENTS  > 4 UNITS', 'APARTMENTS > 4 UNITS') then 'multi'
      when trim(r.category_code_description) like 'VACANT LAND%' or trim(r.category_code_description) = 'GARAGE - RESIDENTIAL' then 'land'
      when trim(r.category_code_description) in ('MIXED USE', 'COMMERCIAL', 'OFFICES', 'INDUSTRIAL', 'SPECIAL PURPOSE') then 'commercial' end`,
  },
  '^connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL': {
    address: `normalize_address(r."Address")`, unit: `address_unit(r."Address")`, city: `title_case(trim(r."Town"))`,
    lat: `try_cast(regexp_extract(r."Location", 'POINT \\(([-0-9.]+) ([-0-9.]+)\\)', 2) as double)`,
    lng: `try_cast(regexp_extract(r."Location", 'POINT \\(([-0-9.]+) ([-0-9.]+)\\)', 1) as double)`,
    property_type: `trim(r."Property Type") || '/' || coalesce(trim(r."Residential Type"), '')`, // checked by CT_TYPES
  },
  '^connecticut-real-estate-sales/real_estate_sales_2022': {
    address: `normalize_address(r."Address")`, unit: `address_unit(r."Address")`, city: `title_case(trim(r."Town"))`,
    property_type: `trim(r."Property Type") || '/'`,
  },
  '^nashville-building-permit-applications/': {
    parcel_id: `trim(r."Parcel")`, address: `normalize_address(r."Address")`, city: `title_case(trim(r."City"))`, state: `upper(trim(r."State"))`,
    zip: `zip5(trim(r."ZIP"))`, lat: num('Lat'), lng: num('Lon'),
  },
  '^allegheny-county-mortgage-foreclosures/': {
    parcel_id: `nullif(trim(r.pin), '')`,
    city: `trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
      regexp_replace(trim(r.municipality), '^City of ', ''), ' Boro$', ''), ' Twp\\.$', ' Township'), '^N\\. ', 'North '),
      '^S\\. ', 'South '), '^Mt\\. ', 'Mount '), ' Hts\\.( |$)', ' Heights\\1'), '^Duquesnt$', 'Duquesne'))`,
  },
  '^louisville-metro-lien-foreclosures/': {
    parcel_id: NA('PRCLID'), zip: `zip5(${NA('ZIP')})`, lat: `try_cast(${NA('lat')} as double)`, lng: `try_cast(${NA('lon')} as double)`,
    address: `normalize_address(concat_ws(' ', ${['STNO', 'PREDIR', 'STNAME', 'SUFFIX', 'POSTDIR'].map(NA).join(', ')}))`,
  },
}).map(([k, v]) => [new RegExp(k), v]);
/** The columns a file names the field in, for an imputed value (it must be absent or empty at the cited line). */
const HOLDS: Record<string, string[]> = { city: ['city', 'town', 'municipality'], state: ['state', 'state_code'], zip: ['zip', 'zipcode', 'zip code', 'zip_code'] };
/** NYC's category -> the types its rows may take (30_market_12_sales_nyc.sql: 11 and the rental buildings by unit). */
const NYC_TYPES = (cat: string): string[] => {
  const c = cat.slice(0, 2);
  if (c === '01') return ['sfr'];
  if (['02', '03', '07', '08', '14', '11'].includes(c)) return ['condo', 'multi'];
  if (['09', '10', '17'].includes(c)) return ['coop']; // co-op apartments (property.md "NYC co-ops", F7)
  if (['04', '12', '13', '15', '16'].includes(c)) return ['condo'];
  if (['05', '31'].includes(c)) return ['land'];
  return /^\d\d$/.test(c) ? ['commercial'] : [];
};
const CT_TYPES = (t: string): string[] => {
  const [p, res] = t.split('/');
  if (p === 'Residential' || (!p && res)) {
    return [res === 'Condo' ? 'condo' : ['Two Family', 'Three Family', 'Four Family'].includes(res!) ? 'multi' : res === 'Single Family' || p ? 'sfr' : ''];
  }
  return [{ Apartments: 'multi', 'Vacant Land': 'land', Commercial: 'commercial', Industrial: 'commercial', 'Public Utility': 'commercial', 'Single Family': 'sfr', Condo: 'condo', 'Two Family': 'multi', 'Three Family': 'multi', 'Four Family': 'multi' }[p!] ?? ''];
};

const fieldsOf = (file: string): Record<string, string> | undefined => FIELDS.find(([re]) => re.test(file))?.[1];

async function expected(db: DuckDBConnection, expr: string, raw: Raw): Promise<unknown> {
  const cols = Object.entries(raw).map(([k, v]) => `${v === '' ? 'null' : sqlString(v)}::varchar as "${k.replaceAll('"', '""')}"`).join(', ');
  const [row] = (await db.runAndReadAll(`select (${expr}) as v from (select ${cols}) r`)).getRowObjectsJson() as { v: unknown }[];
  return row?.v ?? null;
}
const same = (field: string, want: unknown, got: unknown): boolean => {
  if (want === null || got === null) return want === got;
  if (typeof got === 'number') return Math.abs(Number(want) - got) < 1e-9 * Math.max(1, Math.abs(got));
  if (field === 'city') return String(want).toLowerCase() === String(got).toLowerCase();
  return String(want) === String(got);
};

async function check(db: DuckDBConnection, sources: string, field: string, c: Cite): Promise<string | null> {
  if (c.file === null || c.line === null) return 'no file or line cited';
  const raw = rawLine(sources, c.file, c.line);
  if (!raw) return `line ${c.line} is past the end of the file`;
  const exprs = fieldsOf(c.file);
  if (!exprs) return `no reading of ${c.file} known to this audit`;
  const expr = exprs[field];
  if (c.imputed) {
    const held = expr ? await expected(db, expr, raw) : null;
    const named = Object.entries(raw).filter(([k, v]) => (HOLDS[field] ?? []).includes(k.toLowerCase()) && v.trim() !== '');
    return held !== null || (named.length && !(field === 'state' && c.source === 'philadelphia')) // OPA's state_code is the mailing state
      ? `cited as ${c.imputed}, but the line holds ${JSON.stringify(held ?? Object.fromEntries(named))}` : null;
  }
  if (!expr) return `cited as read, but ${path.basename(c.file)} has no column for ${field}`;
  const want = await expected(db, expr, raw);
  if (field === 'property_type' && c.source === 'nyc') return NYC_TYPES(String(want ?? '')).includes(String(c.value)) ? null : `the line's category is ${String(want)}`;
  if (field === 'property_type' && c.source === 'connecticut') return CT_TYPES(String(want ?? '')).includes(String(c.value)) ? null : `the line's type is ${String(want)}`;
  return same(field, want, c.value) ? null : `the line holds ${JSON.stringify(want)}`;
}

const settings = loadSettings({ artifacts, state: fs.mkdtempSync(path.join(os.tmpdir(), 'reii-audit-state-')), port: '0', host: '127.0.0.1', redisUrl: '' });
const server = await startServer({ settings, accessLog: () => {}, log: () => {} });
const key = server.keys.create({ plan: 'builder', name: 'lineage audit', rpm: 100_000 }).key;
const instance = await DuckDBInstance.create(path.join(artifacts, 'current', 'warehouse.duckdb'), { access_mode: 'READ_ONLY' });
const db = await instance.connect();
try {
  const picked = (await db.runAndReadAll(`select source, property_id from properties
    qualify row_number() over (partition by source order by hash(property_id || ${sqlString(seed)}), property_id) <= ${per} order by source, property_id`))
    .getRowObjectsJson() as { source: string; property_id: string }[];
  const bad: string[] = [];
  const counts = new Map<string, { props: number; cites: number; bad: number }>();
  for (const p of picked) {
    const res = await fetch(`${server.url}/v1/property?property_id=${p.property_id}&include=lineage`, { headers: { 'X-Service-Key': key } });
    if (res.status !== 200) throw new Error(`${p.property_id}: HTTP ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { lineage: { fields: Record<string, FieldLineage> } };
    const n = counts.get(p.source) ?? { props: 0, cites: 0, bad: 0 };
    counts.set(p.source, n);
    n.props++;
    for (const [field, f] of Object.entries(body.lineage.fields)) {
      if (field === 'county') continue; // the geography's zip table: no file or line
      for (const [i, c] of [f, ...f.losing_values].entries()) {
        n.cites++;
        const why = await check(db, settings.sources, field, c);
        if (why) { n.bad++; bad.push(`${p.source} ${p.property_id} ${field}${i ? ` (losing value ${i})` : ''} = ${JSON.stringify(c.value)} at ${c.file}:${c.line} (${c.table}, imputed ${c.imputed}): ${why}`); }
      }
    }
  }
  console.log(`build ${server.buildId()}, ${per} properties per source, seed ${JSON.stringify(seed)}`);
  for (const [s, n] of counts) console.log(`${s.padEnd(14)} ${n.props} properties, ${n.cites} citations, ${n.bad} not held by the cited line`);
  for (const b of bad) console.log(b);
  process.exitCode = bad.length ? 1 : 0;
} finally {
  db.closeSync();
  instance.closeSync();
  await server.close();
  fs.rmSync(settings.state, { recursive: true, force: true });
}
