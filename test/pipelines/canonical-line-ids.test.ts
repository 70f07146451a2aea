// A canonical row's id names its file line (review 25 #1): sale_ids counted data rows while `line`, meta.rejects and
// meta.repairs count file lines, so the copy at line 2 of a sale recorded twice said `duplicate_of
// canonical:sales.csv:2` (itself, to a reader) for the copy kept at line 3. The canonical format step and the sale
// flags step run for real over a hand-written sales.csv (the header is line 1).
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, sale } from '../helpers/canonical-sources.ts';
import { runSqlFile } from '../helpers/context.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';

afterAll(removeTmpDirs);

describe('canonical ids name the file line', () => {
  test('a sale recorded twice: duplicate_of names the line of the copy kept; sale, permit and filing ids their own lines', async () => {
    const twice = sale({ address: '11 TERHUNE AVE', sale_date: '2022-02-04', sale_price: '130000' });
    const { ctx } = await load(canonicalSources({
      'sales.csv': [HEADER, sale({ address: '1 A ST' }), twice, twice].join('\n') + '\n', // lines 2, 3, 4
      'permits.csv': 'address,zip,issue_date,permit_type,valuation,lat,lng\n1 A ST,98101,2024-01-05,renovation,5000,,\n',
      'distress.csv': 'address,city,state,zip,kind,filing_date\n1 A ST,SEATTLE,WA,98101,pre_foreclosure,2024-01-05\n',
    }));
    try {
      await runSqlFile(ctx, 'pipelines/intermediate/30_market_45_sale_flags.sql');
      // the last line of a copy is kept (30_market_45_sale_flags.sql): line 3 is the copy of line 4
      expect(await ctx.rows(`select sale_id, line::int as line, is_duplicate, duplicate_of from sales order by line`)).toEqual([
        { sale_id: 'canonical:sales.csv:2', line: 2, is_duplicate: false, duplicate_of: null },
        { sale_id: 'canonical:sales.csv:3', line: 3, is_duplicate: true, duplicate_of: 'canonical:sales.csv:4' },
        { sale_id: 'canonical:sales.csv:4', line: 4, is_duplicate: false, duplicate_of: null },
      ]);
      expect(await ctx.rows(`select permit_id, line::int as line from permits`)).toEqual([{ permit_id: 'canonical:permits.csv:2', line: 2 }]);
      expect(await ctx.rows(`select distress_id, line::int as line from distress`)).toEqual([{ distress_id: 'canonical:distress.csv:2', line: 2 }]);
    } finally { ctx.close(); }
  });
});
