// Review 24 D: a comparison with a year back ("compared with last year", "last 6 months vs a year ago") is answered or
// the answer says why it cannot: before, "Bronx home prices compared with last year" and "NYC condo prices last 6
// months vs a year ago" gave one figure and no comparison, unsaid that 2023-02 (a year before the data's last month)
// is in no NYC rolling-sales file. Figures: the research oracle's own SQL over the raw files; the gap: the raw files'
// own months.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';

const asked = askWithSalesOracle();
const ask = async (q: string): Promise<string> => (await asked(q)).answer;
const money = (v: number): string => `$${Math.round(v).toLocaleString('en-US')}`;

describe('review 24 D: a year back asked beside a window median', () => {
  it('the NYC files skip 2022-04..2023-02, so the 12-month change to 2024-02 has no start: said after the figure', async () => {
    const files = fs.readdirSync('../shared/data/nyc-rolling-sales').filter((f) => /^nyc_rolling_sales_/.test(f)).map((f) => /(\d{4}-\d{2})_(\d{4}-\d{2})/.exec(f)!.slice(1).join('..')).sort();
    expect(files).toEqual(['2021-04..2022-03', '2023-03..2024-02']);
    const a = await ask('Bronx home prices compared with last year');
    expect(a).toMatch(/^In the Bronx, NY, the median of the [\d,]+ arm's-length single-family sales in the 12 months to 2024-02-29 was \$[\d,]+; there is no 12-month/);
    expect(a).toContain('; there is no 12-month index change: 2023-02 is not covered by the source files (the source files cover 2021-04 to 2022-03 and 2023-03 to 2024-02');
    // the window asked stays 6 months; the change asked is the year's, not the window's
    const nyc = await ask('NYC condo prices last 6 months vs a year ago');
    expect(nyc).toMatch(/the median of the [\d,]+ arm's-length condo sales in the 6 months to 2024-02-29 was \$[\d,]+/);
    expect(nyc).toContain('there is no 12-month index change: 2023-02 is not covered by the source files');
    expect(nyc).not.toMatch(/changed [-+]?\d+(\.\d)?% over the 6 months/);
  });

  it('Seattle: the data starts 2014-05, so no 12-month change, said', async () => {
    const w = await windowSalesOracle({ state: 'WA', city: 'Seattle' }, 'sfr', 12);
    const a = await ask('Seattle home prices compared with last year');
    expect(a).toContain(`the median of the ${w.n.toLocaleString('en-US')} arm's-length single-family sales in the 12 months to ${w.asOf.slice(0, 10)} was ${money(w.median!)}; there is no 12-month`);
    expect(a).toContain('there is no 12-month index change: the data does not reach back that far (its first sales are in 2014-05)');
  });
});
