// The confidence tier can be checked from the answer alone (review of h18: 98028 0114101516 listed 14 comps of
// dispersion 0.118 and said high; 10469 3641 LACONIA AVENUE 12 comps of dispersion 0.037 and said medium: the tier's
// dispersion is measured over the top 15 before the outlier trim, and the trimmed comps were not shown). Every comp
// the tier measured is listed (a trimmed one kept false, weight 0), and confidence_basis gives the measures: here they
// are recomputed from comps[] by warehouse/docs/valuation.md "Confidence", and the tier from them by its rule. The
// listed NYC comps are real sales of the raw rolling-sales files (their price and date).
import { describe, expect, it } from 'vitest';
import { schemaErrors } from '../../helpers/server.ts';
import { serveSharedBuild } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import type { ValuationBody } from '../../../live/valuation/endpoint.ts';

const api = serveSharedBuild('pro');
const MONTH_DAYS = 30.4375;
const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b), m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };
/** valuation.md: the first value, in value order, where the running weight reaches half the total. */
function weightedMedian(v: number[], w: number[]): number {
  const idx = v.map((_, i) => i).sort((a, b) => v[a]! - v[b]!);
  const half = w.reduce((a, b) => a + b, 0) / 2;
  let acc = 0;
  for (const i of idx) { acc += w[i]!; if (acc >= half) return v[i]!; }
  return v[idx.at(-1)!]!;
}

/** The measures and tier by the doc's rule from an answer's comps[] and valuation_date. */
function tierFromComps(b: ValuationBody, mode: string): { tier: string; n: number; eff: number; disp: number; age: number; dist: number | null } {
  const all = b.comps, kept = all.filter((c) => c.kept);
  const logs = all.map((c) => Math.log(c.adjusted_price)), w = all.map((c) => c.weight_before_trim);
  const mid = weightedMedian(logs, w);
  const disp = weightedMedian(logs.map((v) => Math.abs(v - mid)), w);
  const eff = 1 / kept.reduce((s, c) => s + c.weight ** 2, 0);
  const age = median(kept.map((c) => (day(b.confidence_basis.valuation_date) - day(c.sale_date)) / MONTH_DAYS));
  const d = kept.map((c) => c.distance_km).filter((x): x is number => x !== null);
  const dist = d.length ? median(d) : null;
  const n = kept.length;
  let tier = 'low';
  if (mode === 'request') tier = n >= 8 && disp <= 0.12 && age <= 9 ? 'medium' : 'low';
  else if (mode === 'record') {
    if (n >= 10 && eff >= 4 && disp <= 0.08 && age <= 9 && (dist === null || dist <= 1.5)) tier = 'high';
    else if (n >= 5 && disp <= 0.16 && age <= 15) tier = 'medium';
  }
  return { tier, n, eff, disp, age, dist };
}

const post = async (req: Record<string, unknown>): Promise<ValuationBody> => {
  const res = await api.post('/v1/valuation/estimate', req);
  expect(res.status, JSON.stringify(req)).toBe(200);
  return (await res.json()) as ValuationBody;
};

describe('confidence_basis: the tier from the comps the answer lists', () => {
  it('the two answers of the review: the trimmed comps are listed and the tier follows from comps[]', async () => {
    for (const [req, tier] of [[{ zip: '98028', address: '0114101516' }, 'high'], [{ zip: '10469', address: '3641 LACONIA AVENUE' }, 'medium']] as const) {
      const b = await post(req);
      expect(schemaErrors('ValuationEstimate', b)).toEqual([]);
      expect(b.comps.some((c) => !c.kept), JSON.stringify(req)).toBe(true); // an outlier was trimmed
      const got = tierFromComps(b, b.subject.mode);
      expect(got.tier, JSON.stringify(req)).toBe(tier);
      expect(b.confidence_basis.tier).toBe(tier);
      // the kept comps alone would have read another dispersion: the trimmed ones are part of what the tier measured
      expect(b.comp_count).toBe(got.n);
    }
  });

  it('any subject: confidence_basis is what comps[] gives by the rule; trimmed comps have no weight', async () => {
    const reqs = [
      { zip: '98028', address: '0114101516' }, { zip: '10469', address: '3641 LACONIA AVENUE' }, { zip: '10009', address: '235 E 7th St' },
      { zip: '95758', address: '7129 Springmont Drive' }, { zip: '98103', address: '1 Unknown Way', sqft: 1500 }, { zip: '19147', address: '900 Unknown St', sqft: 1200 },
      { zip: '98103', address: '1 Unknown Way' }, { zip: '19146', address: '2251 League St' },
    ];
    for (const req of reqs) {
      const b = await post(req), k = JSON.stringify(req), cb = b.confidence_basis;
      const got = tierFromComps(b, b.subject.mode);
      expect(cb.tier, k).toBe(got.tier);
      expect(cb.comps, k).toBe(got.n);
      expect(cb.dispersion, k).toBeCloseTo(got.disp, 3);
      expect(cb.effective_comps / got.eff, k).toBeCloseTo(1, 4);
      expect(cb.median_age_months, k).toBeCloseTo(got.age, 3);
      if (got.dist === null) expect(cb.median_distance_km, k).toBeNull(); else expect(cb.median_distance_km!, k).toBeCloseTo(got.dist, 2);
      expect(b.comps.filter((c) => !c.kept).every((c) => c.weight === 0), k).toBe(true);
      expect(b.comps.reduce((s, c) => s + c.weight_before_trim, 0), k).toBeCloseTo(1, 6);
      expect(b.as_of, k).toBe(b.comps.filter((c) => c.kept).map((c) => c.sale_date).sort().at(-1));
    }
  });

  it('the comps listed for 3641 LACONIA AVENUE, trimmed ones included, are sales of the raw NYC files', async () => {
    const b = await post({ zip: '10469', address: '3641 LACONIA AVENUE' });
    const raw = await rawQuery<{ d: string; p: string }>(`select "SALE DATE"::varchar d, "SALE PRICE"::varchar p
      from read_csv('${dataFile('nyc-rolling-sales/*.csv.gz')}', all_varchar = true) where "ZIP CODE" = '10469'`);
    const sales = new Set(raw.map((r) => `${r.d.slice(0, 10)}|${Number(r.p.replace(/[$,]/g, ''))}`));
    expect(b.comps.length).toBe(15);
    for (const c of b.comps) expect(sales.has(`${c.sale_date}|${c.price}`), `${c.address} ${c.sale_date} ${c.price}`).toBe(true);
  });
});
