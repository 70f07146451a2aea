// A canonical value written in another form than the format's whose reading is unambiguous is read so, the row kept,
// and a meta.repairs row says so (review 25 #2, #3): "295,000" and "$295,000" were rejected not_a_number (776 of the
// reviewer's Connecticut sales), while "2023-9-5", a ZIP+4 and a sqft of 0 were read silently. The sources stage and
// the canonical format steps run for real over hand-written files (the header is line 1); each expected value is
// the file's own text read by hand.
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, rejectsOf, sale } from '../helpers/canonical-sources.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';

afterAll(removeTmpDirs);

const repairs = 'select line::int as line, rule, detail from meta.repairs where file like $f order by line, detail';

describe('an unambiguous other form is read and logged, never silent', () => {
  test('sales.csv: thousands separators and a dollar sign, a date without zeros, a ZIP+4, a sqft of 0', async () => {
    const lines = [HEADER,
      sale({ address: '1 A ST', sale_price: '"295,000"' }),                     // 2 number_unformatted
      sale({ address: '2 A ST', sale_price: '"$1,250,000.50"', sqft: '"1,400"' }), // 3 two of them
      sale({ address: '3 A ST', sale_price: '$310000' }),                       // 4 a dollar sign alone
      sale({ address: '4 A ST', sale_date: '2023-9-5' }),                       // 5 date_zero_padded
      sale({ address: '5 A ST', zip: '98101-1234' }),                           // 6 zip_plus4_dropped
      sale({ address: '6 A ST', sqft: '0' }),                                   // 7 nulled_zero_is_unknown, as beds 0
      sale({ address: '7 A ST', sale_price: '"1,5"' }),                         // 8 no groups of three: not a number
      sale({ address: '8 A ST', sale_price: '295000' }),                        // 9 the format's own: no repair
    ];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      expect((await rejectsOf(ctx)).map(({ line, rule, column, value }) => [line, rule, column, value])).toEqual([[8, 'not_a_number', 'sale_price', '1,5']]);
      expect(await ctx.rows(repairs, { f: '%sales.csv' })).toEqual([
        { line: 2, rule: 'number_unformatted', detail: 'sale_price=295,000 -> 295000' },
        { line: 3, rule: 'number_unformatted', detail: 'sale_price=$1,250,000.50 -> 1250000.50' },
        { line: 3, rule: 'number_unformatted', detail: 'sqft=1,400 -> 1400' },
        { line: 4, rule: 'number_unformatted', detail: 'sale_price=$310000 -> 310000' },
        { line: 5, rule: 'date_zero_padded', detail: 'sale_date=2023-9-5 -> 2023-09-05' },
        { line: 6, rule: 'zip_plus4_dropped', detail: 'zip=98101-1234 -> 98101' },
        { line: 7, rule: 'nulled_zero_is_unknown', detail: 'sqft=0 -> null' },
      ]);
      expect(await ctx.rows(`select line::int as line, sale_price, sqft, sale_date::varchar as sale_date, zip from sales order by line`)).toEqual([
        { line: 2, sale_price: 295000, sqft: 1500, sale_date: '2024-01-05', zip: '98101' },
        { line: 3, sale_price: 1250000.5, sqft: 1400, sale_date: '2024-01-05', zip: '98101' },
        { line: 4, sale_price: 310000, sqft: 1500, sale_date: '2024-01-05', zip: '98101' },
        { line: 5, sale_price: 500000, sqft: 1500, sale_date: '2023-09-05', zip: '98101' },
        { line: 6, sale_price: 500000, sqft: 1500, sale_date: '2024-01-05', zip: '98101' },
        { line: 7, sale_price: 500000, sqft: null, sale_date: '2024-01-05', zip: '98101' },
        { line: 9, sale_price: 295000, sqft: 1500, sale_date: '2024-01-05', zip: '98101' },
      ]);
    } finally { ctx.close(); }
  });

  test('parcels.csv, permits.csv and distress.csv: the same rules', async () => {
    const { ctx } = await load(canonicalSources({
      'parcels.csv': 'address,city,state,zip,property_type,beds,baths,sqft,year_built,lat,lng\n'
        + '1 A ST,SEATTLE,WA,98101-1234,sfr,3,2,"1,400",1990,,\n1 B ST,SEATTLE,WA,98101,sfr,3,2,0,1990,,\n',
      'permits.csv': 'address,zip,issue_date,permit_type,valuation,lat,lng\n1 A ST,98101,2024-1-5,renovation,"$12,500",,\n',
      'distress.csv': 'address,city,state,zip,kind,filing_date,amount\n1 A ST,SEATTLE,WA,98101,pre_foreclosure,2024-01-05,"1,200"\n',
    }));
    try {
      expect(await rejectsOf(ctx)).toEqual([]);
      expect(await ctx.rows(repairs, { f: '%parcels.csv' })).toEqual([
        { line: 2, rule: 'number_unformatted', detail: 'sqft=1,400 -> 1400' }, { line: 2, rule: 'zip_plus4_dropped', detail: 'zip=98101-1234 -> 98101' },
        { line: 3, rule: 'nulled_zero_is_unknown', detail: 'sqft=0 -> null' }]);
      expect(await ctx.rows(repairs, { f: '%permits.csv' })).toEqual([
        { line: 2, rule: 'date_zero_padded', detail: 'issue_date=2024-1-5 -> 2024-01-05' }, { line: 2, rule: 'number_unformatted', detail: 'valuation=$12,500 -> 12500' }]);
      expect(await ctx.rows(repairs, { f: '%distress.csv' })).toEqual([{ line: 2, rule: 'number_unformatted', detail: 'amount=1,200 -> 1200' }]);
      expect(await ctx.rows(`select line::int as line, sqft, zip from parcels order by line`)).toEqual([{ line: 2, sqft: 1400, zip: '98101' }, { line: 3, sqft: null, zip: '98101' }]);
      expect(await ctx.rows(`select valuation, issue_date::varchar as d from permits`)).toEqual([{ valuation: 12500, d: '2024-01-05' }]);
      expect(await ctx.rows(`select amount from distress`)).toEqual([{ amount: 1200 }]);
    } finally { ctx.close(); }
  });
});
