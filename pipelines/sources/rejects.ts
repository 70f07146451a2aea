// meta.rejects, defined once: the table (every builder of a warehouse, the tests' included, creates it from
// REJECTS_DDL; the older shape it migrates from is REJECTS_DDL_BEFORE_CONTRACTS), how rows are written to it, the
// manifest's summary of it, and the contract rules whose share of a file's rows fails the build (warehouse/README.md
// "meta.rejects", warehouse/docs/market.md "Row contracts").
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Reject, StageContext } from '../../warehouse/context.ts';
import { queryRows } from '../../warehouse/db.ts';
import { StageError } from '../../warehouse/errors.ts';
import { loadSettings } from '../../warehouse/settings.ts';

/**
 * Rules that say a row breaks its file's contract (a value that is missing, unreadable, impossible or outside its
 * bounds, or a line the CSV parser could not read). Any rule named `bad_*` is one too (the adapters' own format
 * rules). Every other rule records a real row dropped for a documented reason (a docket event merged into its case,
 * a territory out of scope, a duplicate): those never count toward a file's reject share.
 */
export const CONTRACT_RULES = [
  // the CSV parser (sources stage)
  'csv_parse', 'wrong_column_count', 'unclosed_quote', 'bad_quoting', 'bad_encoding', 'line_too_long',
  // the canonical format (30_market_40..43)
  'missing_value', 'not_a_number', 'not_a_date', 'not_in_list', 'too_long', 'list_date_after_sale', 'duplicate_permit',
  'unknown_parcel', // a sales.csv row with an empty place column whose parcel_id parcels.csv does not list
  // every source's rows (30_market_44_row_contracts.ts)
  'date_in_future', 'date_before_1900', 'out_of_range', 'unknown_state', 'unknown_zip', 'zip_not_in_state', 'outside_state',
  // an adapter's own rule for a value no contract allows (30_market_12_sales_nyc.sql: a negative price)
  'negative_price',
] as const;
export type ContractRule = (typeof CONTRACT_RULES)[number];

/** A reject's value is cut to this many characters (a 3,000-character field is recorded by its start and length). */
export const REJECT_VALUE_CHARS = 200;

// A detail of the form `<column>=<value>` (or `=<value>`), and not a list of several `name=value` pairs.
const ONE_VALUE = `(regexp_matches(detail, '^([A-Za-z_][A-Za-z0-9_,]*)?=') and not regexp_matches(substr(detail, strpos(detail, '=') + 1), '\\s[A-Za-z_]+='))`;
const contractSql = `(rule in (${CONTRACT_RULES.map((r) => `'${r}'`).join(', ')}) or starts_with(rule, 'bad_'))`;

/**
 * The physical columns are, in order, stage, source, file, line, rule, detail: every step inserts them by position
 * (`insert into meta.rejects select 'intermediate', 'nyc', _file, _row + 1, 'negative_price', ...`). A contract reject
 * writes its detail as `<column>=<value>` (macro reject_detail), read back by the generated columns column_name and
 * value. `reason` is the rule's former name, kept so existing queries still run.
 */
export const REJECTS_DDL = `
create schema if not exists meta;
create table if not exists meta.rejects (
    stage varchar,
    source varchar,
    file varchar,
    line bigint,
    rule varchar,
    detail varchar,
    column_name varchar as (case when ${ONE_VALUE} then nullif(regexp_extract(detail, '^([A-Za-z_][A-Za-z0-9_,]*)?=', 1), '') end),
    value varchar as (case when ${ONE_VALUE} then substr(detail, strpos(detail, '=') + 1) end),
    breaks_contract boolean as (${contractSql}),
    reason varchar as (rule)
);
create or replace macro reject_value(v) as
    case when length(cast(v as varchar)) > ${REJECT_VALUE_CHARS}
         then left(cast(v as varchar), ${REJECT_VALUE_CHARS}) || '... (' || length(cast(v as varchar)) || ' characters)'
         else coalesce(cast(v as varchar), '') end;
create or replace macro reject_detail(col, v) as coalesce(col, '') || '=' || reject_value(v);
`;

/**
 * meta.rejects as warehouses written before row contracts have it (no rule, column_name, value): what
 * ensureRejectsTable migrates from, so its test can build one.
 */
export const REJECTS_DDL_BEFORE_CONTRACTS = `
create schema if not exists meta;
create table if not exists meta.rejects (stage varchar, source varchar, file varchar, line bigint, reason varchar, detail varchar);
`;

