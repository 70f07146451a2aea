// Sales readings a reviewer flagged (h61sales), over the shared real build on the suite's pinned day, each figure
// recomputed by the research oracle's own SQL over the canonical tables (the arm's-length rule of market.md, never the
// build's flags) or from the raw files of ../shared/data: (F11) a Connecticut town's condo count over months of the
// 2022 file, which has no residential subtype, was "0".
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';

const answer = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await answer(query)).answer;
/** The 2022 file (listyear 2021, recorded 2022-01..2022-09): no Residential Type column. */
const FILE_2022 = '%real_estate_sales_2022-01_2022-09_listyear2021%';

/** A Connecticut town's arm's-length records of the 2022 file counted as single-family (all residential types), in the
 *  12 months to its last arm's-length sale, and its condo sales there (all from the other file). A sale recorded in both
 *  files (same address, day and price) is typed by the other file's copy, so it is not one of the 2022 file's alone. */
async function townWindow(town: string): Promise<{ asOf: string; file: number; condos: number }> {
  const w = await windowSalesOracle({ state: 'CT', city: town }, 'condo', 12);
  const [r] = await sql<{ file: number }>(`select count(*)::int as file from oracle_arms a where a.state_code = 'CT' and lower(a.city) = lower($town)
    and a.file like '${FILE_2022}' and a.property_type = 'sfr' and a.sale_date > $end::date - interval 12 month and a.sale_date <= $end::date
    and not exists (select 1 from sales s where s.source = a.source and s.file <> a.file and s.address = a.address and s.sale_date = a.sale_date and s.sale_price = a.sale_price)`, { town, end: w.asOf });
  return { asOf: w.asOf, file: r!.file, condos: w.n };
}

describe('F11: a Connecticut town\'s condos over months of the 2022 file are never "0"', () => {
  it('condo sales in Guilford CT: the file\'s residential records said, no count of 0', async () => {
    const g = await townWindow('Guilford');
    expect(g.condos).toBe(0); // no condo of the typed file in the window
    expect(g.file).toBeGreaterThan(0);
    // the town's condos, no count asked: no month of 5 condo sales, and the file's records are said to hold them
    expect(await ask('condo sales in Guilford CT')).toContain(`but ${g.file.toLocaleString('en-US')} residential sales of 2022-01 to 2022-09 come from Connecticut's 2022 sales file, which does not tell condo sales from single-family homes`);
    // a count asked: before, "Guilford, CT had 0 arm's-length condo sales in the 12 months to 2022-09-30"
    const a = await ask('how many condo sales in Guilford CT');
    expect(a).not.toMatch(/\b0 arm's-length condo sales/);
    expect(a).toContain('this is not a count of 0');
    expect(a).toContain(`what it records is ${g.file.toLocaleString('en-US')} arm's-length residential sales of all types together`);
  });
  it('a town with condos of the typed file too: the count says it is short of the 2022 file\'s', async () => {
    const s = await townWindow('Stamford');
    expect(s.file).toBeGreaterThan(0);
    const a = await ask('how many condo sales in Stamford CT');
    expect(a).toContain(`besides these, ${s.file.toLocaleString('en-US')} arm's-length residential sales of 2022-01 to 2022-09 come from Connecticut's 2022 sales file`);
    expect(a).toContain('so this figure is short of them');
  });
});
