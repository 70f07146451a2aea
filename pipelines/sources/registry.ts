// Every upstream dataset the build knows: where it lives in the sources folder, its files, licence and
// official download address. The sources stage loads each CSV file into raw."<id>__<key>" (all columns
// VARCHAR, plus _file and _row); staging SQL renames and casts. Absent folders are skipped with a warning.

export type FileFormat = 'csv' | 'geojson';

export interface SourceFile {
  key: string; // raw table is raw."<source id>__<key>"
  glob: string; // file name pattern inside the folder (* wildcards): several files may match
  /** Exact file names instead of the pattern (the canonical files: only these load, see canonicalFolderCheck). */
  names?: readonly string[];
  format: FileFormat;
  delim?: string; // read_csv delimiter when it is not a comma
  url?: string; // official download address, used by `reii sources pull`
  /** Columns the file must have (canonical files): a missing one fails the stage naming the file. */
  requiredColumns?: readonly string[];
  optionalColumns?: readonly string[];
}

export interface SourceDef {
  id: string;
  folder: string;
  title: string;
  publisher: string;
  licence: string;
  attribution?: string; // required credit line (CC BY sources)
  vintage: string;
  open: boolean; // true when `reii sources pull` may fetch it from an official open-data address
  files: readonly SourceFile[];
  /** What a partial extract's files cannot show of the arm's-length rule: the trends answer's data_note repeats it
   *  (api/market-trends.ts dataNote, through the manifest's sources[].caveat). */
  caveat?: string;
  /** The files (their `key`s) the caveat is about, absent when every file: it is said only of a market whose
   *  arm's-length sales in the months answered include sales of those files (live/research/partial.ts caveatWords;
   *  the manifest's sources[].caveat_files). */
  caveatFiles?: readonly string[];
}

// The operator's own county records (DESIGN.md "canonical format"); README.md documents every column.
export const CANONICAL_COLUMNS = {
  sales: {
    required: ['address', 'city', 'state', 'zip', 'sale_date', 'sale_price', 'property_type', 'beds', 'baths', 'sqft', 'year_built', 'condition', 'lat', 'lng'],
    optional: ['parcel_id', 'buyer_name', 'seller_name', 'list_price', 'list_date', 'recorded_date', 'document_id', 'deed_type', 'lot_sqft', 'quality_grade'],
  },
  parcels: {
    required: ['address', 'city', 'state', 'zip', 'property_type', 'beds', 'baths', 'sqft', 'year_built', 'lat', 'lng'],
    optional: ['parcel_id', 'owner_name'],
  },
  permits: {
    required: ['address', 'zip', 'issue_date', 'permit_type', 'valuation', 'lat', 'lng'],
    optional: ['permit_id', 'building_use'],
  },
  distress: {
    required: ['address', 'city', 'state', 'zip', 'kind', 'filing_date'],
    optional: ['parcel_id', 'amount', 'closed_date'],
  },
} as const;

/** The vintage of a source whose period only its files tell (the canonical one): the build replaces it by the months
 *  its files hold (int_market_source_vintage, 30_mart_00_market_file_coverage.sql) in the manifest and the answers. */
export const OPERATOR_VINTAGE = 'operator';

const csv = (key: string, glob: string, extra: Partial<SourceFile> = {}): SourceFile => ({ key, glob, format: 'csv', ...extra });

