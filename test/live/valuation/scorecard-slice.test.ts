// The scorecard says both the test slice's size and how many of its sales were valued (review item 8: `test_sales`
// counts the sales valued, Sacramento 288, not the slice, 292). The slice is counted from the RAW Sacramento file:
// its sales on or after the test split day with a price and a living area. Over the build through a real server.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { loadSettings } from '../../../warehouse/settings.ts';

const file = path.join(loadSettings({}).sources, 'sacramento-real-estate-transactions', 'sacramento_transactions.csv.gz');
const raw = parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true }) as Record<string, string>[];

let server: TestServer;
beforeAll(async () => { server = await startTestServer(artifactsDir()); });
afterAll(async () => { await server.close(); });

describe('scorecard sources[]', () => {
  it('Sacramento: test_slice_sales is the raw sales of the test slice; test_sales those valued, no more', async () => {
    const res = await server.get('/v1/valuation/scorecard', server.key('builder'));
    expect(res.status).toBe(200);
    const card = await res.json() as { sources: { source: string; test_start: string; test_sales: number; test_slice_sales: number }[] };
    const sac = card.sources.find((s) => s.source === 'sacramento')!;
    const slice = raw.filter((r) => r['sale_date_iso']! >= sac.test_start && Number(r['sq__ft']) > 0 && Number(r['price']) > 0
      && ['Residential', 'Condo', 'Multi-Family'].includes(r['type']!));
    expect(sac.test_slice_sales).toBe(slice.length);
    expect(sac.test_sales).toBeLessThanOrEqual(sac.test_slice_sales);
  });
});
