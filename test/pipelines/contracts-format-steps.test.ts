// Row contracts at the door (issue 19), the file loader and the format steps: every bad input file gives a named
// error or reject, never a crash and never a shifted row, and each rule of the canonical format rejects its line
// with the column and value. The files are written here by hand (the expected outcome of each is read off the
// README's canonical format); the sources stage and the canonical staging and format steps run for real over a
// fresh DuckDB (test/helpers/canonical-sources.ts). The row-contract step: contracts-row-steps.test.ts; the
// reject-share gate: sources/rejects.test.ts; real builds with poisoned rows: contracts-build.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, rejectsOf, sale } from '../helpers/canonical-sources.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { StageError } from '../../warehouse/errors.ts';
import { rejectsByFile } from '../helpers/context.ts';

afterAll(removeTmpDirs);

// ---------------------------------------------------------------------------------------------------------------

describe('bad input: each gives a named error or reject, never a crash or a shifted row', () => {
  const stageError = async (files: Record<string, string | Buffer>): Promise<StageError> => {
    const err = await load(canonicalSources(files)).then((l) => { l.ctx.close(); return null; }, (e: unknown) => e);
    expect(err).toBeInstanceOf(StageError);
    return err as StageError;
  };

  test('an empty file fails the sources stage naming the file', async () => {
    const err = await stageError({ 'sales.csv': '' });
    expect(err.message).toBe('stage sources failed in canonical/sales.csv: the file is empty (0 bytes): a CSV file needs at least its header line');
    expect(err.exitCode).toBe(3);
  });

  test('a header without data rows loads nothing, with a warning naming the file', async () => {
    const { ctx, warnings } = await load(canonicalSources({ 'sales.csv': `${HEADER}\n` }));
    try {
      expect(await ctx.rows(`select count(*)::int as n from raw."canonical__sales"`)).toEqual([{ n: 0 }]);
      expect(await ctx.rows(`select count(*)::int as n from sales`)).toEqual([{ n: 0 }]);
      expect(await rejectsOf(ctx)).toEqual([]);
      expect(warnings).toContain('canonical/sales.csv: no data row loaded (a header only, or every line rejected)');
    } finally { ctx.close(); }
  });

  test('a missing column and a renamed one fail naming the file and the columns', async () => {
    const missing = await stageError({ 'sales.csv': `${HEADER.replace('sale_date,', '')}\n` });
    expect(missing.message).toMatch(/^stage sources failed in canonical\/sales\.csv: missing required column\(s\) sale_date \(line 1 header\); see README/);
    const renamed = await stageError({ 'sales.csv': `${HEADER.replace('sale_price', 'sale_amount')}\n${sale()}\n` });
    expect(renamed.message).toContain('missing required column(s) sale_price (line 1 header); the header has sale_amount, not in the format (renamed?)');
  });

  test('UTF-16 files (either byte order, with or without a byte-order mark) fail naming the file and the encoding', async () => {
    const text = `${HEADER}\n${sale()}\n`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    expect((await stageError({ 'sales.csv': le })).message).toBe('stage sources failed in canonical/sales.csv: the file is UTF-16 (byte-order mark FF FE): save it as UTF-8 (CSV UTF-8)');
    expect((await stageError({ 'sales.csv': Buffer.concat([Buffer.from([0xfe, 0xff]), be]) })).message).toContain('UTF-16 (byte-order mark FE FF)');
    expect((await stageError({ 'sales.csv': Buffer.from(text, 'utf16le') })).message).toContain('canonical/sales.csv: the file has NUL bytes: it is UTF-16 without a byte-order mark');
  });

  test('a Latin-1 file: the lines with non-UTF-8 bytes are rejected as bad_encoding, the others land unchanged', async () => {
    const lines = [HEADER, sale({ address: '1 ELM ST' }), sale({ address: '2 ELM ST', buyer_name: '"MU\u00d1OZ, ANA"' }), sale({ address: '3 ELM ST', buyer_name: '"LEE, AL"' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': Buffer.from(lines.join('\n') + '\n', 'latin1') }));
    try {
      expect((await rejectsOf(ctx)).map(({ line, rule }) => [line, rule])).toEqual([[3, 'bad_encoding']]);
      expect(await ctx.rows(`select address, buyer_name, line::int as line from sales order by line`)).toEqual([
        { address: '1 ELM ST', buyer_name: 'SMITH, JOHN', line: 2 }, { address: '3 ELM ST', buyer_name: 'LEE, AL', line: 4 }]);
    } finally { ctx.close(); }
  });

  test('CRLF line endings: every row lands with its exact values (no carriage return in the last column)', async () => {
    const lines = [HEADER, sale({ address: '1 ELM ST', lng: '-122.31' }), sale({ address: '2 ELM ST', lng: '-122.32', seller_name: 'PLAIN' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\r\n') + '\r\n' }));
    try {
      expect(await rejectsOf(ctx)).toEqual([]);
      expect(await ctx.rows(`select address, lng, seller_name, line::int as line from sales order by line`)).toEqual([
        { address: '1 ELM ST', lng: -122.31, seller_name: 'DOE, JANE', line: 2 }, { address: '2 ELM ST', lng: -122.32, seller_name: 'PLAIN', line: 3 }]);
    } finally { ctx.close(); }
  });

  test('a 3,000-character field and a 1e400 or negative price are rejected by name with their column and value; a $0 transfer is kept; nothing else moves', async () => {
    const long = `5 ${'LONG'.repeat(750)}`.slice(0, 3000);
    const lines = [HEADER, sale({ address: '1 ELM ST' }), sale({ address: long }), sale({ address: '3 ELM ST', sale_price: '1e400' }),
      sale({ address: '4 ELM ST', sale_price: 'NaN' }), sale({ address: '5 ELM ST', sale_price: '"1,00"' }), sale({ address: '6 ELM ST', sale_price: '0' }),
      sale({ address: '7 ELM ST', sale_price: '510000' }), sale({ address: '8 ELM ST', sale_price: '-5' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      expect(await rejectsOf(ctx)).toEqual([
        { stage: 'intermediate', line: 3, rule: 'too_long', column: 'address', value: `${long.slice(0, 200)}... (3000 characters)` },
        { stage: 'intermediate', line: 4, rule: 'out_of_range', column: 'sale_price', value: '1e400' },
        { stage: 'intermediate', line: 5, rule: 'not_a_number', column: 'sale_price', value: 'NaN' },
        { stage: 'intermediate', line: 6, rule: 'not_a_number', column: 'sale_price', value: '1,00' }, // "1,000" is read (contracts-read-as.test.ts)
        { stage: 'intermediate', line: 9, rule: 'out_of_range', column: 'sale_price', value: '-5' },
      ]);
      // a $0 deed transfer is a real record: kept, never arm's-length (30_market_45 flags it nominal_price, as NYC's)
      expect(await ctx.rows(`select address, sale_price, is_arms_length, line::int as line from sales order by line`)).toEqual([
        { address: '1 ELM ST', sale_price: 500000, is_arms_length: true, line: 2 }, { address: '6 ELM ST', sale_price: 0, is_arms_length: false, line: 7 },
        { address: '7 ELM ST', sale_price: 510000, is_arms_length: true, line: 8 }]);
    } finally { ctx.close(); }
  });

  test('an unclosed quote rejects its own line only: the quoted "LAST, FIRST" names after it land in their columns', async () => {
    const lines = [HEADER, sale({ address: '1 ELM ST' }), sale({ address: '2 ELM ST', city: '"SEATTLE' }),
      sale({ address: '3 ELM ST', buyer_name: '"LEE, AL"' }), sale({ address: '4 ELM ST', buyer_name: '"O""NEIL, PAT"' }), sale({ address: '5 ELM ST' })];
    const text = lines.join('\n') + '\n';
    // CRLF (review 19 r19a F3: the marker line standing for the unclosed quote was counted as a second reject)
    const crlf = lines.join('\r\n') + '\r\n';
    for (const [name, body] of [['sales.csv', text], ['sales.csv.gz', zlib.gzipSync(text)], ['sales.csv', crlf]] as const) {
      const { ctx } = await load(canonicalSources({ [name]: body }));
      try {
        expect(await rejectsOf(ctx), name).toEqual([{ stage: 'sources', line: 3, rule: 'unclosed_quote', column: null, value: lines[2] }]);
        expect(await ctx.rows(`select address, city, buyer_name, seller_name, line::int as line from sales order by line`), name).toEqual([
          { address: '1 ELM ST', city: 'Seattle', buyer_name: 'SMITH, JOHN', seller_name: 'DOE, JANE', line: 2 },
          { address: '3 ELM ST', city: 'Seattle', buyer_name: 'LEE, AL', seller_name: 'DOE, JANE', line: 4 },
          { address: '4 ELM ST', city: 'Seattle', buyer_name: 'O"NEIL, PAT', seller_name: 'DOE, JANE', line: 5 },
          { address: '5 ELM ST', city: 'Seattle', buyer_name: 'SMITH, JOHN', seller_name: 'DOE, JANE', line: 6 },
        ]);
      } finally { ctx.close(); }
    }
    // no quote after it until the end of the file: read as one CSV value, the rest of the file would be swallowed
    const tail = [HEADER, sale({ address: '1 ELM ST', buyer_name: 'LEE AL', seller_name: 'DOE JANE' }), sale({ address: '2 ELM ST', city: '"SEATTLE', buyer_name: 'X', seller_name: 'Y' }),
      sale({ address: '3 ELM ST', buyer_name: 'KIM SO', seller_name: 'DOE JANE' }), sale({ address: '4 ELM ST', buyer_name: 'ORTIZ LU', seller_name: 'DOE JANE' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': tail.join('\n') + '\n' }));
    try {
      expect((await rejectsOf(ctx)).map(({ line, rule }) => [line, rule])).toEqual([[3, 'unclosed_quote']]);
      expect(await ctx.rows(`select address, buyer_name, line::int as line from sales order by line`)).toEqual([
        { address: '1 ELM ST', buyer_name: 'LEE AL', line: 2 }, { address: '3 ELM ST', buyer_name: 'KIM SO', line: 4 }, { address: '4 ELM ST', buyer_name: 'ORTIZ LU', line: 5 }]);
    } finally { ctx.close(); }
  });

  test('a line with too many or too few fields is a wrong_column_count reject; the lines around it keep their line numbers', async () => {
    const lines = [HEADER, sale({ address: '1 ELM ST' }), `${sale({ address: '2 ELM ST' })},EXTRA`, '3 ELM ST,SEATTLE,WA', sale({ address: '4 ELM ST' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      expect((await rejectsOf(ctx)).map(({ stage, line, rule }) => [stage, line, rule])).toEqual([['sources', 3, 'wrong_column_count'], ['sources', 4, 'wrong_column_count']]);
      expect(await ctx.rows(`select address, line::int as line from sales order by line`)).toEqual([{ address: '1 ELM ST', line: 2 }, { address: '4 ELM ST', line: 5 }]);
    } finally { ctx.close(); }
  });

  test('an empty or UTF-16 file of a public source fails the build naming it too', async () => {
    const dir = tmp('reii-contracts-src-');
    fs.mkdirSync(path.join(dir, 'louisville-metro-lien-foreclosures'));
    fs.writeFileSync(path.join(dir, 'louisville-metro-lien-foreclosures', 'foreclosures.csv.gz'), zlib.gzipSync(''));
    const err = await load(dir).then((l) => { l.ctx.close(); return null; }, (e: unknown) => e);
    expect((err as Error).message).toBe('stage sources failed in louisville-metro-lien-foreclosures/foreclosures.csv.gz: the file is empty (0 bytes): a CSV file needs at least its header line');
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('the canonical format, row by row', () => {
  test('each rule of the format, with its column and value; every data line is a sale or a reject', async () => {
    const lines = [HEADER,
      sale({ address: '1 OK ST' }),                                   // 2 ok
      sale({ address: '' }),                                          // 3 missing_value address
      sale({ address: '3 A ST', zip: '9810' }),                       // 4 bad_zip (never padded)
      sale({ address: '4 A ST', state: 'Washington' }),               // 5 unknown_state (not two letters)
      sale({ address: '5 A ST', sale_date: '01/05/2024' }),           // 6 not_a_date
      sale({ address: '6 A ST', beds: 'three' }),                     // 7 not_a_number beds (nulled, kept)
      sale({ address: '7 A ST', sqft: '-5' }),                        // 8 out_of_range sqft (nulled, kept)
      sale({ address: '8 A ST', property_type: 'castle' }),           // 9 not_in_list property_type
      sale({ address: '9 A ST', condition: 'great' }),                // 10 not_in_list condition (nulled, kept)
      sale({ address: '10 A ST', city: 'X'.repeat(101) }),            // 11 too_long city
      sale({ address: '11 A ST', buyer_name: 'B'.repeat(201) }),      // 12 too_long buyer_name (nulled, kept)
      sale({ address: '12 A ST', lat: 'north' }),                     // 13 not_a_number lat (nulled with lng, kept)
      sale({ address: '13 A ST', beds: '', baths: '', sqft: '', year_built: '', condition: '', lat: '', lng: '', buyer_name: '', seller_name: '' }), // 14 ok
    ];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      const got = await rejectsOf(ctx);
      expect(got.map(({ line, rule, column, value }) => [line, rule, column, value])).toEqual([
        [3, 'missing_value', 'address', ''], [4, 'bad_zip', 'zip', '9810'], [5, 'unknown_state', 'state', 'Washington'],
        [6, 'not_a_date', 'sale_date', '01/05/2024'], [9, 'not_in_list', 'property_type', 'castle'], [11, 'too_long', 'city', 'X'.repeat(101)],
      ]);
      // a bad optional value (beds, sqft, condition, a party name, lat) is nulled and the sale kept: a meta.repairs row
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs order by line`)).toEqual([
        { line: 7, rule: 'nulled_not_a_number', detail: 'beds=three -> null' }, { line: 8, rule: 'nulled_out_of_range', detail: 'sqft=-5 -> null' },
        { line: 10, rule: 'nulled_not_in_list', detail: 'condition=great -> null' },
        { line: 12, rule: 'nulled_too_long', detail: `buyer_name=${'B'.repeat(200)}... (201 characters) -> null` }, { line: 13, rule: 'nulled_not_a_number', detail: 'lat=north -> null' },
      ]);
      const kept = await ctx.rows<{ line: number }>(`select line::int as line from sales order by line`);
      expect(kept.map((r) => r.line)).toEqual([2, 7, 8, 10, 12, 13, 14]);
      expect(kept.length + got.length).toBe(lines.length - 1);
    } finally { ctx.close(); }
  });

  test('parcels, permits and distress: the same kinds of rules with their own columns', async () => {
    const { ctx } = await load(canonicalSources({
      'parcels.csv': 'address,city,state,zip,property_type,beds,baths,sqft,year_built,lat,lng,owner_name\n1 A ST,SEATTLE,WA,98101,sfr,3,2,1500,1990,47.6,-122.3,"SMITH, JOHN"\n2 A ST,SEATTLE,WA,98101,sfr,3,2,1e400,1990,47.6,-122.3,\n',
      'permits.csv': 'address,zip,issue_date,permit_type,valuation,lat,lng,permit_id\n1 A ST,98101,2024-01-02,renovation,5000,,,P1\n2 A ST,98101,2024-01-02,remodel,5000,,,P2\n3 A ST,98101,2024-01-02,repair,5000,,,P1\n',
      'distress.csv': 'address,city,state,zip,kind,filing_date,amount\n1 A ST,SEATTLE,WA,98101,tax_delinquent,2024-01-02,100\n2 A ST,SEATTLE,WA,98101,tax_delinquent,2024-01-02,-3\n',
    }));
    try {
      const got = await rejectsByFile(ctx);
      expect(got).toEqual([
        { file: 'parcels.csv', line: 3, rule: 'out_of_range', column_name: 'sqft', value: '1e400' },
        { file: 'permits.csv', line: 3, rule: 'not_in_list', column_name: 'permit_type', value: 'remodel' },
        { file: 'permits.csv', line: 4, rule: 'duplicate_permit', column_name: 'permit_id', value: 'P1' },
      ]);
      expect(await ctx.rows(`select (select count(*) from parcels)::int as p, (select count(*) from permits)::int as pe, (select count(*) from distress)::int as d, (select owner_name from parcels) as owner`))
        .toEqual([{ p: 1, pe: 1, d: 2, owner: 'SMITH, JOHN' }]); // distress.csv's amount -3 is nulled, the filing kept (contracts-repairs)
    } finally { ctx.close(); }
  });
});