export const SOURCES: readonly SourceDef[] = [
  // ---------- geography
  {
    id: 'simplemaps', folder: 'simplemaps-uscities', title: 'simplemaps US Cities Database (Basic)', publisher: 'simplemaps.com',
    licence: 'CC BY 4.0', attribution: 'City data: simplemaps.com US Cities Database (CC BY 4.0)', vintage: '2024', open: false,
    files: [csv('cities', 'uscities.csv*')],
  },
  {
    id: 'usgeo', folder: 'usgeo-census-tables', title: 'Census 2020 geography tables (us_geo compilation)', publisher: 'U.S. Census Bureau; compiled by us_geo (Brian Durand, MIT)',
    licence: 'Public domain (compilation MIT)', attribution: 'us_geo by Brian Durand (MIT)', vintage: '2020 geography, ACS 2023 population', open: false,
    files: [
      csv('states', 'states.csv*'), csv('counties', 'counties.csv*'), csv('cbsas', 'core_based_statistical_areas.csv*'),
      csv('places', 'places.csv*'), csv('place_counties', 'place_counties.csv*'), csv('zctas', 'zctas.csv*'),
      csv('zcta_counties', 'zcta_counties.csv*'), csv('zcta_places', 'zcta_places.csv*'), csv('zcta_mappings', 'zcta_mappings.csv*'),
    ],
  },
  {
    id: 'gazetteer', folder: 'census-gazetteer-2025', title: 'Census Gazetteer Files 2025', publisher: 'U.S. Census Bureau',
    licence: 'Public domain', vintage: '2025', open: true,
    files: [
      csv('places', '2025_Gaz_place_national.txt*', { delim: '|', url: 'https://www2.census.gov/geo/docs/maps-data/data/gazetteer/2025_Gazetteer/2025_Gaz_place_national.zip' }),
      csv('counties', '2025_Gaz_counties_national.txt*', { delim: '|', url: 'https://www2.census.gov/geo/docs/maps-data/data/gazetteer/2025_Gazetteer/2025_Gaz_counties_national.zip' }),
      csv('zctas', '2025_Gaz_zcta_national.txt*', { delim: '|', url: 'https://www2.census.gov/geo/docs/maps-data/data/gazetteer/2025_Gazetteer/2025_Gaz_zcta_national.zip' }),
      csv('cbsas', '2025_Gaz_cbsa_national.txt*', { delim: '|', url: 'https://www2.census.gov/geo/docs/maps-data/data/gazetteer/2025_Gazetteer/2025_Gaz_cbsa_national.zip' }),
    ],
  },
  {
    id: 'cbsa_delineation', folder: 'census-cbsa-delineation-2023', title: 'OMB CBSA delineation (July 2023, list 1)', publisher: 'U.S. OMB / Census Bureau',
    licence: 'Public domain', vintage: '2023-07', open: true,
    files: [csv('counties', 'list1_Jul_2023.csv*', { url: 'https://www2.census.gov/programs-surveys/metro-micro/geographies/reference-files/2023/delineation-files/list1_2023.xlsx' })],
  },
  {
    id: 'acs_population', folder: 'census-acs2023-population', title: 'ACS 2019-2023 5-year population and housing units', publisher: 'U.S. Census Bureau',
    licence: 'Public domain', vintage: 'ACS 2023 5-year', open: true,
    files: [
      csv('counties', 'acs5_2023_county_population.csv*', { url: 'https://api.census.gov/data/2023/acs/acs5?get=NAME,B01003_001E,B25001_001E&for=county:*' }),
      csv('places', 'acs5_2023_place_population.csv*', { url: 'https://api.census.gov/data/2023/acs/acs5?get=NAME,B01003_001E,B25001_001E&for=place:*' }),
      csv('zctas', 'acs5_2023_zcta_population.csv*', { url: 'https://api.census.gov/data/2023/acs/acs5?get=NAME,B01003_001E,B25001_001E&for=zip%20code%20tabulation%20area:*' }),
    ],
  },
  {
    id: 'geonames', folder: 'geonames-us-postal-codes', title: 'GeoNames US postal codes', publisher: 'GeoNames (geonames.org)',
    licence: 'CC BY 4.0', attribution: 'Postal code data: GeoNames (geonames.org), CC BY 4.0', vintage: '2026-03', open: false,
    files: [csv('zips', 'zipcodes.us.csv*')],
  },
  {
    id: 'hud_crosswalk', folder: 'hud-usps-zip-county-crosswalk', title: 'HUD-USPS ZIP Code Crosswalk (ZIP to county), 2023 Q1', publisher: 'U.S. HUD PD&R',
    licence: 'Public domain (cite HUD-USPS ZIP Code Crosswalk Files)', attribution: 'HUD-USPS ZIP Code Crosswalk Files', vintage: '2023-Q1', open: false,
    files: [csv('zip_county', 'ZIP_COUNTY_*.csv*')],
  },
  {
    id: 'usps_locale', folder: 'usps-zip-locale-detail', title: 'USPS ZIP Locale Detail', publisher: 'United States Postal Service',
    licence: 'Free USPS download, no open licence', attribution: 'USPS ZIP Locale Detail', vintage: 'current', open: false,
    files: [csv('zips', 'ZIP_Locale_Detail.csv*')],
  },
  {
    id: 'zip_reference', folder: 'us-zip-reference', title: 'US ZIP (ZCTA) reference with centroids', publisher: 'compiled from Census, Zillow, Redfin',
    licence: 'see SOURCE.md', vintage: '2025', open: false,
    files: [csv('zips', 'zip_reference.csv*')],
  },
  {
    id: 'zcta_boundaries', folder: 'zcta-boundaries-2010', title: 'ZCTA boundary polygons (TIGER/Line 2010)', publisher: 'U.S. Census Bureau',
    licence: 'Public domain', vintage: '2010', open: false,
    files: [{ key: 'polygons', glob: '*.json', format: 'geojson' }],
  },
  // ---------- hazards
  {
    id: 'superfund', folder: 'epa-superfund-sems', title: 'EPA Superfund NPL sites (SEMS)', publisher: 'U.S. EPA',
    licence: 'Public domain', vintage: '2021', open: true,
    files: [
      csv('npl_sites', 'npl_sites.csv*'),
      csv('sems_sites', 'sems_active_sites_*.csv*', { url: 'https://data.epa.gov/efservice/SEMS_ACTIVE_SITES/CSV' }),
    ],
  },
  {
    id: 'fema_nfhl', folder: 'fema-nfhl-flood-zones', title: 'FEMA National Flood Hazard Layer flood hazard areas (S_FLD_HAZ_AR)', publisher: 'FEMA',
    licence: 'Public domain', vintage: '2025', open: false,
    files: [{ key: 'flood_zones', glob: '*.geojson', format: 'geojson' }],
  },
  {
    id: 'fema_nri', folder: 'fema-nri', title: 'FEMA National Risk Index', publisher: 'FEMA',
    licence: 'Public domain', vintage: 'v1.18 counties, v1.19 tracts', open: true,
    files: [
      csv('counties', 'NRI_Table_Counties*.csv*', { url: 'https://hazards.fema.gov/nri/Content/StaticDocuments/DataDownload/NRI_Table_Counties/NRI_Table_Counties.zip' }),
      csv('tracts', 'NRI_Table_CensusTracts*.csv*'),
    ],
  },
  // ---------- property records
  {
    id: 'king_county', folder: 'king-county-wa-house-sales', title: 'King County WA house sales 2014-2015', publisher: 'King County (via Kaggle kc_house_data)',
    licence: 'CC0 / public record', vintage: '2014-05..2015-05', open: false,
    files: [csv('sales', 'kc_house_data.csv*')],
  },
  {
    id: 'sacramento', folder: 'sacramento-real-estate-transactions', title: 'Sacramento real estate transactions (May 2008)', publisher: 'SpatialKey sample data (Sacramento Bee)',
    licence: 'Public sample data', attribution: 'SpatialKey', vintage: '2008-05', open: false,
    files: [csv('sales', 'sacramento_transactions.csv*')],
  },
  {
    id: 'nyc', folder: 'nyc-rolling-sales', title: 'NYC DOF rolling sales', publisher: 'NYC Department of Finance',
    licence: 'NYC Open Data terms', vintage: '2021-04..2022-03, 2023-03..2024-02', open: false,
    files: [csv('sales', 'nyc_rolling_sales_*.csv*')],
  },
  {
    id: 'denver', folder: 'denver-real-property-sales', title: 'Denver real property sales and transfers 2018-2019', publisher: 'City and County of Denver',
    licence: 'Denver Open Data (CC BY 3.0)', attribution: 'City and County of Denver Open Data', vintage: '2018-01..2019-07', open: false,
    files: [csv('sales', 'real_property_sales_and_transfers_*.csv*'), csv('residential', 'sales_with_residential_characteristics_*.csv*')],
  },
  {
    id: 'philadelphia', folder: 'philadelphia-opa-properties-sample', title: 'Philadelphia OPA property assessments (sample)', publisher: 'City of Philadelphia OPA',
    licence: 'City of Philadelphia License', attribution: 'City of Philadelphia, Office of Property Assessment', vintage: '2022', open: false,
    files: [csv('properties', 'opa_properties_public_sample.csv*')],
  },
  {
    id: 'connecticut', folder: 'connecticut-real-estate-sales', title: 'Connecticut OPM real estate sales (partial)', publisher: 'Connecticut Office of Policy and Management',
    licence: 'CT Open Data (public domain)', vintage: '2021-2023', open: false,
    files: [csv('sales_gl', 'Real_Estate_Sales_2001-2022_GL*.csv*'), csv('sales_2022', 'real_estate_sales_2022-*.csv*')],
    // the 2022 extract's 8 columns (SOURCE.md): no Non Use Code; its Assessed Value is recorded (30_market_18_*.sql)
    caveat: "its 2022 extract (sales recorded 2022-01..2022-09) records no Non Use Code, buyer, seller or deed type, so its sales"
      + ' cannot be tested for related parties (family, love and affection, inter-corporation) or the other non-use codes'
      + ' (foreclosure, part interest, change in property, ...): beside the $10,000 price floor and duplicates only the'
      + " sale-to-assessment ratio test (an extreme outlier of the file's own assessed value / price ratios) stands in for"
      + ' them, and it catches about one in six of the sales the codes flag in the file that has them',
    // of that extract only: a town none of whose sales come from it (Hartford) is told nothing of it
    caveatFiles: ['sales_2022'],
  },
  {
    id: 'nashville', folder: 'nashville-building-permit-applications', title: 'Nashville building permit applications', publisher: 'Metro Nashville Codes',
    licence: 'Metro Nashville Open Data', vintage: '2021-09..2024-09', open: false,
    files: [csv('permits', 'building_permits.csv*')],
  },
  {
    id: 'chicago', folder: 'chicago-building-permits', title: 'Chicago building permits', publisher: 'City of Chicago',
    licence: 'City of Chicago data terms', vintage: '2023-01..2026-07', open: false,
    files: [csv('permits', 'chicago_building_permits_*.csv*')],
  },
  {
    id: 'allegheny', folder: 'allegheny-county-mortgage-foreclosures', title: 'Allegheny County mortgage foreclosure filings', publisher: 'Allegheny County Court Records via WPRDC',
    licence: 'WPRDC open licence', vintage: '2009..2022', open: false,
    files: [csv('foreclosures', 'foreclosures.csv*')],
  },
  {
    id: 'louisville', folder: 'louisville-metro-lien-foreclosures', title: 'Louisville Metro lien foreclosures', publisher: 'Louisville Metro Government',
    licence: 'Louisville Metro open data', vintage: '2012..2016', open: false,
    files: [csv('foreclosures', 'foreclosures.csv*')],
  },
  {
    id: 'redfin', folder: 'redfin-zip-market-snapshots', title: 'Redfin ZIP market tracker snapshots', publisher: 'Redfin',
    licence: 'Redfin Data Center terms (cite Redfin)', attribution: 'Redfin, a national real estate brokerage', vintage: '2025-05..2025-09', open: false,
    files: [csv('zip_snapshots', 'redfin_zip_*.csv*')],
  },
  // ---------- the operator's own records
  {
    id: 'canonical', folder: 'canonical', title: "Operator's county records in the canonical format", publisher: 'operator',
    licence: 'operator', vintage: OPERATOR_VINTAGE, open: false,
    files: (Object.keys(CANONICAL_COLUMNS) as (keyof typeof CANONICAL_COLUMNS)[]).map((key) =>
      csv(key, `${key}.csv`, { names: [`${key}.csv`, `${key}.csv.gz`], requiredColumns: CANONICAL_COLUMNS[key].required, optionalColumns: CANONICAL_COLUMNS[key].optional })),
  },
];