/** The detail of a contract reject, as the reject_detail macro writes it. */
export function rejectDetail(column: string | null, value: string | null): string {
  const v = value ?? '';
  return `${column ?? ''}=${v.length > REJECT_VALUE_CHARS ? `${v.slice(0, REJECT_VALUE_CHARS)}... (${v.length} characters)` : v}`;
}

/**
 * Creates meta.rejects (and its macros) when missing. A warehouse written before the table had rule, column_name and
 * value (an --only build starting from it) is migrated: its rows keep their reason as the rule.
 */
export async function ensureRejectsTable(db: DuckDBConnection): Promise<void> {
  const cols = await queryRows<{ name: string }>(db,
    `select column_name as name from duckdb_columns() where schema_name = 'meta' and table_name = 'rejects'`);
  if (cols.length && !cols.some((c) => c.name === 'rule')) {
    await db.run(`alter table meta.rejects rename to rejects_before_contracts`);
    await db.run(REJECTS_DDL);
    await db.run(`insert into meta.rejects select stage, source, file, line, reason, detail from meta.rejects_before_contracts;
                  drop table meta.rejects_before_contracts;`);
    return;
  }
  await db.run(REJECTS_DDL);
}

/** Writes rejects from TS steps: `column`/`value` become the detail `<column>=<value>`, else `detail` is kept. */
export async function appendRejects(db: DuckDBConnection, rows: readonly Reject[]): Promise<void> {
  if (!rows.length) return;
  const appender = await db.createAppender('rejects', 'meta');
  for (const r of rows) {
    const detail = r.column != null || r.value != null ? rejectDetail(r.column ?? null, r.value ?? null) : r.detail;
    appender.appendVarchar(r.stage); appender.appendVarchar(r.source);
    if (r.file == null) appender.appendNull(); else appender.appendVarchar(r.file);
    if (r.line == null) appender.appendNull(); else appender.appendBigInt(BigInt(r.line));
    appender.appendVarchar(r.reason);
    if (detail == null) appender.appendNull(); else appender.appendVarchar(detail);
    appender.endRow();
  }
  appender.closeSync();
}

/**
 * Writes meta.rejects' and meta.repairs' `file` as meta.source_files has it (relative to the sources folder,
 * `canonical/sales.csv`), as the manifest and lineage name files: the loaders record the path they read.
 */
export async function relativeRejectFiles(db: DuckDBConnection): Promise<void> {
  const tables = await queryRows<{ t: string }>(db, `select table_name as t from duckdb_tables() where schema_name = 'meta' and table_name in ('rejects', 'repairs', 'source_files')`);
  if (!tables.some((t) => t.t === 'source_files')) return;
  for (const { t } of tables.filter((x) => x.t !== 'source_files')) {
    await db.run(`update meta.${t} set file = f.file from meta.source_files f
                  where meta.${t}.source = f.source and meta.${t}.file <> f.file and ends_with(meta.${t}.file, '/' || f.file)`);
  }
}

export interface RejectCount { source: string; rule: string; rows: number; breaks_contract: boolean }
export interface FileRejects {
  source: string;
  file: string; // relative to the sources folder
  rows: number; // data rows read: loaded plus the lines the CSV parser rejected
  rejected: number; // lines that broke the contract
  share: number; // rejected / rows
  top: { rule: string; column: string | null; rows: number }[];
}

/** Rejected rows per source and rule (manifest `rejects.by_source`, report "Rejected rows"). */
export async function rejectCounts(db: DuckDBConnection): Promise<RejectCount[]> {
  return queryRows<RejectCount>(db, `
    select source, rule, count(*)::int as rows, bool_or(breaks_contract) as breaks_contract
    from meta.rejects group by all order by source, rule`);
}

/**
 * Per source file with contract rejects: its rows (loaded plus lines the parser rejected), the distinct lines that
 * broke the contract, their share and the top rules. A row rejected from two tables (a sale and the parcel made of
 * the same line) is one line.
 */
