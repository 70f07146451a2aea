// A city no sales record names, whose zips hold sales, is no "No sales source covers" city (review 21: a canonical NYC
// file names every sale's city "New York", and trends?city=Staten Island answered "this build has no sales records
// there" beside 1,913 arm's-length sales in its zip 10314). The same holds at the real build for Census places inside
// a records city: Florin, CA (a CDP; the geo lookup gives it zips 95823 and 95828) has no row of that city in the
// Sacramento file, whose 106 sales in those zips all name SACRAMENTO. Over the shared real build, a real server on port 0.
import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveSharedBuild, warehouseRows } from '../helpers/build.ts';
import { REPO } from '../helpers/paths.ts';

const api = serveSharedBuild('pro', 100_000);
const raw = zlib.gunzipSync(fs.readFileSync(path.join(REPO, '..', 'shared', 'data', 'sacramento-real-estate-transactions', 'sacramento_transactions.csv.gz')))
  .toString('utf8').trim().split('\n').slice(1).map((l) => l.split(','));

describe('a city whose sales are filed under another city name', () => {
  it('the raw file: no sale names Florin; its zips 95823 and 95828 hold 106 rows, all named SACRAMENTO', () => {
    expect(raw.filter((r) => r[1]!.toUpperCase() === 'FLORIN')).toHaveLength(0);
    const inZips = raw.filter((r) => r[2] === '95823' || r[2] === '95828');
    expect(inZips).toHaveLength(106);
    expect(new Set(inZips.map((r) => r[1]))).toEqual(new Set(['SACRAMENTO']));
  });

  for (const p of ['/v1/market/trends?city=Florin&state=CA', '/v1/market/investor-overview?city=Florin&state=CA']) {
    it(`${p}: a 404 naming the zips with sales and their arm's-length count, not "no sales records there"`, async () => {
      const [row] = await warehouseRows<{ n95823: number; n95828: number }>(`select
        count(*) filter (where zip = '95823')::int as n95823, count(*) filter (where zip = '95828')::int as n95828
        from sales where is_arms_length`);
      const { n95823, n95828 } = row!;
      expect(n95823! + n95828!).toBeGreaterThan(0);
      const res = await api.get(p);
      expect(res.status).toBe(404);
      const { message } = await res.json() as { message: string };
      expect(message).not.toMatch(/No sales source covers|no sales records there|No investor data/);
      expect(message).toContain('No sales record of this build names the city Florin, CA');
      expect(message).toContain(`2 of its 2 zips (the geo lookup's) hold ${n95823! + n95828!} arm's-length sales filed under another city name (95823, 95828)`);
      expect(message).toContain('zip=95823');
    });
  }

  it('a city of no sales and no zip with sales keeps its 404 (Mount Shasta, CA has no sale)', async () => {
    const res = await api.get('/v1/market/trends?city=Mount%20Shasta&state=CA');
    expect(res.status).toBe(404);
    expect((await res.json() as { message: string }).message).toMatch(/^No sales source covers Mount Shasta, CA/);
  });
});
