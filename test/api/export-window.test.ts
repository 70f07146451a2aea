// The export's window_start is the answer's coverage.window_start (the window's first day, inclusive): the comps,
// investor and rehab files carried the marts' exclusive bound, the day before (19146 sfr 12 months: 2021-12-02 in
// comps.csv, 2021-12-03 in the answer; Denver investor 12 months: 2018-07-09 against 2018-07-10).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { buildDir } from '../helpers/build.ts';

type Row = Record<string, string>;
const csv = (name: string): Row[] => parse(fs.readFileSync(path.join(buildDir(), 'export', `${name}.csv`)), { columns: true, skip_empty_lines: true }) as Row[];
/** The served answer of a shard path (the API serves these files), or null when the build wrote none. */
const answer = (rel: string): { coverage?: { window_start: string; window_days: number } } | null => {
  const f = path.join(buildDir(), 'shards', 'market', rel);
  return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null;
};

describe('export window_start equals the answer\'s coverage.window_start', () => {
  const check = (rows: Row[], rel: (r: Row) => string, step: number): string[] => {
    const bad: string[] = [];
    let seen = 0;
    rows.forEach((r, i) => {
      if (i % step !== 0) return;
      const cov = answer(rel(r))?.coverage;
      if (!cov) return;
      seen += 1;
      if (r['window_start'] !== cov.window_start || Number(r['window_days']) !== cov.window_days) bad.push(`${rel(r)}: ${r['window_start']} vs ${cov.window_start}`);
    });
    expect(seen).toBeGreaterThan(100);
    return bad;
  };

  test('the reviewer\'s rows: 19146 sfr 12 months and Denver investor 12 months', () => {
    const comps = csv('comps').find((r) => r['zip'] === '19146' && r['property_type'] === 'sfr' && r['months'] === '12')!;
    expect([comps['window_start'], comps['window_end'], comps['window_days']]).toEqual(['2021-12-03', '2022-12-02', '365']);
    const inv = csv('investor').find((r) => r['state_code'] === 'CO' && r['city_slug'] === 'denver' && r['months'] === '12')!;
    expect([inv['window_start'], inv['window_days']]).toEqual(['2018-07-10', '365']);
    expect(answer('investor/CO/denver/12.json')?.coverage?.window_start).toBe('2018-07-10');
  });

  test('every investor row, every rehab row and every 20th comps row agree with their answer', () => {
    expect(check(csv('investor'), (r) => `investor/${r['state_code']}/${r['city_slug']}/${r['months']}.json`, 1)).toEqual([]);
    expect(check(csv('rehab'), (r) => `rehab/${r['zip']}/${r['months']}.json`, 1)).toEqual([]);
    // each measure's own window too (permits_window, sales_window: null in the answer, empty in the file, without its kind)
    const kinds = csv('rehab').flatMap((r) => {
      const a = answer(`rehab/${r['zip']}/${r['months']}.json`) as { permits_window?: { window_start: string } | null; sales_window?: { window_start: string } | null } | null;
      if (!a) return [];
      return [[r['permits_window_start'], a.permits_window?.window_start ?? ''], [r['sales_window_start'], a.sales_window?.window_start ?? '']]
        .filter(([got, want]) => got !== want).map(([got, want]) => `rehab/${r['zip']}/${r['months']}: ${got} vs ${want}`);
    });
    expect(kinds).toEqual([]);
    expect(check(csv('comps'), (r) => `comps/${r['zip']}/${r['property_type']}-${r['months']}.json`, 20)).toEqual([]);
  });
});
