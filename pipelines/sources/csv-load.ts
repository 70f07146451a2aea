// Loading one source file's CSVs into its raw table: the plain load (sniffed dialect) and the contract load (the
// canonical format's fixed dialect, unclosed quotes rejected line by line), both numbering rows by their line in the
// file and recording the lines the parser refused in meta.rejects. Discovery and the stage itself: index.ts; the
// checks and repairs made on the bytes first: csv-bytes.ts.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows } from '../../warehouse/db.ts';
import { sqlString } from '../../warehouse/sql.ts';
import { StageError } from '../../warehouse/errors.ts';
import { rawTable, type SourceDef, type SourceFile } from './registry.ts';
import { appendRejects } from './rejects.ts';
import { blankLines, inspectFile, MARKER, oddQuoteLines, withMarkers } from './csv-bytes.ts';

export async function loadCsv(ctx: StageContext, source: SourceDef, file: SourceFile, files: string[]): Promise<Map<string, number>> {
  const table = rawTable(source, file);
  const loading = `"load_${source.id}__${file.key}"`;
  const list = `[${files.map(sqlString).join(', ')}]`;
  const delim = file.delim ? `, delim = ${sqlString(file.delim)}` : '';
  const tag = `${source.id}__${file.key}`;
  const names = files.map((f) => path.relative(ctx.paths.sources, f)).join(', ');
  for (const f of files) await inspectFile(ctx, f);
  try {
    // A plain scan keeps the file order (insertion order is preserved), so rowid counts the loaded rows in
    // file order; a window over the scan would not (parallel reads reach it out of order).
    await ctx.db.run(`
      create or replace temp table ${loading} as
      select * exclude (filename), filename as _file
      from read_csv(${list}, all_varchar = true, header = true, filename = true,
                    store_rejects = true, rejects_scan = 'rejects_scan_${tag}', rejects_table = 'rejects_${tag}',
                    max_line_size = 4000000${delim})`);
  } catch (err) {
    throw new StageError('sources', path.relative(ctx.paths.sources, files[0]!), err);
  }
  try {
    await insertParseRejects(ctx, source.id, `rejects_${tag}`, `rejects_scan_${tag}`);
    await numberRows(ctx, loading, table, `rejects_${tag}`, `rejects_scan_${tag}`, await skippedLines(ctx, files));
    const counts = await queryRows<{ f: string; n: number }>(ctx.db, `select _file as f, count(*)::int as n from ${table} group by all`);
    return new Map(counts.map((c) => [c.f, c.n]));
  } catch (err) {
    if (err instanceof StageError) throw err;
    throw new StageError('sources', names, err);
  } finally {
    await ctx.db.run(`drop table if exists ${loading}; drop table if exists rejects_${tag}; drop table if exists rejects_scan_${tag};`);
  }
}

/**
 * Copies the loaded rows into the raw table with `_row`, so that `_row + 1` is the row's line in its file
 * (the header is line 1), lines the CSV parser rejected included: the n-th loaded row of a file is on line
 * n + 1 + (rejected lines before it). The i-th rejected line L of a file (in line order) has L - 1 - i
 * loaded rows before it, so an ASOF join on that count gives each row the number of rejected lines before
 * it: one sorted merge over the rows, no scan of the rejects per row, and no join at all when nothing was
 * rejected. The empty lines the reader skips without a reject (`blanks`, by file) count as rejected lines do. Lines
 * are counted as DuckDB counts them: a quoted value spanning lines is one line. `file` names the file the rows came
 * from when the scan read a copy of it (loadContractCsv).
 */
async function numberRows(ctx: StageContext, loading: string, table: string, rejects: string, scans: string,
  blanks: ReadonlyArray<{ file: string; line: number }>, file?: string): Promise<void> {
  const [{ n }] = await queryRows<{ n: number }>(ctx.db, `select count(*)::int as n from ${rejects}`) as [{ n: number }];
  const numbered = `
    select l.*, l.rowid - f.first_rowid + 1 as _n
    from ${loading} l join (select _file, min(rowid) as first_rowid from ${loading} group by _file) f on l._file = f._file`;
  if (n === 0 && blanks.length === 0) {
    await ctx.db.run(`create or replace table ${table} as select * exclude (_n), _n as _row from (${numbered})`);
    return;
  }
  const blankTable = `${rejects}_blank`;
  await ctx.db.run(`create or replace temp table ${blankTable} (file varchar, line bigint)`);
  for (let i = 0; i < blanks.length; i += 1000) {
    await ctx.db.run(`insert into ${blankTable} values ${blanks.slice(i, i + 1000).map((b) => `(${sqlString(b.file)}, ${b.line})`).join(', ')}`);
  }
  await ctx.db.run(`
    create or replace table ${table} as
    with lines as (
        select distinct ${file ? sqlString(file) : 's.file_path'} as file, e.line from ${rejects} e join ${scans} s using (scan_id, file_id)
        union
        select file, line from ${blankTable}
    ),
    ranked as (
        select file, line - 1 - row_number() over (partition by file order by line) as rows_before,
               row_number() over (partition by file order by line) as rejected_before
        from lines
    ),
    steps as (
        -- consecutive rejected lines share rows_before: the last of them counts them all
        select file, rows_before, max(rejected_before) as rejected_before from ranked group by all
    )
    select t.* exclude (_n), t._n + coalesce(s.rejected_before, 0) as _row
    from (${numbered}) t asof left join steps s on t._file = s.file and t._n > s.rows_before;
    drop table ${blankTable}`);
}

