// The bulk export contract (warehouse/docs/export.md): the datasets every build writes under <build>/export/,
// their formats and file names, and <build>/export/manifest.json. Written by pipelines/export/write.ts, served by
// api/export/routes.ts.
export const EXPORT_SCHEMA_VERSION = 1;
export const EXPORT_FORMATS = ['parquet', 'csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportDataset {
  dataset: string;
  description: string;
  /** The table the dataset is read from: the first of these that exists; none -> skipped. */
  requires: readonly string[];
  /** The formats written, when not all of EXPORT_FORMATS: a dataset too large to be worth every format. */
  formats?: readonly ExportFormat[];
  /** Columns written as an expression of the table's row instead of as stored (same name and type): the minimum
   *  cohort rule and the answers' rounding (warehouse/docs/export.md "What a file holds"). */
  publish?: Readonly<Record<string, string>>;
}

/** A count of a cohort of 1-4 records is not published (null, as the comps answer's sample_count): 0-4 -> null. */
const cohortCount = (col: string): string => `case when ${col} >= 5 then ${col} end`;

/** The window's first day, inclusive as the answers' coverage.window_start (macro window_coverage: ws + 1); the marts
 *  keep the day before it, their exclusive bound (event date > window_start). */
const WINDOW_START = { window_start: 'window_start + 1' };

/** The datasets, in manifest order. Table alternatives cover the market marts' names as they land. */
export const EXPORT_DATASETS: readonly ExportDataset[] = [
  { dataset: 'comps', description: 'Comparable-sales aggregates per zip, property type and lookback window', requires: ['mart_comps', 'mart_market_comps', 'mart_comps_by_zip'],
    // as the comps answer (pipelines/shards/comps.sql): no count of a cohort of 1-4 comps or sales, figures rounded
    publish: { ...WINDOW_START, comp_count: cohortCount('comp_count'), sale_count: cohortCount('sale_count'),
      ppsf_p25: 'round_to(ppsf_p25, 2)', ppsf_median: 'round_to(ppsf_median, 2)', ppsf_p75: 'round_to(ppsf_p75, 2)',
      dom_median: 'round_to(dom_median, 1)', list_to_sale_ratio: 'round_to(list_to_sale_ratio, 4)' } },
  { dataset: 'rehab', description: 'Rehab momentum score and label per zip and lookback window', requires: ['mart_rehab', 'mart_market_rehab', 'mart_rehab_score', 'mart_rehab_score_by_zip'],
    // as comps and investor: no count of 1-4 sales or rehab sales (the mart gives no resale share of 1-4 sales and
    // leaves it out of the score), sample_count too when its sales are 1-4 (it adds them to the permits)
    // rehab_sales is the numerator of the published rehab_sale_share (5+ sales): given where the share is, as the
    // answer's note gives it ("<r> of the window's <n>"); nulling it there hid nothing (share x sales_n) and misled
    // each measure's own window (permits_window, sales_window) starts inclusive too, as the answer's
    publish: { ...WINDOW_START, permits_window_start: 'permits_window_start + 1', sales_window_start: 'sales_window_start + 1', sales_n: cohortCount('sales_n'), rehab_sales: 'case when rehab_sale_share is not null or rehab_sales >= 5 then rehab_sales end',
      sample_count: 'case when sales_n between 1 and 4 then null else sample_count end' } },
  { dataset: 'investor', description: 'Investor activity per city and lookback window', requires: ['mart_investor', 'mart_market_investor', 'mart_investor_overview', 'mart_investor_overview_by_city'],
    // as the investor answer (pipelines/shards/investor.sql): no count of 1-4 sales, buyers or flips (the mart already
    // gives no figure of them), sample_count too when its known buyers are 1-4 (it adds them to the filings), rounded
    // (investor_purchases, the numerator of the published rate of 5+ known buyers, is given where the rate is, as rehab_sales)
    publish: { ...WINDOW_START, ...Object.fromEntries(['sales_for_value', 'arms_length_sales', 'known_buyer_sales', 'flips'].map((c) => [c, cohortCount(c)])),
      investor_purchases: 'case when investor_purchase_rate_pct is not null or investor_purchases >= 5 then investor_purchases end',
      sample_count: 'case when known_buyer_sales between 1 and 4 then null else sample_count end',
      investor_purchase_rate_pct: 'round_to(investor_purchase_rate_pct, 1)', flip_velocity_days: 'round_to(flip_velocity_days, 1)',
      gross_flip_margin_pct: 'round_to(gross_flip_margin_pct, 1)' } },
  { dataset: 'market_monthly', description: 'Monthly sales, medians and price index per zip or city, property type and month (issue 23)', requires: ['market_monthly'],
    // a month of 1-4 sales has no figure (sales_count null): its raw counts stay in the warehouse, the untyped ones too
    publish: { ...Object.fromEntries(['sale_count', 'sqft_count', 'dom_count', 'known_buyer_count', 'index_sample_count'].map((c) => [c, cohortCount(c)])),
      untyped_count: 'case when sale_count >= 5 then untyped_count end' } },
  { dataset: 'location_risk', description: 'Flood zone, Superfund proximity and environmental risk per zip', requires: ['mart_location_risk'] },
  { dataset: 'regulations', description: 'Every regulation record (active, pending and expired) with citations', requires: ['regulations'] },
  { dataset: 'cities', description: 'Cities: FIPS, county, metro area, tier, zip codes', requires: ['mart_geo_cities', 'cities'] },
  { dataset: 'states', description: 'The 50 states and DC', requires: ['mart_geo_states', 'states'] },
  { dataset: 'properties', description: 'One row per property: its identity and the chosen value of every field (warehouse/docs/property.md)', requires: ['properties'] },
  { dataset: 'property_sales', description: 'One row per recorded sale of a property, with its flags and source file and line', requires: ['property_sales'] },
  { dataset: 'property_lineage', description: 'One row per property, field and distinct value: the chosen value and each losing value, with the source row', requires: ['property_lineage'],
    // 1.8 million rows: Parquet 13 MB and CSV 295 MB; NDJSON (527 MB, each row's keys repeated) is not written
    formats: ['parquet', 'csv'] },
];

export const EXPORT_DATASET_NAMES = EXPORT_DATASETS.map((d) => d.dataset);

export interface ExportFile {
  dataset: string;
  format: ExportFormat;
  file: string; // relative to <build>/export/
  rows: number;
  bytes: number;
  sha256: string;
}

export interface ExportManifest {
  schema_version: number;
  build_id: string;
  as_of: string;
  generated_at: string;
  datasets: { dataset: string; description: string; source_table: string; rows: number; columns: { name: string; type: string }[] }[];
  skipped: { dataset: string; reason: string }[];
  files: ExportFile[];
}

export const EXTENSION: Record<ExportFormat, string> = { parquet: 'parquet', csv: 'csv', ndjson: 'ndjson' };
