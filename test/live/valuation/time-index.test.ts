// The valuation's monthly index reads no level from a partial or survivor-biased month (review 11 #1): Philadelphia's
// OPA extract ends on 12 December 2022, and that month's few sales read 12% under November, so every comp was carried
// 10-12% down and Philadelphia's estimates sat at 0.86 of their sale prices. Oracle: the RAW OPA file, read here with
// csv-parse (sale dates and prices as recorded), not the warehouse or the comp files under test.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValuationEngine, type ValuationBody } from '../../../live/valuation/endpoint.ts';
import { indexedMonths } from '../../../live/valuation/fit.ts';
import { buildDir } from '../../helpers/build.ts';
import { REPO } from '../../helpers/paths.ts';

interface RawParcel { location: string; zip_code: string; sale_date: string; sale_price: string; category_code_description: string }
const monthNo = (date: string): number => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

describe('the valuation time index: no level from a partial month (real build, raw OPA oracle)', () => {
  let raw: RawParcel[];
  let sold: RawParcel[];
  beforeAll(() => {
    const file = path.join(REPO, '..', 'shared', 'data', 'philadelphia-opa-properties-sample', 'opa_properties_public_sample.csv.gz');
    raw = parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true, skip_empty_lines: true, bom: true }) as RawParcel[];
    sold = raw.filter((r) => r.category_code_description.trim() === 'SINGLE FAMILY' && Number(r.sale_price) >= 50_000 && /^\d{4}-\d\d-\d\d/.test(r.sale_date));
  });

  it('the raw file\'s last month is partial, and only the full months around it get their own level', () => {
    const months = sold.map((r) => monthNo(r.sale_date));
    const last = Math.max(...months);
    const count = (m: number): number => months.filter((x) => x === m).length;
    expect(last).toBe(monthNo('2022-12-01'));
    expect(count(last)).toBeLessThan(count(last - 1) / 2); // December to the 12th against a whole November
    const levelled = indexedMonths(months, months);
    expect(levelled).not.toContain(last);
    expect(levelled).toEqual(expect.arrayContaining([monthNo('2022-09-01'), monthNo('2022-10-01'), monthNo('2022-11-01')]));
    // the survivor-biased months before the roll's coverage starts (August 2022 and earlier) get none either
    expect(levelled.every((m) => m >= monthNo('2022-09-01'))).toBe(true);
    // a back-test's training slice cut on 10 November: the source covers November whole, so its sales to the 10th
    // keep their level (every one of them is recorded: no extract's tail)
    const cut = sold.filter((r) => r.sale_date < '2022-11-10').map((r) => monthNo(r.sale_date));
    expect(cut.filter((m) => m === monthNo('2022-11-01')).length).toBeGreaterThanOrEqual(20);
    expect(indexedMonths(cut, months)).toContain(monthNo('2022-11-01'));
  });

  it('Philadelphia\'s estimates of its autumn 2022 single-family sales sit near their prices, not 12% under', () => {
    const engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
    const ratios: number[] = [];
    const autumn = sold.filter((r) => r.sale_date >= '2022-10-01' && r.sale_date < '2022-12-01');
    for (const r of autumn.slice(0, 400)) {
      const a = engine.answer({ zip: r.zip_code.trim().slice(0, 5), address: r.location, condition: 'good' });
      if (!a.ok) continue;
      const body = (a as { body: ValuationBody }).body;
      if (!body.subject.matched) continue;
      ratios.push(body.estimated_value / Number(r.sale_price));
    }
    expect(ratios.length).toBeGreaterThanOrEqual(60);
    const mid = ratios.toSorted((a, b) => a - b)[ratios.length >> 1]!;
    expect(mid).toBeGreaterThan(0.93); // 0.86 while December's level was read
    expect(mid).toBeLessThan(1.07);
  });
});