export async function fileRejects(db: DuckDBConnection): Promise<FileRejects[]> {
  const rows = await queryRows<{ source: string; file: string; loaded: number; parsed_out: number; rejected: number; top: { rule: string; column: string | null; rows: number }[] }>(db, `
    with r as (
        select f.source, f.file, x.stage, x.line, x.rule, x.column_name
        from meta.rejects x join meta.source_files f
          on x.source = f.source and (x.file = f.file or ends_with(x.file, '/' || f.file))
        where x.breaks_contract
    ),
    per_file as (
        select source, file,
               count(distinct coalesce(line::varchar, 'null-' || rule)) filter (where stage = 'sources')::int as parsed_out,
               count(distinct coalesce(line::varchar, 'null-' || rule))::int as rejected
        from r group by all
    ),
    tops as (
        select source, file, list({'rule': rule, 'column': column_name, 'rows': n} order by n desc, rule, column_name)[1:3] as top
        from (select source, file, rule, column_name, count(*)::int as n from r group by all) group by all
    )
    select p.source, p.file, f.rows::int as loaded, p.parsed_out, p.rejected, t.top
    from per_file p join meta.source_files f using (source, file) join tops t using (source, file)
    order by p.source, p.file`);
  return rows.map((r) => {
    const total = r.loaded + r.parsed_out;
    return { source: r.source, file: r.file, rows: total, rejected: r.rejected, share: total ? r.rejected / total : 1, top: r.top };
  });
}

/** The canonical files' required values (README "Canonical format"), as their staging views name them. */
const CANONICAL_REQUIRED_VALUES: Record<string, readonly string[]> = {
  sales: ['address', 'city', 'state', 'zip', 'sale_date_text', 'sale_price_text', 'property_type'],
  parcels: ['address', 'city', 'state', 'zip', 'property_type'],
  permits: ['address', 'zip', 'issue_date_text', 'permit_type'],
  distress: ['address', 'city', 'state', 'zip', 'kind', 'filing_date_text'],
};

/**
 * Every required column a canonical file leaves empty, with its rows: a row's reject names the first rule it breaks
 * only (`missing_value (address)`), so a file without address and zip would be fixed one column per build. Counted
 * after the format step's fills (its `_checked` view, where the step ran): a sales.csv place column its parcel's
 * parcels.csv row gives is not empty; one neither file gives is.
 */
export async function emptyRequiredValues(db: DuckDBConnection, f: Pick<FileRejects, 'source' | 'file'>): Promise<{ column: string; rows: number }[]> {
  const entity = path.basename(f.file).replace(/\.csv(\.gz)?$/, '');
  const cols = f.source === 'canonical' ? CANONICAL_REQUIRED_VALUES[entity] : undefined;
  if (!cols) return [];
  const views = await queryRows<{ v: string }>(db, `select view_name as v from duckdb_views() where view_name in ($checked, $staged)
    order by view_name = $checked desc`, { checked: `int_market_canonical_${entity}_checked`, staged: `stg_canonical__${entity}` });
  const view = views[0]?.v;
  if (!view) return [];
  const [counts] = await queryRows<Record<string, number>>(db, `select ${cols.map((c) => `count(*) filter (where ${c} is null)::int as "${c}"`).join(', ')}
    from ${view} where file = $file or ends_with(file, '/' || $file)`, { file: f.file });
  return cols.map((c) => ({ column: c.replace(/_text$/, ''), rows: counts?.[c] ?? 0 })).filter((c) => c.rows > 0);
}

/**
 * The reject-share gate: a file whose lines breaking the contract are more than settings.rejectMaxShare of its
 * rows fails the stage (exit 3), naming the file, its share and its top reasons; `current` stays as it was.
 */
export async function checkRejectShare(ctx: StageContext, stage = 'intermediate'): Promise<FileRejects[]> {
  await relativeRejectFiles(ctx.db);
  const files = await fileRejects(ctx.db);
  const max = ctx.settings.rejectMaxShare;
  const over = files.filter((f) => f.share > max).sort((a, b) => b.share - a.share);
  if (over.length) {
    const pct = (x: number): string => `${(x * 100).toFixed(1).replace(/\.0$/, '')}%`;
    const worst = over[0]!;
    const hints = await ruleHints(ctx.db, worst);
    const reasons = worst.top.map((t) => `${t.rule}${t.column ? ` (${t.column})` : ''} ${t.rows}${hints[`${t.rule}|${t.column ?? ''}`] ?? ''}`).join(', ');
    const others = over.slice(1).map((f) => `${f.file} ${pct(f.share)}`);
    const empty = (await emptyRequiredValues(ctx.db, worst)).map((c) => `${c.column} ${c.rows}`);
    throw new StageError(stage, worst.file, new Error(
      `${pct(worst.share)} of its rows were rejected (${worst.rejected} of ${worst.rows}), more than the ${pct(max)} allowed (REII_REJECT_MAX_SHARE); `
      + `top reasons: ${reasons}${empty.length ? `; required columns left empty: ${empty.join(', ')}` : ''}${others.length ? `; also over the limit: ${others.join(', ')}` : ''} (every rejected row: ${queryCommand(ctx, 'select * from meta.rejects')})`));
  }
  return files;
}

