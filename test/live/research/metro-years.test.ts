// Years compared of a metro area ("Seattle metro median price 2014 vs 2015"; live/research/metro.ts): each year's sales
// of the covered counties and the change of the median between them, the count's change only for whole years (before:
// the first year alone). Over the shared real build; every figure is recomputed from the raw King County sales file
// (King County is the Seattle metro's one covered county: metro.test.ts proves it from the OMB delineation).
import { describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const ask = async (query: string) => (await new ResearchEngine(researchData(), null, PINNED_TODAY).answer({ query, depth: 'quick' })).answer;
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const pct = (a: number, b: number): string => { const x = Math.round((b / a - 1) * 1000) / 10; return `${x > 0 ? '+' : ''}${x}%`; };

describe('a metro area asked years compared', () => {
  it('"Seattle metro median price 2014 vs 2015": both years of the raw King County file and the median\'s change; no count change (part years)', async () => {
    const rows = await rawQuery<{ y: string; n: number; m: number; a: string; b: string }>(`
      with r as (select price::double as p, strptime(left(date, 8), '%Y%m%d')::date as d
                 from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))
      select year(d)::varchar as y, count(*)::int as n, median(p) as m, cast(min(d) as varchar) as a, cast(max(d) as varchar) as b from r group by 1 order by 1`);
    const [y14, y15] = [rows.find((r) => r.y === '2014')!, rows.find((r) => r.y === '2015')!];
    for (const q of ['Seattle metro median price 2014 vs 2015', 'median sale price in the Seattle metro, 2015 and 2014']) {
      const a = await ask(q);
      expect(a, q).toContain(`there were ${y14.n.toLocaleString('en-US')} arm's-length single-family sales, dated ${y14.a} to ${y14.b}, at a median sale price of ${usd(y14.m)}`);
      // the months of 2015 after the file's last sale are said (review 24: metro.ts metroGap)
      // and the file's last month, where its last sale is before the month's end, said in part (session 25)
      const lastDay = new Date(Date.UTC(2015, Number(y15.b.slice(5, 7)), 0)).getUTCDate();
      const part = Number(y15.b.slice(8, 10)) < lastDay ? y15.b.slice(0, 7) : null;
      expect(a, q).toContain(`in 2015 (the source files cover none of ${y15.b.slice(0, 4)}-${String(Number(y15.b.slice(5, 7)) + 1).padStart(2, '0')} to 2015-12, inside 2015${part ? `, and ${part} in part only` : ''}, so these sales fall in the ${Number(y15.b.slice(5, 7))} months of it they cover${part ? ` (${part} in part)` : ''}: King County WA house sales 2014-2015 covers 2014-05 to ${y15.b.slice(0, 7)}) there were ${y15.n.toLocaleString('en-US')} arm's-length single-family sales, dated ${y15.a} to ${y15.b}, at a median sale price of ${usd(y15.m)}`);
      expect(a, q).toContain(`from 2014 to 2015 the median sale price went from ${usd(y14.m)} to ${usd(y15.m)} (${pct(y14.m, y15.m)}) (no change of the count is given: the sales of 2014 run ${y14.a} to ${y14.b} and 2015 run ${y15.a} to ${y15.b})`);
    }
  });
});
