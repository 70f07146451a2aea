// A canonical deed file keyed by parcel (README "Canonical format"): sales.csv rows that give a parcel_id but no
// address, city, state or zip take each from the parcels.csv row of their parcel (30_market_39 + 40); a sale whose
// parcel parcels.csv does not list is rejected `unknown_parcel`, counted, never dropped in silence; and parcels.csv
// reads a beds or baths of 0 as unknown by the same rule as sales.csv (canonical_zero_is_unknown). The rows are
// Denver's raw deeds of the parcels 1611* (281 deeds, 279 parcels; five of them, 16110007000 the first, have BED_RMS 0 on a 2,000 sqft house), written
// by test/helpers/canonical-denver.ts as an operator would, through the real canonical steps.
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { load } from '../helpers/canonical-sources.ts';
import { writeDenverCanonical } from '../helpers/canonical-denver.ts';
import type { TestContext } from '../helpers/context.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';

afterAll(removeTmpDirs);
const opened: TestContext[] = [];
afterEach(() => { while (opened.length) opened.pop()!.close(); });

const BLOCK = `like '1611%'`;
async function loaded(o: Parameters<typeof writeDenverCanonical>[1]): Promise<TestContext> {
  const dir = tmp('reii-canon-parcel-');
  await writeDenverCanonical(dir, o);
  const { ctx } = await load(dir);
  opened.push(ctx);
  return ctx;
}

describe('parcels.csv reads a beds or baths of 0 as unknown, by the rule sales.csv reads them by', () => {
  test('the five BED_RMS 0 parcels: null beds in parcels, each a nulled_zero_is_unknown repair; the sale rows too', async () => {
    const ctx = await loaded({ keyed: 'address', schednum: BLOCK, parcels: true });
    expect(await ctx.rows(`select parcel_id, beds, baths from parcels where parcel_id in ('16110007000', '16110008000', '16110009000') order by 1`)).toEqual([
      { parcel_id: '16110007000', beds: null, baths: 2.5 },
      { parcel_id: '16110008000', beds: null, baths: 2.5 },
      { parcel_id: '16110009000', beds: 3, baths: 2.5 },
    ]);
    expect(await ctx.rows(`select regexp_extract(file, '[^/]+$') as file, rule, detail, count(*)::int as n from meta.repairs group by all order by 1`)).toEqual([
      { file: 'parcels.csv', rule: 'nulled_zero_is_unknown', detail: 'beds=0 -> null', n: 5 },
      { file: 'sales.csv', rule: 'nulled_zero_is_unknown', detail: 'beds=0 -> null', n: 5 },
    ]);
    expect(await ctx.rows(`select count(*)::int as n from parcels where beds = 0 or baths = 0`)).toEqual([{ n: 0 }]);
  });
});