/** Each file's empty lines (blankLines), as numberRows takes them; an unreadable file fails the stage naming it. */
async function skippedLines(ctx: StageContext, files: readonly string[]): Promise<Array<{ file: string; line: number }>> {
  const out: Array<{ file: string; line: number }> = [];
  for (const f of files) {
    const lines = await blankLines(f).catch((err: unknown) => { throw new StageError('sources', path.relative(ctx.paths.sources, f), err); });
    for (const line of lines) out.push({ file: f, line });
  }
  return out;
}

// ---------------------------------------------------------------- CSV parser rejects

/** The rule of a line the CSV parser rejected, from DuckDB's error type (warehouse/docs/market.md "Row contracts"). */
const PARSE_RULE_SQL = `
    case
        when starts_with(ltrim(coalesce(e.csv_line, ''), chr(13) || chr(10)), '${MARKER}') then 'unclosed_quote'
        when e.error_type in ('INVALID ENCODING', 'INVALID UNICODE') then 'bad_encoding'
        when e.error_type in ('MISSING COLUMNS', 'TOO MANY COLUMNS') then 'wrong_column_count'
        when e.error_type = 'UNQUOTED VALUE' and e.error_message ilike '%unterminated quote%' then 'unclosed_quote'
        when e.error_type = 'UNQUOTED VALUE' then 'bad_quoting'
        when e.error_type = 'LINE SIZE OVER MAXIMUM' then 'line_too_long'
        else 'csv_parse'
    end`;

/**
 * One reject per line the parser refused (DuckDB logs an error per missing column: the first is kept), its detail
 * `=<parser message>: <the line>`. Marker lines standing for an unclosed quote (loadContractCsv) are left out: their
 * rejects carry the original line, written by the caller (in a CRLF file DuckDB's csv_line starts with the line break
 * before the marker: review 19 counted such a line twice).
 */
async function insertParseRejects(ctx: StageContext, source: string, rejects: string, scans: string, file?: string): Promise<void> {
  await ctx.db.run(`
    insert into meta.rejects
    select 'sources', $source, ${file ? '$file' : 's.file_path'}, e.line,
           arg_min(${PARSE_RULE_SQL}, e.column_idx),
           arg_min(reject_detail(null, e.error_message || ': ' || coalesce(e.csv_line, '')), e.column_idx)
    from ${rejects} e join ${scans} s using (scan_id, file_id)
    where not starts_with(ltrim(coalesce(e.csv_line, ''), chr(13) || chr(10)), '${MARKER}')
    group by s.file_path, e.line`, file ? { source, file } : { source });
}

// ---------------------------------------------------------------- contract files (the canonical format)

/** The header of a contract file: column names trimmed and lower-cased; fails naming the file when unreadable. */
function contractHeader(ctx: StageContext, file: string, head: Buffer, def: SourceFile): string[] {
  const rel = path.relative(ctx.paths.sources, file);
  const fail = (why: string): never => { throw new StageError('sources', rel, new Error(why)); };
  let text = head.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const nl = text.indexOf('\n');
  const line = (nl >= 0 ? text.slice(0, nl) : text).replace(/\r$/, '');
  if (!line.trim()) fail('the first line is blank: line 1 must be the header (see README "Canonical format")');
  let names: string[];
  try {
    names = ((parseCsv(line, { relax_column_count: true }) as string[][])[0] ?? []).map((n) => n.trim().toLowerCase());
  } catch (err) {
    return fail(`line 1 (header) cannot be read as CSV: ${(err as Error).message}`);
  }
  const blank = names.findIndex((n) => n === '');
  if (blank >= 0) fail(`line 1 (header) has an empty column name at position ${blank + 1}`);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) fail(`line 1 (header) names the column ${dup} twice`);
  const known = new Set([...(def.requiredColumns ?? []), ...(def.optionalColumns ?? [])]);
  const missing = (def.requiredColumns ?? []).filter((c) => !names.includes(c));
  const unexpected = names.filter((n) => !known.has(n));
  if (missing.length) {
    fail(`missing required column(s) ${missing.join(', ')} (line 1 header)${unexpected.length ? `; the header has ${unexpected.join(', ')}, not in the format (renamed?)` : ''}; see README "Canonical format"`);
  }
  if (unexpected.length) ctx.log.warn(`${rel}: column(s) ${unexpected.join(', ')} are not in the canonical format: loaded, not used`);
  return names;
}

