// GET /v1/market/trends (review h18 F5): every null change_*_pct is explained in change_note. Seattle 98103's
// change_3m_pct is null because January 2015, the month it compares with April 2015, holds fewer than 20 sales, and the
// note named only the 12- and 24-month nulls (api/trends-change-note.ts). The count is our own SQL over the raw King
// County file; then every trends shard of the build, for months 3, 12, 24 and 60: no null change left unsaid.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildDir, serveSharedBuild } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { trendsBody, type StoredTrends } from '../../api/market-trends.ts';

const api = serveSharedBuild('builder', 100_000);

describe('change_note explains every null change', () => {
  test('98103, months=3: change_3m_pct is null and the note says January 2015 has too few sales', async () => {
    const [raw] = await rawQuery<{ n: number }>(`select count(*)::int as n
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
      where zipcode = '98103' and left(date, 6) = '201501'`);
    expect(raw!.n).toBeLessThan(20);
    const res = await api.get('/v1/market/trends?zip=98103&months=3');
    expect(res.status).toBe(200);
    const s = ((await res.json()) as { summary: Record<string, unknown> }).summary;
    expect(s).toMatchObject({ change_end_month: '2015-04', change_3m_pct: null });
    expect(s['change_note']).toContain(`change_3m_pct is null: 2015-01, the month it compares with 2015-04, has ${raw!.n} sales in its index sample, fewer than the 20 a change needs at each end`);
  });

  test('every trends shard, every window: a null change is named in change_note', () => {
    const root = path.join(buildDir(), 'shards', 'market', 'trends');
    const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(100);
    const unsaid: string[] = [];
    for (const f of files) {
      const stored = JSON.parse(fs.readFileSync(path.join(root, f), 'utf8')) as StoredTrends;
      for (const months of [3, 12, 24, 60]) {
        const { summary } = trendsBody(stored, months) as { summary: Record<string, unknown> };
        const note = String(summary['change_note'] ?? '');
        for (const back of [3, 12, 24]) if (summary[`change_${back}m_pct`] === null && !note.includes(`change_${back}m_pct`)) unsaid.push(`${f} months=${months} ${back}m`);
      }
    }
    expect(unsaid.slice(0, 10), `${unsaid.length} unexplained`).toEqual([]);
  });
});
