// The comps an estimate says it used are those it weighted: a comp cut as an outlier (no weight) is not counted (it
// is listed, kept false, since the confidence tier measured it: confidence-basis.test.ts), and `as_of` is the newest of the comps used (spec: "comparable sales used", "most recent comparable sale
// date used"). Over the shared real build; the NYC subject and its one comp are checked against the raw rolling-sales
// file (review 2: "745 East 6th Street Apt 3D", 10009, said "15 comps, medium" on one sale in its building).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValuationEngine, type ValuationBody } from '../../../live/valuation/endpoint.ts';
import { buildDir } from '../../helpers/build.ts';
import { REPO } from '../../helpers/paths.ts';

let engine: ValuationEngine;
const value = (req: Record<string, unknown>): ValuationBody => {
  const a = engine.answer(req as unknown as Parameters<ValuationEngine['answer']>[0]);
  expect(a.ok, JSON.stringify(a)).toBe(true);
  return (a as { body: ValuationBody }).body;
};

/** The raw NYC rows of a building (address starting with `street`, in `zip`), from every rolling-sales file. */
function rawNycBuilding(street: string, zip: string): { address: string; price: number; date: string }[] {
  const dir = path.join(REPO, '..', 'shared', 'data', 'nyc-rolling-sales');
  const out: { address: string; price: number; date: string }[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.csv.gz'))) {
    const lines = zlib.gunzipSync(fs.readFileSync(path.join(dir, file))).toString('utf8').split('\n');
    const h = lines[0]!.split(',').map((c) => c.replace(/"/g, '').trim());
    const col = (name: string): number => h.indexOf(name);
    for (const l of lines.slice(1)) {
      if (!l.includes(street)) continue;
      const f = l.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((x) => x.replace(/,$/, '').replace(/^"|"$/g, '').trim());
      if (f[col('ZIP CODE')] !== zip || !f[col('ADDRESS')]!.startsWith(street)) continue;
      out.push({ address: f[col('ADDRESS')]!, price: Number(f[col('SALE PRICE')]!.replace(/[$,]/g, '')), date: f[col('SALE DATE')]!.slice(0, 10) });
    }
  }
  return out;
}

beforeAll(() => {
  engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
});

describe('the comps used', () => {
  it('an NYC unit is not valued (review 5): its row carries the building\'s gross area, and NYC records no unit sizes', () => {
    // review 2 valued it from the one sale in its building; the raw row's GROSS SQUARE FEET (18,254) is the 28-unit
    // building's, so no NYC unit has a size of its own: 404 (warehouse/docs/valuation.md "Units")
    const raw = rawNycBuilding('745 EAST 6TH', '10009').filter((r) => r.price > 10_000);
    expect(raw.length).toBeGreaterThanOrEqual(1);
    const a = engine.answer({ zip: '10009', address: '745 East 6th Street Apt 3D' });
    expect(a).toMatchObject({ ok: false, code: 'no_data' });
    expect((a as { message: string }).message).toContain('Condo and co-op units cannot be valued in zip 10009');
  });

  it('any subject: every comp used (kept) has weight, the count is theirs, the weights add to 1, as_of is the newest', () => {
    for (const req of [{ zip: '10009', address: '631 East 6th Street' }, { zip: '95758', address: '7129 Springmont Drive' }, { zip: '98103', address: '1 Unknown Way', sqft: 1500 }, { zip: '19147', address: '900 Unknown St', sqft: 1200 }]) {
      const b = value(req);
      const used = b.comps.filter((c) => c.kept);
      expect(b.comp_count, JSON.stringify(req)).toBe(used.length);
      expect(used.every((c) => c.weight > 0)).toBe(true);
      expect(b.comps.filter((c) => !c.kept).every((c) => c.weight === 0)).toBe(true);
      expect(used.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 2);
      expect(b.as_of).toBe(used.map((c) => c.sale_date).sort().at(-1));
    }
  });
});
