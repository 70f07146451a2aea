// Review 6 #7: NYC's GROSS SQUARE FEET is the building's (SOURCE.md), so a sale of one apartment of a building of
// several units carries no living area of its own and is no price-per-sqft comp (valuation.md "Units"). Before, 228
// WEST 17TH STREET, 4B (a 15-unit walk-up, $425,000 for the building's 7,790 sqft) was the top comp of zip 10011. The
// oracle reads the raw NYC rolling sales files; the comps are the build's comps-nyc.arrow.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, buildDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { REPO } from '../../helpers/paths.ts';
import { addressKey, normalizeAddress } from '../../../warehouse/address.ts';
import { readCompSet } from '../../../live/valuation/comp-arrow.ts';

const RAW = path.join(REPO, '..', 'shared', 'data', 'nyc-rolling-sales');
const num = (s: string | undefined): number => Number(String(s ?? '').replace(/,/g, '').trim());

/** zip|address key|date|price of every raw sale of one unit (an apartment number) in a building of 2+ units with a
 *  gross area: the area is the building's. */
function unitSalesWithBuildingArea(): Set<string> {
  const out = new Set<string>();
  for (const f of fs.readdirSync(RAW).filter((n) => n.endsWith('.csv.gz'))) {
    const rows = parse(zlib.gunzipSync(fs.readFileSync(path.join(RAW, f))), { columns: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
    for (const r of rows) {
      const units = Math.max(num(r['RESIDENTIAL UNITS']) || 0, num(r['TOTAL UNITS']) || 0);
      if (!(units > 1 && num(r['GROSS SQUARE FEET']) > 0 && num(r['SALE PRICE']) > 0)) continue;
      const [street, after] = (r['ADDRESS'] ?? '').split(',');
      // a billing lot's apartment column names its part ("RESI") where the street names the apartment ("16C"); a garage
      // after the street of a house or rental building ("18 CRANBERRY STREET, GAR") is no apartment (market.md, NYC)
      const apt = (r['APARTMENT NUMBER'] ?? '').trim(), part = (after ?? '').trim();
      const garage = /^(01|02|03|07|08|14) /.test(r['BUILDING CLASS CATEGORY'] ?? '') && /^(GAR|GARAGE|GARAG|GARGE|GRG|PKG|PKNG|PAKNG|PARKING)$/i.test(part);
      const unit = (/\d/.test(part) && !/\d/.test(apt) ? part : '') || apt || (garage ? '' : part) || normalizeAddress(street ?? '').unit;
      if (!unit) continue;
      out.add(`${(r['ZIP CODE'] ?? '').trim()}|${addressKey(normalizeAddress(street ?? '').street, unit.toUpperCase())}|${(r['SALE DATE'] ?? '').slice(0, 10)}|${num(r['SALE PRICE'])}`);
    }
  }
  return out;
}

describe('an NYC apartment priced against its whole building is no comp', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(artifactsDir()); });
  afterAll(async () => { await server.close(); });

  it('no comp of comps-nyc.arrow is a raw unit sale carrying its building\'s gross area', () => {
    const raw = unitSalesWithBuildingArea();
    expect(raw.size).toBeGreaterThan(100);
    expect([...raw].some((k) => k.startsWith('10011|228 WEST 17TH ST #4B|2024-01-19|425000'))).toBe(true);
    const d = readCompSet(path.join(buildDir(), 'live', 'valuation', 'comps-nyc.arrow'));
    const iso = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);
    const hits = d.key.map((k, i) => `${d.zips[d.zip[i]!]}|${k}|${iso(d.day[i]!)}|${d.price[i]}`).filter((k) => raw.has(k));
    expect(hits).toEqual([]);
  });

  it('zip 10011\'s typical house is valued without 228 W 17th St #4B', async () => {
    const key = server.key('pro', 1000);
    const res = await fetch(`${server.url}/v1/valuation/estimate`, { method: 'POST', headers: { 'X-Service-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ zip: '10011', address: '123 Imaginary Ave' }) });
    expect(res.status).toBe(200);
    const body = await res.json() as { comps: { address: string; sqft: number; price: number }[] };
    expect(body.comps.map((c) => c.address)).not.toContain('228 WEST 17TH ST #4B');
  });
});
