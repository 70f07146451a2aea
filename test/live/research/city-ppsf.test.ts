// A city whose sales carry no zip (Denver) answers price per sqft from its trends shard: the latest month its sources
// cover whole with 20 or more sales (the shard's `complete`), never a file's partial last month. Figures are read
// from the build's own trends shard, never hard-coded.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { readShard } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

// the stored shard keeps its series by column (the API answers it by month)
interface Trends { series: { month: string[]; sales_count: (number | null)[]; median_price_per_sqft: (number | null)[]; complete: boolean[] } }
interface Month { month: string; sales_count: number | null; median_price_per_sqft: number | null; complete: boolean }
const byMonth = (t: Trends): Month[] => t.series.month.map((month, i) => ({ month, sales_count: t.series.sales_count[i]!, median_price_per_sqft: t.series.median_price_per_sqft[i]!, complete: t.series.complete[i]! }));

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });

describe('city-wide price per sqft', () => {
  it('Denver: the latest complete month of 20+ sales, not the partial month a file ends in', async () => {
    for (const [q, type] of [['price per square foot in Denver', 'sfr'], ['Denver condo price per sqft', 'condo']] as const) {
      const series = byMonth(readShard<Trends>(`market/trends/city/CO/denver/${type}.json`));
      const solid = series.filter((m) => m.complete && (m.sales_count ?? 0) >= 20 && m.median_price_per_sqft !== null).at(-1)!;
      const last = series.filter((m) => m.median_price_per_sqft !== null).at(-1)!;
      expect(last.complete, `${type}: the build's last month with a figure is partial`).toBe(false);
      const r = await engine.answer({ query: q, depth: 'quick' });
      const dollars = `$${Math.round(solid.median_price_per_sqft!).toLocaleString('en-US')} per sqft in ${solid.month} (${solid.sales_count!.toLocaleString('en-US')} sales)`;
      expect(r.answer, q).toContain(dollars);
      expect(r.answer, q).not.toContain(`in ${last.month} (`);
    }
  });
});
