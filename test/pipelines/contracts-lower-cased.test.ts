// A word of a canonical list column written in another case ("SFR", "Condo", "GOOD", "Warranty"; README "Canonical
// format") was read in lower case without a trace (a reviewer's leftover: `property_type` SFR loaded as sfr, no repair
// row). It is now a repair: the row kept with the word in lower case and a meta.repairs row `lower_cased`
// (`property_type=SFR -> sfr`), in sales.csv, parcels.csv, permits.csv and distress.csv alike; a word of no list in
// any case ("Single Family") still rejects not_in_list. The sources stage and the canonical format steps run for real
// over a fresh DuckDB (test/helpers/canonical-sources.ts).
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, rejectsOf, sale } from '../helpers/canonical-sources.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import { flagCounts } from '../../pipelines/intermediate/30_market_46_sale_flags_report.ts';

afterAll(removeTmpDirs);

describe('a list word in another case is a recorded repair', () => {
  test('sales.csv: SFR, Condo, GOOD, Warranty read in lower case with one lower_cased repair each; Single Family rejects', async () => {
    const lines = [`${HEADER},deed_type`,
      `${sale({ address: '1 A ST', property_type: 'SFR' })},warranty`,                       // 2 property_type SFR
      `${sale({ address: '2 A ST', property_type: 'Condo', condition: 'GOOD' })},Warranty`, // 3 three repairs
      `${sale({ address: '3 A ST', property_type: 'Single Family' })},warranty`,            // 4 no list word: rejected
      `${sale({ address: '4 A ST', condition: 'Average' })},`,                              // 5 Average: lower_cased, read as good
      `${sale({ address: '5 A ST' })},warranty`,                                            // 6 as the format writes it: no repair
    ];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      expect((await rejectsOf(ctx)).map(({ line, rule, column, value }) => [line, rule, column, value])).toEqual([[4, 'not_in_list', 'property_type', 'Single Family']]);
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs order by line, detail`)).toEqual([
        { line: 2, rule: 'lower_cased', detail: 'property_type=SFR -> sfr' },
        { line: 3, rule: 'lower_cased', detail: 'condition=GOOD -> good' },
        { line: 3, rule: 'lower_cased', detail: 'deed_type=Warranty -> warranty' },
        { line: 3, rule: 'lower_cased', detail: 'property_type=Condo -> condo' },
        { line: 5, rule: 'lower_cased', detail: 'condition=Average -> average' },
      ]);
      expect(await ctx.rows(`select line::int as line, property_type, condition, deed_type from sales order by line`)).toEqual([
        { line: 2, property_type: 'sfr', condition: 'good', deed_type: 'WD' },
        { line: 3, property_type: 'condo', condition: 'good', deed_type: 'WD' },
        { line: 5, property_type: 'sfr', condition: 'good', deed_type: null },
        { line: 6, property_type: 'sfr', condition: 'good', deed_type: 'WD' },
      ]);
      expect((await flagCounts(ctx.db)).filter((r) => r.kind === 'repair')).toEqual([{ source: 'canonical', kind: 'repair', rule: 'lower_cased', rows: 5 }]);
    } finally { ctx.close(); }
  });

  test('parcels.csv, permits.csv and distress.csv: the same rule for property_type, permit_type and kind', async () => {
    const { ctx } = await load(canonicalSources({
      'parcels.csv': ['address,city,state,zip,property_type,beds,baths,sqft,year_built,lat,lng',
        '1 A ST,SEATTLE,WA,98101,Multi,3,2,1500,1990,47.6,-122.3', '2 A ST,SEATTLE,WA,98101,multi,3,2,1500,1990,47.6,-122.3'].join('\n') + '\n',
      'permits.csv': ['address,zip,issue_date,permit_type,valuation,lat,lng',
        '1 A ST,98101,2024-01-05,Renovation,1000,47.6,-122.3', '2 A ST,98101,2024-01-05,REMODEL,1000,47.6,-122.3'].join('\n') + '\n',
      'distress.csv': ['address,city,state,zip,kind,filing_date',
        '1 A ST,SEATTLE,WA,98101,Tax_Delinquent,2024-01-05', '2 A ST,SEATTLE,WA,98101,tax_delinquent,2024-01-05'].join('\n') + '\n',
    }));
    try {
      expect(await ctx.rows(`select regexp_extract(file, '[^/]+$') as file, line::int as line, rule, detail from meta.repairs order by file, line`)).toEqual([
        { file: 'distress.csv', line: 2, rule: 'lower_cased', detail: 'kind=Tax_Delinquent -> tax_delinquent' },
        { file: 'parcels.csv', line: 2, rule: 'lower_cased', detail: 'property_type=Multi -> multi' },
        { file: 'permits.csv', line: 2, rule: 'lower_cased', detail: 'permit_type=Renovation -> renovation' },
      ]);
      expect((await rejectsOf(ctx)).map(({ line, rule, column, value }) => [line, rule, column, value])).toEqual([[3, 'not_in_list', 'permit_type', 'REMODEL']]);
      expect(await ctx.rows(`select property_type, count(*)::int as n from parcels group by all`)).toEqual([{ property_type: 'multi', n: 2 }]);
      expect(await ctx.rows(`select permit_type from permits`)).toEqual([{ permit_type: 'renovation' }]);
      expect(await ctx.rows(`select kind, count(*)::int as n from distress group by all`)).toEqual([{ kind: 'tax_delinquent', n: 2 }]);
    } finally { ctx.close(); }
  });

  test('a state in lower or mixed case is the same respelling: read in upper case with an upper_cased repair, in each file that has one', async () => {
    const { ctx } = await load(canonicalSources({
      'sales.csv': [HEADER, sale({ address: '1 A ST', state: 'wa' }), sale({ address: '2 A ST', state: 'Wa' }), sale({ address: '3 A ST' })].join('\n') + '\n',
      'parcels.csv': ['address,city,state,zip,property_type,beds,baths,sqft,year_built,lat,lng',
        '1 A ST,SEATTLE,wa,98101,sfr,3,2,1500,1990,47.6,-122.3'].join('\n') + '\n',
      'distress.csv': ['address,city,state,zip,kind,filing_date', '1 A ST,SEATTLE,wA,98101,tax_delinquent,2024-01-05'].join('\n') + '\n',
    }));
    try {
      expect(await ctx.rows(`select regexp_extract(file, '[^/]+$') as file, line::int as line, rule, detail from meta.repairs order by file, line`)).toEqual([
        { file: 'distress.csv', line: 2, rule: 'upper_cased', detail: 'state=wA -> WA' },
        { file: 'parcels.csv', line: 2, rule: 'upper_cased', detail: 'state=wa -> WA' },
        { file: 'sales.csv', line: 2, rule: 'upper_cased', detail: 'state=wa -> WA' },
        { file: 'sales.csv', line: 3, rule: 'upper_cased', detail: 'state=Wa -> WA' },
      ]);
      expect(await rejectsOf(ctx)).toEqual([]);
      expect(await ctx.rows(`select state_code, count(*)::int as n from sales group by all`)).toEqual([{ state_code: 'WA', n: 3 }]);
      expect(await ctx.rows(`select state_code from parcels where source = 'canonical' group by all`)).toEqual([{ state_code: 'WA' }]);
      expect(await ctx.rows(`select state_code from distress`)).toEqual([{ state_code: 'WA' }]);
    } finally { ctx.close(); }
  });
});
