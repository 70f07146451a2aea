// Faults of research answers (one describe block each), answered over the shared real build on the suite's pinned
// clock. Figures are recomputed here from the warehouse's canonical tables (test/helpers/oracle-research-market.ts: our
// own arm's-length rule, never the marts, shards or market.json) and the raw source files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { marketSources } from '../../../live/research/build.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { openWarehouse, withConnection } from '../../../warehouse/db.ts';
import { buildDir } from '../../helpers/build.ts';
import { researchData } from '../../helpers/research.ts';
import { closeResearchOracle, openResearchOracle, sql } from '../../helpers/oracle-research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let data: ResearchData;
let engine: ResearchEngine;
const ask = (query: string, depth: 'quick' | 'deep' = 'quick') => engine.answer({ query, depth });
const count = (n: number): string => n.toLocaleString('en-US');

beforeAll(async () => {
  data = researchData();
  // market.json keeps each market's sources in builds since they are said; a shared build made before keeps none: the
  // index step's own query (live/research/build.ts marketSources) over that build's warehouse gives them
  if (!data.market!.sources) {
    const wh = await openWarehouse(path.join(buildDir(), 'warehouse.duckdb'), { readOnly: true });
    try { data.market!.sources = await withConnection(wh, (c) => marketSources(c)); } finally { wh.close(); }
  }
  engine = new ResearchEngine(data, null, PINNED_TODAY);
  await openResearchOracle(buildDir());
});
afterAll(() => closeResearchOracle());

describe('1: a market whose sales are a partial extract of their source says so', () => {
  /** The rows of a raw source file, read here from the file itself. */
  const rawRows = async (glob: string): Promise<number> =>
    (await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile(glob)}', all_varchar = true, header = true)`))[0]!.n;
  const distinctSources = async (st: string, city: string): Promise<string[]> =>
    (await sql<{ source: string }>(`select distinct source from sales where state_code = $st and lower(city) = lower($city) and is_arms_length order by 1`, { st, city })).map((r) => r.source);

  it('knows the partial sources from the build\'s own catalog and each market\'s sales from the sales table', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { sources: { id: string; title: string }[] };
    expect(manifest.sources.find((s) => s.id === 'philadelphia')!.title).toMatch(/\(sample\)$/);
    expect(manifest.sources.find((s) => s.id === 'connecticut')!.title).toMatch(/\(partial\)$/);
    expect(manifest.sources.find((s) => s.id === 'king_county')!.title).not.toMatch(/\((sample|partial)\)/);
    expect([...data.partial.keys()].sort()).toEqual(['connecticut', 'philadelphia']);
    expect(data.partial.get('philadelphia')!.rows).toBe(await rawRows('philadelphia-opa-properties-sample/*.csv.gz'));
    expect(data.partial.get('connecticut')!.rows).toBe(await rawRows('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL*.csv.gz')
      + await rawRows('connecticut-real-estate-sales/real_estate_sales_2022-*.csv.gz'));
    expect(await distinctSources('PA', 'Philadelphia')).toEqual(['philadelphia']);
    expect(await distinctSources('CT', 'Hartford')).toEqual(['connecticut']);
    expect(await distinctSources('WA', 'Seattle')).toEqual(['king_county']);
  });

  it('says it with every sales count, median and ranking of Philadelphia and Hartford, and not of Seattle', async () => {
    const philly = `a partial extract of their source (Philadelphia OPA property assessments, a sample of ${count(data.partial.get('philadelphia')!.rows)} rows), not every recorded sale`;
    const ct = `a partial extract of their source (Connecticut OPM real estate sales, ${count(data.partial.get('connecticut')!.rows)} rows), not every recorded sale`;
    const sold = await ask('how many homes sold in Philadelphia');
    const w = await windowSalesOracle({ state: 'PA', city: 'Philadelphia' }, 'sfr', 12);
    expect(sold.answer).toContain(`${count(w.n)} arm's-length single-family sales in the 12 months to ${w.asOf}`);
    expect(sold.answer).toContain(philly);
    for (const q of ['median home price in Hartford, CT', 'how many homes sold in Hartford CT']) expect((await ask(q)).answer, q).toContain(ct);
    for (const q of ['comps in Philadelphia', 'cheapest zip codes in Philadelphia', 'investor activity in Philadelphia', 'comps in 19103']) {
      const r = await ask(q);
      expect(r.answer, q).toContain(philly);
      expect(r.confidence, q).not.toBe('high');
      expect((await ask(q, 'deep')).answer, q).toContain(philly);
    }
    expect((await ask('which city has the highest investor purchase rate')).answer).toMatch(/Philadelphia, PA [\d.]+% \(12 months to [\d-]+; its sales are a partial extract/);
    expect((await ask('compare home prices in Philadelphia and Seattle')).answer).toMatch(/Philadelphia, PA \$[\d,]+ [^;]*\[partial extract\]; Seattle, WA (?:(?!partial)[^;])*\.$/);
    for (const q of ['how many homes sold in Seattle', 'comps in Seattle', 'cheapest zip codes in Seattle']) expect((await ask(q)).answer, q).not.toMatch(/partial extract/);
  });
});