/**
 * The folders a canonical folder needs beside it (README "Canonical format"): the geography every canonical market
 * answer reads (the ZIP universe and the zip's state the row contracts check, the zip's city the comps, rehab and
 * trends name, the city, its county and metro the geo lookup and the investor tier read, the ACS housing units of the
 * rehab rates). Without them a canonical build published with exit 0 and "0 rejected rows" and answered wrong things
 * (review 21: rehab "no window holds 5 sales" for a zip with 719, geo "No city named New York", tier "rural"): the
 * build refuses instead (REII_GEOGRAPHY_REQUIRED). The native adapters' own test folders carry no geography on purpose.
 */
export const CANONICAL_GEOGRAPHY = ['simplemaps', 'usgeo', 'gazetteer', 'cbsa_delineation', 'acs_population', 'geonames', 'hud_crosswalk', 'usps_locale', 'zip_reference'] as const;
/** The hazard folders GET /v1/location/risk reads (its zip facts need every one): optional beside a canonical folder. */
export const LOCATION_SOURCES = ['superfund', 'fema_nfhl', 'fema_nri', 'zcta_boundaries'] as const;

/**
 * The files of the canonical folder that are not its documented names: `ignored` ones are warned about, `misnamed`
 * ones (a case variant of a canonical name such as Sales.csv, or any other .csv / .csv.gz file such as
 * sales_2024.csv) fail the sources stage, so an operator's data is never silently absent. Dot files are skipped.
 */
export function canonicalFolderCheck(names: readonly string[]): { ignored: string[]; misnamed: { name: string; why: string }[] } {
  const canonical = SOURCES.find((s) => s.id === 'canonical')!;
  const known = canonical.files.flatMap((f) => f.names ?? []);
  const ignored: string[] = [];
  const misnamed: { name: string; why: string }[] = [];
  for (const name of [...names].sort()) {
    if (name.startsWith('.') || known.includes(name)) continue;
    const lower = name.toLowerCase();
    if (known.includes(lower)) misnamed.push({ name, why: `file names are case-sensitive: rename it ${lower}` });
    else if (lower.endsWith('.csv') || lower.endsWith('.csv.gz')) misnamed.push({ name, why: `not a canonical file name (only ${known.join(', ')} are read): rename it or move it out of canonical/` });
    else ignored.push(name);
  }
  return { ignored, misnamed };
}

export function rawTable(source: SourceDef, file: SourceFile): string {
  return `raw."${source.id}__${file.key}"`;
}

/** A registry file glob (`*` matches any run of characters, nothing else is special) as a regular expression. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
}