/**
 * Loads a file with a contract (the canonical format) one file at a time, with the dialect the format fixes
 * instead of a sniffed one (comma, double quotes doubled inside a quoted value, a header line, UTF-8): a file whose
 * first lines mislead the sniffer (an unclosed quote) can no more turn its quoted "LAST, FIRST" names into extra
 * columns. An empty, UTF-16 or binary file, or a header missing a required column, fails the stage naming the file;
 * a line with an unclosed quote is rejected alone (unclosed_quote) and every other line loads.
 */
export async function loadContractCsv(ctx: StageContext, source: SourceDef, file: SourceFile, files: string[]): Promise<Map<string, number>> {
  const table = rawTable(source, file);
  const tag = `${source.id}__${file.key}`;
  const parts: string[] = [];
  const repaired: string[] = [];
  try {
    for (const [i, f] of files.entries()) {
      const rel = path.relative(ctx.paths.sources, f);
      const names = contractHeader(ctx, f, await inspectFile(ctx, f), file);
      const odd = await oddQuoteLines(f).catch((err: unknown) => { throw new StageError('sources', rel, err); });
      let readPath = f;
      if (odd.size) {
        readPath = path.join(ctx.paths.build, '.contracts', `${tag}_${i}.csv`);
        repaired.push(readPath);
        await withMarkers(f, readPath, new Set(odd.keys())).catch((err: unknown) => { throw new StageError('sources', rel, err); });
      }
      const loading = `"load_${tag}_${i}"`;
      const part = files.length === 1 ? table : `"part_${tag}_${i}"`;
      const columns = `{${names.map((n) => `${sqlString(n)}: 'VARCHAR'`).join(', ')}}`;
      try {
        await ctx.db.run(`
          create or replace temp table ${loading} as
          select *, ${sqlString(f)} as _file
          from read_csv(${sqlString(readPath)}, auto_detect = false, header = true, delim = ',', quote = '"', escape = '"',
                        columns = ${columns}, store_rejects = true, rejects_scan = 'rejects_scan_${tag}', rejects_table = 'rejects_${tag}',
                        max_line_size = 4000000)`);
        await insertParseRejects(ctx, source.id, `rejects_${tag}`, `rejects_scan_${tag}`, f);
        await appendRejects(ctx.db, [...odd].map(([line, text]) => ({
          stage: 'sources', source: source.id, file: f, line, reason: 'unclosed_quote', detail: null, column: null, value: text })));
        // the scan read the copy: its lines are f's
        await numberRows(ctx, loading, part, `rejects_${tag}`, `rejects_scan_${tag}`, await skippedLines(ctx, [f]), f);
        if (part !== table) parts.push(part);
      } catch (err) {
        if (err instanceof StageError) throw err;
        throw new StageError('sources', rel, err);
      } finally {
        await ctx.db.run(`drop table if exists ${loading}; drop table if exists rejects_${tag}; drop table if exists rejects_scan_${tag};`);
      }
    }
    if (parts.length) {
      await ctx.db.run(`create or replace table ${table} as ${parts.map((p) => `select * from ${p}`).join(' union all by name ')}`);
    }
    const counts = await queryRows<{ f: string; n: number }>(ctx.db, `select _file as f, count(*)::int as n from ${table} group by all`);
    const byFile = new Map(counts.map((c) => [c.f, c.n]));
    for (const f of files) {
      if (!byFile.get(f)) ctx.log.warn(`${path.relative(ctx.paths.sources, f)}: no data row loaded (a header only, or every line rejected)`);
    }
    return byFile;
  } catch (err) {
    if (err instanceof StageError) throw err;
    throw new StageError('sources', files.map((f) => path.relative(ctx.paths.sources, f)).join(', '), err);
  } finally {
    for (const p of parts) await ctx.db.run(`drop table if exists ${p}`);
    for (const r of repaired) fs.rmSync(r, { force: true });
  }
}
