// A price trend asked of a county (POST /v1/research/query): its zips' changes side by side, as a city's comps are; a
// New York City borough's county ("Kings County") is the borough. Over the shared real build: the zips named must be
// the county's (the Census ZCTA x county file the research index reads) and their figures must be what the same
// question asked of that zip answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

let data: ResearchData;
let engine: ResearchEngine;
const ask = async (query: string) => (await engine.answer({ query, depth: 'quick' })).answer;

beforeAll(() => {
  data = researchData();
  engine = new ResearchEngine(data, null, PINNED_TODAY);
});

describe('a price trend asked of a county', () => {
  it('King County: the changes of its zips, the highest zip\'s own figure as its own question answers it', async () => {
    const a = await ask('home price trend in King County');
    const m = /^Across (\d+) zips of King County, WA with a single-family price change over the (\d+) months to (?:each zip's own end \(its latest data, \d{4}-\d{2} to )?(\d{4}-\d{2})\)?, the changes run from ([+-][\d.]+%) \(zip (\d{5})\) to ([+-][\d.]+%) \(zip (\d{5})\)/.exec(a);
    expect(m, a).not.toBeNull();
    const [, n, months, , low, lowZip, high, highZip] = m!;
    const county = new Set(data.zipsOfCounty('53033'));
    expect(county.has(lowZip!) && county.has(highZip!)).toBe(true);
    // a 13-month source: most zips have no 12-month change, so the 3-month one is the window said
    expect(Number(n)).toBeGreaterThanOrEqual(10);
    for (const [zip, fig] of [[highZip!, high!], [lowZip!, low!]]) {
      expect(await ask(`how have home prices changed in ${zip} over the last ${months} months`)).toContain(`changed ${fig} over the ${months} months`);
    }
  });

  it('a median price asked of a county: its zips\' latest solid months, the highest zip named', async () => {
    const a = await ask('median home price in King County WA');
    // each zip's figure said as what it is: its latest complete month of 20, or its last months pooled (price-level.ts)
    expect(a).toMatch(/^In King County, WA, \d+ zips have a median of 20 or more single-family sales, for \d+ of their latest complete month of 20, for \d+ of their last months pooled \(no recent complete month of 20\); the medians run from \$[\d,]+ \(zip 98\d{3}\) to \$[\d,]+ \(zip 98\d{3}\)/);
  });

  it('Sacramento County: its zips\' pooled figures said as pooled, then listed by zip, never one zip\'s paragraph after the range', async () => {
    // the raw file (5 days of May 2008: no month is whole): residential sales of $10,000 or more, a sale listed twice once,
    // per zip of Sacramento County (06067: the HUD crosswalk's county with most of the zip's addresses), 20 or more sales
    const rows = await rawQuery<{ zip: string; n: number; m: number; city: string }>(`
      with x as (select ZIP as zip, COUNTY as county, row_number() over (partition by ZIP order by TOT_RATIO::double desc) as k
                 from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true)),
           s as (select distinct upper(street) as street, zip, sale_date_iso as d, price::double as p
                 from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
                 where "type" = 'Residential' and price::double >= 10000)
      select s.zip, count(*)::int as n, median(p) as m from s join x on x.zip = s.zip and x.k = 1 and x.county = '06067'
      group by s.zip having count(*) >= 20 order by m desc`);
    expect(rows.length).toBeGreaterThan(6);
    const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
    const [hi, lo] = [rows[0]!, rows.at(-1)!];
    const a = await ask('median price in Sacramento County');
    expect(a).toMatch(new RegExp(`^In Sacramento County, CA, ${rows.length} zips had 20 or more single-family sales in their last months pooled \\(none has a recent complete month of 20\\); their median sale prices run from \\${usd(lo.m)} \\(zip ${lo.zip}\\) to \\${usd(hi.m)} \\(zip ${hi.zip}\\)`));
    const listed = rows.slice(0, 6).map((r) => `zip ${r.zip} \\([A-Za-z ]+\\) \\${usd(r.m)} \\(${r.n} sales\\)`).join('; ');
    expect(a).toMatch(new RegExp(`By zip, highest first \\(each zip's own figure; no figure is kept for Sacramento County, CA as a whole\\): ${listed}; and ${rows.length - 6} other zips`));
    // before: "In zip 95757, no complete month of the last 3 has 20 ... (the latest month with a median was 2008-05: ...)"
    expect(a).not.toMatch(/complete month of 20 or more single-family sales;|In zip \d{5}, no complete month|the latest month with a median was/);
  });

  it('Kings County, NY is Brooklyn: the same answer as the borough asked by name', async () => {
    const byCounty = await ask('how are prices changing in Kings County NY');
    expect(byCounty).toMatch(/^In Brooklyn, NY, /);
    expect(byCounty).toBe(await ask('how are prices changing in Brooklyn NY'));
  });
});