/**
 * The `reii query` command that reads this build's warehouse, as it can be run as printed: with `--artifacts` when the
 * build was given another folder than the default (review 25 #4: the hint left it out, so it read ./artifacts).
 */
export function queryCommand(ctx: Pick<StageContext, 'settings' | 'paths'>, sql: string): string {
  const word = (s: string): string => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
  const artifacts = ctx.settings.artifacts === loadSettings({}, {}).artifacts ? '' : ` --artifacts ${word(ctx.settings.artifacts)}`;
  return `reii query${artifacts} --build ${path.basename(ctx.paths.build)} "${sql}"`;
}

/**
 * What a reader needs to fix a top rule of the gate's message: a date's or a number's example value and the format the
 * file must use (`not_a_date (sale_date) 40 (e.g. "05/01/2014"; dates are YYYY-MM-DD)`, `not_a_number (sale_price) 776
 * (e.g. "295.000,00"; numbers are plain: 295000 or 1250.50)`: review 25 #2 gave a number rule no example), and for
 * `unknown_parcel` whether parcels.csv is there at all (without it no sale keyed by parcel can find its place). Keyed
 * `rule|column`.
 */
const FORMAT_HINTS: Record<string, string> = {
  not_a_date: 'dates are YYYY-MM-DD',
  not_a_number: 'numbers are plain: 295000 or 1250.50',
  out_of_range: 'bounds: warehouse/docs/market.md "Row contracts"',
};
async function ruleHints(db: DuckDBConnection, f: FileRejects): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of f.top) {
    const key = `${t.rule}|${t.column ?? ''}`;
    const format = FORMAT_HINTS[t.rule];
    if (format) {
      const [ex] = await queryRows<{ v: string | null }>(db, `select min(value) as v from meta.rejects where source = $source
        and (file = $file or ends_with(file, '/' || $file)) and rule = $rule and column_name is not distinct from $col`, { source: f.source, file: f.file, rule: t.rule, col: t.column });
      out[key] = ` (${ex?.v ? `e.g. "${ex.v}"; ` : ''}${format})`;
    } else if (t.rule === 'unknown_parcel' && f.source === 'canonical') {
      const [p] = await queryRows<{ n: number }>(db, `select count(*)::int as n from meta.source_files where source = 'canonical'
        and regexp_matches(file, '(^|/)parcels\.csv(\.gz)?$')`);
      out[key] = p?.n ? ' (their parcel_id is not in parcels.csv)' : ' (there is no parcels.csv in canonical/: a sale that leaves its place empty takes it from its parcel_id\'s parcels.csv row)';
    }
  }
  return out;
}

/**
 * The operator's own rejects (source `canonical`), one line per file: the lines rejected of its rows and each rule
 * with its column and rows (`canonical/distress.csv: 9 of 398 rows rejected: duplicate_filing (line) 8, not_a_date
 * (filing_date) 1`), so a build's summary names them apart from the reference sources' rejects (review 15: a
 * build's 1,197 rejected rows were 1,178 of the geography files).
 */
export async function canonicalRejectLines(db: DuckDBConnection): Promise<string[]> {
  const rows = await queryRows<{ file: string; rows: number | null; rejected: number; rules: string }>(db, `
    with r as (select file, line, rule, column_name from meta.rejects where source = 'canonical'),
    per_rule as (select file, rule, column_name, count(*)::int as n from r group by all)
    select p.file, any_value(f.rows)::int as rows, (select count(distinct coalesce(line::varchar, rule)) from r where r.file = p.file)::int as rejected,
           string_agg(p.rule || coalesce(' (' || p.column_name || ')', '') || ' ' || p.n, ', ' order by p.n desc, p.rule) as rules
    from per_rule p left join meta.source_files f on f.source = 'canonical' and (p.file = f.file or ends_with(p.file, '/' || f.file))
    group by p.file order by p.file`);
  return rows.map((r) => `${r.file}: ${r.rejected}${r.rows !== null ? ` of ${r.rows}` : ''} rows rejected: ${r.rules}`);
}
