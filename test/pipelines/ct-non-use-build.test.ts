// F8: Connecticut's "Non Use Code" (SOURCE.md: "code marking non-arm's-length sales (e.g. "14 - Foreclosure", ...)"), over
// the shared real build (REII_TEST_ARTIFACTS) against the raw GL extract: every sale the file marks with a code, 14
// (foreclosure) and 18 (in lieu of foreclosure) included, is flagged and in no figure; the codes 01-03 (family, love and
// affection, inter-corporation) as related parties, any other as non-use code, unless its price is nominal first.
import { describe, expect, test } from 'vitest';
import { warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

const GL = dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz');

describe("F8: Connecticut's non-use codes", () => {
  test('each coded sale of the raw file is flagged, by code, and none is arm\'s-length', async () => {
    // the raw rows with a code and a usable date and price, per code number ("14 - Foreclosure" and a bare "14" alike)
    const raw = await rawQuery<{ code: number; n: number }>(`
      select try_cast(regexp_extract(trim("Non Use Code"), '^([0-9]+)', 1) as integer) as code, count(*)::int as n
      from read_csv('${GL}', all_varchar = true)
      where nullif(trim("Non Use Code"), '') is not null and try_strptime(trim("Date Recorded"), '%m/%d/%Y') is not null
        and try_cast(replace("Sale Amount", ',', '') as double) >= 0
      group by 1 order by 1`);
    const built = await warehouseRows<{ code: number; n: number; arms: number; reasons: string[] }>(`
      select try_cast(regexp_extract(non_use_code, '^\\s*([0-9]+)', 1) as integer) as code, count(*)::int as n,
             count(*) filter (where is_arms_length)::int as arms, list(distinct non_arms_length_reason order by non_arms_length_reason) as reasons
      from sales where source = 'connecticut' and non_use_code is not null group by 1 order by 1`);
    // the adapter rejects a row of no known property type: the build holds at most the raw count of each code
    expect(built.map((b) => b.code)).toEqual(raw.map((r) => r.code));
    for (const b of built) {
      expect(b.n, `code ${b.code}`).toBeLessThanOrEqual(raw.find((r) => r.code === b.code)!.n);
      expect(b.arms, `code ${b.code}`).toBe(0);
      expect(b.reasons, `code ${b.code}`).toEqual(b.code <= 3 ? expect.arrayContaining(['related_parties']) : expect.arrayContaining(['non_use_code']));
    }
    const foreclosure = built.find((b) => b.code === 14)!;
    expect([foreclosure.n, raw.find((r) => r.code === 14)!.n]).toEqual([253, 253]);
    expect(foreclosure.reasons).toEqual(['non_use_code']);
  });
});
