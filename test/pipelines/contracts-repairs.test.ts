// A bad value in a column the canonical format lets be empty (README "Canonical format": beds, baths, sqft,
// year_built, condition, lat/lng, list_price, list_date, party names) is set to null and the sale kept, the repair
// recorded in meta.repairs as `nulled_<rule>` with its line and `<column>=<the file's value> -> null` (a kept row is no
// reject: it never counts toward the reject-share gate). A bad required value still rejects the row. The values are the reviewer's build B
// rows; the sources stage, the canonical format step and the row-contract step run for real over a fresh DuckDB.
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, rejectsOf, sale } from '../helpers/canonical-sources.ts';
import { runSqlFile } from '../helpers/context.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import { run as rowContracts } from '../../pipelines/intermediate/30_market_44_row_contracts.ts';
import { flagCounts } from '../../pipelines/intermediate/30_market_46_sale_flags_report.ts';
import { canonicalRejectLines } from '../../pipelines/sources/rejects.ts';

afterAll(removeTmpDirs);

describe('a bad optional value is nulled, the sale kept', () => {
  test('condition "average", sqft "1.400.5", baths "two", year_built "75", sqft 20: kept, each repair recorded; a bad price still rejects', async () => {
    const lines = [HEADER,
      sale({ address: '1 A ST', condition: 'Average' }),            // 2 average = the assessor middle grade: read as good
      sale({ address: '2 A ST', sqft: '1.400.5' }),                  // 3 nulled_not_a_number sqft ("1,400" is read: contracts-read-as.test.ts)
      sale({ address: '3 A ST', baths: 'two', beds: 'x' }),          // 4 two repairs on one row
      sale({ address: '4 A ST', year_built: '75' }),                 // 5 nulled_out_of_range year_built (row contracts)
      sale({ address: '5 A ST', sqft: '20' }),                       // 6 nulled_out_of_range sqft (under the sfr bound)
      sale({ address: '6 A ST', condition: 'meh', sale_price: 'abc' }), // 7 a bad required value: rejected
      ...Array.from({ length: 4 }, (_, i) => sale({ address: `${10 + i} B ST` })),
    ];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 0.1 } }); // 1 reject of 10 rows; the 6 repairs are no rejects
      expect((await rejectsOf(ctx)).map(({ line, rule, column, value }) => [line, rule, column, value])).toEqual([[7, 'not_a_number', 'sale_price', 'abc']]);
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs order by line, detail`)).toEqual([
        { line: 2, rule: 'lower_cased', detail: 'condition=Average -> average' }, // read in lower case, recorded (contracts-lower-cased.test.ts)
        { line: 3, rule: 'nulled_not_a_number', detail: 'sqft=1.400.5 -> null' },
        { line: 4, rule: 'nulled_not_a_number', detail: 'baths=two -> null' }, { line: 4, rule: 'nulled_not_a_number', detail: 'beds=x -> null' },
        { line: 5, rule: 'nulled_out_of_range', detail: 'year_built=75 -> null' }, { line: 6, rule: 'nulled_out_of_range', detail: 'sqft=20 -> null' },
      ]);
      expect(await ctx.rows(`select line::int as line, condition, beds, baths, sqft, year_built, sale_price from sales where line <= 7 order by line`)).toEqual([
        { line: 2, condition: 'good', beds: 3, baths: 2, sqft: 1500, year_built: 1990, sale_price: 500000 },
        { line: 3, condition: 'good', beds: 3, baths: 2, sqft: null, year_built: 1990, sale_price: 500000 },
        { line: 4, condition: 'good', beds: null, baths: null, sqft: 1500, year_built: 1990, sale_price: 500000 },
        { line: 5, condition: 'good', beds: 3, baths: 2, sqft: 1500, year_built: null, sale_price: 500000 },
        { line: 6, condition: 'good', beds: 3, baths: 2, sqft: null, year_built: 1990, sale_price: 500000 },
      ]);
      // the build report's repairs section counts them; no reject but line 7's
      expect((await flagCounts(ctx.db)).filter((r) => r.kind === 'repair')).toEqual([
        { source: 'canonical', kind: 'repair', rule: 'lower_cased', rows: 1 },
        { source: 'canonical', kind: 'repair', rule: 'nulled_not_a_number', rows: 3 },
        { source: 'canonical', kind: 'repair', rule: 'nulled_out_of_range', rows: 2 },
      ]);
    } finally { ctx.close(); }
  });

  test("rejects and repairs show the file's own value and the file as the manifest names it (canonical/sales.csv)", async () => {
    const lines = [HEADER,
      sale({ address: '1 A ST', property_type: 'Residential' }),   // 2 not_in_list: the file's Residential, not residential
      sale({ address: '2 A ST', condition: 'Unkown' }),            // 3 nulled_not_in_list: Unkown
      sale({ address: '3 A ST', beds: '120' }),                    // 4 nulled_out_of_range: 120, not 120.0
      ...Array.from({ length: 20 }, (_, i) => sale({ address: `${10 + i} B ST` })),
    ];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      await rowContracts(ctx);
      expect(await ctx.rows(`select file, line::int as line, rule, column_name, value from meta.rejects`)).toEqual([
        { file: 'canonical/sales.csv', line: 2, rule: 'not_in_list', column_name: 'property_type', value: 'Residential' }]);
      expect(await ctx.rows(`select file, line::int as line, rule, detail from meta.repairs order by line`)).toEqual([
        { file: 'canonical/sales.csv', line: 3, rule: 'nulled_not_in_list', detail: 'condition=Unkown -> null' },
        { file: 'canonical/sales.csv', line: 4, rule: 'nulled_out_of_range', detail: 'beds=120 -> null' }]);
    } finally { ctx.close(); }
  });

  test('distress.csv: an unreadable or negative amount is nulled and the filing kept; an exact copy of a line is one filing', async () => {
    // the reviewer's Louisville cases as a canonical file (review 15): "NA" where a case had no sale was rejected
    // not_a_number, and a line written twice was two filings in the property record and the counts
    const head = 'address,city,state,zip,kind,filing_date,parcel_id,amount';
    const lines = [head,
      '1415 BERRY BLVD,Louisville,KY,40215-0000,tax_delinquent,2014-04-14,064D00260000,11100', // 2
      '2743 DUMESNIL ST,Louisville,KY,40211-0000,lien_foreclosure,2014-02-04,046K00040000,NA',  // 3 nulled_not_a_number
      '1415 BERRY BLVD,Louisville,KY,40215-0000,tax_delinquent,2014-04-14,064D00260000,11100', // 4 a copy of line 2
      '1415 BERRY BLVD,Louisville,KY,40215-0000,tax_delinquent,2014-04-14,064D00260000,9000',  // 5 another amount: a filing
      '9 ELM ST,Louisville,KY,40215,pre_foreclosure,2014-05-01,,-3',                           // 6 nulled_out_of_range
      '9 ELM ST,Louisville,KY,40215,pre_foreclosure,05/01/2014,,',                             // 7 a bad required date: rejected
      ...Array.from({ length: 20 }, (_, i) => `${10 + i} OAK ST,Louisville,KY,40215,tax_delinquent,2014-06-01,,`),
    ];
    const { ctx } = await load(canonicalSources({ 'distress.csv': lines.join('\n') + '\n' }));
    try {
      await rowContracts(ctx);
      expect(await ctx.rows(`select line::int as line, rule, column_name, value from meta.rejects order by line`)).toEqual([
        { line: 4, rule: 'duplicate_filing', column_name: 'line', value: 'copy of line 2' },
        { line: 7, rule: 'not_a_date', column_name: 'filing_date', value: '05/01/2014' }]);
      // (the ZIP+4 of lines 2, 3 and 5 is read as its 5 digits, each a zip_plus4_dropped repair: contracts-read-as.test.ts)
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs where rule <> 'zip_plus4_dropped' order by line`)).toEqual([
        { line: 3, rule: 'nulled_not_a_number', detail: 'amount=NA -> null' },
        { line: 6, rule: 'nulled_out_of_range', detail: 'amount=-3 -> null' }]);
      // the build's summary names the operator's own rejects per file and rule (review 15)
      expect(await canonicalRejectLines(ctx.db)).toEqual(['canonical/distress.csv: 2 of 26 rows rejected: duplicate_filing (line) 1, not_a_date (filing_date) 1']);
      expect(await ctx.rows(`select line::int as line, parcel_id, amount from distress where line <= 7 order by line`)).toEqual([
        { line: 2, parcel_id: '064D00260000', amount: 11100 }, { line: 3, parcel_id: '046K00040000', amount: null },
        { line: 5, parcel_id: '064D00260000', amount: 9000 }, { line: 6, parcel_id: null, amount: null }]);
    } finally { ctx.close(); }
  });

  test('sales.csv lot_sqft (optional): a lot of 5,000 is the sale\'s log_lot valuation feature; "big", -3, 1e400 and 0 (unknown) are nulled', async () => {
    const lines = [`${HEADER},lot_sqft`,
      `${sale({ address: '1 A ST' })},5000`,   // 2 ln(5000)
      `${sale({ address: '2 A ST' })},big`,    // 3 nulled_not_a_number
      `${sale({ address: '3 A ST' })},-3`,     // 4 nulled_out_of_range
      `${sale({ address: '4 A ST' })},1e400`,  // 5 nulled_out_of_range (infinite)
      `${sale({ address: '5 A ST' })},0`,      // 6 unknown: nulled_zero_is_unknown, as a sqft of 0 (review 25 #3: was silent)
      `${sale({ address: '6 A ST' })},`,       // 7 empty: unknown
      ...Array.from({ length: 4 }, (_, i) => `${sale({ address: `${10 + i} B ST` })},`),
    ];
    const { ctx, warnings } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      await rowContracts(ctx);
      expect(warnings.filter((w) => w.includes('lot_sqft'))).toEqual([]); // a column of the format, not "loaded, not used"
      expect(await rejectsOf(ctx)).toEqual([]);
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs order by line`)).toEqual([
        { line: 3, rule: 'nulled_not_a_number', detail: 'lot_sqft=big -> null' },
        { line: 4, rule: 'nulled_out_of_range', detail: 'lot_sqft=-3 -> null' },
        { line: 5, rule: 'nulled_out_of_range', detail: 'lot_sqft=1e400 -> null' },
        { line: 6, rule: 'nulled_zero_is_unknown', detail: 'lot_sqft=0 -> null' },
      ]);
      expect((await ctx.rows<{ n: number }>(`select count(*)::int as n from sales`))[0]!.n).toBe(10); // every sale kept
      await runSqlFile(ctx, 'pipelines/marts/50_mart_valuation_00_features.sql');
      await runSqlFile(ctx, 'pipelines/marts/50_mart_valuation_07_canonical.sql');
      expect(await ctx.rows(`select s.line::int as line, round(f.log_lot, 6) as log_lot from mart_valuation_features f join sales s using (sale_id) order by line`))
        .toEqual([{ line: 2, log_lot: Number(Math.log(5000).toFixed(6)) }]);
    } finally { ctx.close(); }
  });

  test('sales.csv quality_grade (optional): a grade of 7 is the sale\'s grade valuation feature; "high" and 1e400 are nulled', async () => {
    const lines = [`${HEADER},quality_grade`,
      `${sale({ address: '1 A ST' })},7`,      // 2 grade 7
      `${sale({ address: '2 A ST' })},high`,   // 3 nulled_not_a_number
      `${sale({ address: '3 A ST' })},1e400`,  // 4 nulled_out_of_range (infinite)
      `${sale({ address: '4 A ST' })},`,       // 5 empty: unknown
      ...Array.from({ length: 4 }, (_, i) => `${sale({ address: `${10 + i} B ST` })},`),
    ];
    const { ctx, warnings } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      await rowContracts(ctx);
      expect(warnings.filter((w) => w.includes('quality_grade'))).toEqual([]); // a column of the format, not "loaded, not used"
      expect(await rejectsOf(ctx)).toEqual([]);
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs order by line`)).toEqual([
        { line: 3, rule: 'nulled_not_a_number', detail: 'quality_grade=high -> null' },
        { line: 4, rule: 'nulled_out_of_range', detail: 'quality_grade=1e400 -> null' },
      ]);
      await runSqlFile(ctx, 'pipelines/marts/50_mart_valuation_00_features.sql');
      await runSqlFile(ctx, 'pipelines/marts/50_mart_valuation_07_canonical.sql');
      expect(await ctx.rows(`select s.line::int as line, f.grade, f.log_lot from mart_valuation_features f join sales s using (sale_id) order by line`))
        .toEqual([{ line: 2, grade: 7, log_lot: null }]);
    } finally { ctx.close(); }
  });
});
