// A canonical deed file keyed by parcel (README "Canonical format"): sales.csv rows that give a parcel_id but no
// address, city, state or zip take each from the parcels.csv row of their parcel (30_market_39 + 40); a sale whose
// parcel parcels.csv does not list is rejected `unknown_parcel`, counted, never dropped in silence; and parcels.csv
// reads a beds or baths of 0 as unknown by the same rule as sales.csv (canonical_zero_is_unknown). The rows are
// Denver's raw deeds of the parcels 1611* (281 deeds, 279 parcels; five of them, 16110007000 the first, have BED_RMS 0 on a 2,000 sqft house), written
// by test/helpers/canonical-denver.ts as an operator would, through the real canonical steps.
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { load } from '../helpers/canonical-sources.ts';
import { writeDenverCanonical } from '../helpers/canonical-denver.ts';
import { checkRejectShare } from '../../pipelines/sources/rejects.ts';
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
const SALES = `select * exclude (sale_id, file) from sales where source = 'canonical' order by line`;

describe('a deed file keyed by parcel loads, each sale placed by its parcel in parcels.csv', () => {
  test('every deed lands, the same sales rows as the address-keyed file of the same deeds', async () => {
    const byParcel = await loaded({ keyed: 'parcel', schednum: BLOCK });
    const byAddress = await loaded({ keyed: 'address', schednum: BLOCK, parcels: true });
    const sales = await byParcel.rows(SALES);
    expect(sales).toHaveLength(281);
    expect(sales).toEqual(await byAddress.rows(SALES));
    expect(await byParcel.rows(`select address, city, state_code, zip from sales where parcel_id = '16110007000'`))
      .toEqual([{ address: 'PARCEL 16110007000', city: 'Denver', state_code: 'CO', zip: '80202' }]);
    expect(await byParcel.rows(`select count(*)::int as n from meta.rejects`)).toEqual([{ n: 0 }]);
    await checkRejectShare(byParcel); // passes: no file over the share
  });

  test('a sale whose parcel parcels.csv does not list is rejected unknown_parcel, one reject per deed, naming the parcel', async () => {
    const ctx = await loaded({ keyed: 'parcel', schednum: BLOCK, unlisted: `in ('16110001000', '16110002000')` });
    expect(await ctx.rows(`select line::int as line, rule, column_name, value from meta.rejects order by line`)).toEqual([
      { line: expect.any(Number), rule: 'unknown_parcel', column_name: 'parcel_id', value: '16110001000' },
      { line: expect.any(Number), rule: 'unknown_parcel', column_name: 'parcel_id', value: '16110002000' },
    ]);
    expect(await ctx.rows(`select count(*)::int as n from sales`)).toEqual([{ n: 279 }]);
    expect(await ctx.rows(`select rule, count(*)::int as n, bool_and(breaks_contract) as contract from meta.rejects group by all`))
      .toEqual([{ rule: 'unknown_parcel', n: 2, contract: true }]);
  });

  test('the gate names the columns neither file gives, and the unlisted parcels as the reason', async () => {
    // the 29 deeds of the parcels 16111*: 10.3% of the file's 281 rows, over the 5% the gate allows
    const ctx = await loaded({ keyed: 'parcel', schednum: BLOCK, unlisted: `like '16111%'` });
    const err = await checkRejectShare(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('10.3% of its rows were rejected (29 of 281)');
    expect((err as Error).message).toContain('top reasons: unknown_parcel (parcel_id) 29 (their parcel_id is not in parcels.csv); required columns left empty: address 29, city 29, state 29, zip 29 (');
  });

  test('without parcels.csv every sale keyed by parcel alone is rejected unknown_parcel, and the gate names its empty place', async () => {
    const dir = tmp('reii-canon-parcel-');
    await writeDenverCanonical(dir, { keyed: 'parcel', schednum: `like '16110%'` });
    const fs = await import('node:fs');
    fs.rmSync(`${dir}/canonical/parcels.csv`);
    const { ctx } = await load(dir);
    opened.push(ctx);
    const err = await checkRejectShare(ctx).catch((e: unknown) => e);
    expect((err as Error).message).toContain('100% of its rows were rejected (11 of 11)');
    // the message says the file is absent (review 15), not only that the parcels are unlisted
    expect((err as Error).message).toContain("top reasons: unknown_parcel (parcel_id) 11 (there is no parcels.csv in canonical/: a sale that leaves its place empty takes it from its parcel_id's parcels.csv row); required columns left empty: address 11, city 11, state 11, zip 11 (");
  });
});

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
