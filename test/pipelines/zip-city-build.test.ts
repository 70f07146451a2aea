// The real build: a King County sale (the source records only a zip) counts in a city market only through a zip that
// city's geo lookup lists (warehouse/docs/market.md "City from zip"). Review: Seattle's trends and research counted
// 98148, 98155, 98166, 98168, 98188 and 98198, mailed as Seattle but lying in Burien, SeaTac, Des Moines, Shoreline,
// Tukwila and their neighbours, which /v1/geo/lookup?city=Seattle&state=WA leaves out: April 2015 read 941 sales at a
// median $485,000, against 794 at $520,000 over the lookup's own zips. The oracle reads the served lookup shards and
// the raw King County file.
import { describe, expect, test } from 'vitest';
import { readShard, warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

const lookupZips = (slug: string): string[] => readShard<{ zip_codes: string[] }>(`geo/lookup/WA/${slug}.json`).zip_codes;

describe('King County city markets hold only zips their geo lookup lists', () => {
  test('every King County city market: the zips of its sales are zips of its geo lookup', async () => {
    const rows = await warehouseRows<{ city_slug: string; zips: string[] }>(`
      select slug(city) as city_slug, list_sort(list(distinct zip)) as zips from sales
      where source = 'king_county' and city is not null group by 1 order by 1`);
    expect(rows.length).toBeGreaterThan(20);
    const off = rows.flatMap((r) => { const listed = new Set(lookupZips(r.city_slug)); return r.zips.filter((z) => !listed.has(z)).map((z) => `${r.city_slug} ${z}`); });
    expect(off).toEqual([]);
  });

  test('the six zips mailed as Seattle that Seattle\'s lookup leaves out count in the city their land lies in', async () => {
    const seattle = new Set(lookupZips('seattle'));
    const six = ['98148', '98155', '98166', '98168', '98188', '98198'];
    expect(six.filter((z) => seattle.has(z))).toEqual([]);
    const rows = await warehouseRows<{ zip: string; city: string }>(`
      select distinct zip, city from sales where source = 'king_county' and zip in (${six.map((z) => `'${z}'`).join(', ')}) order by zip`);
    expect(rows).toEqual([
      { zip: '98148', city: 'Burien' }, { zip: '98155', city: 'Shoreline' }, { zip: '98166', city: 'Burien' },
      { zip: '98168', city: 'Tukwila' }, { zip: '98188', city: 'Tukwila' }, { zip: '98198', city: 'Des Moines' },
    ]);
    for (const r of rows) expect(lookupZips(r.city.toLowerCase().replaceAll(' ', '-'))).toContain(r.zip);
  });

  test('Seattle, April 2015: the served trends month equals the raw file\'s sales in the zips of Seattle\'s lookup (794 at $520,000)', async () => {
    const zips = lookupZips('seattle').map((z) => `'${z}'`).join(', ');
    const [raw] = await rawQuery<{ n: number; median: number }>(`
      select count(*)::int as n, median(price::double) as median
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
      where date like '201504%' and zipcode in (${zips})`);
    expect(raw).toEqual({ n: 794, median: 520000 });
    const trends = readShard<{ series: { month: string[]; sales_count: (number | null)[]; median_price: (number | null)[] } }>('market/trends/city/WA/seattle/sfr.json');
    const i = trends.series.month.indexOf('2015-04');
    expect({ n: trends.series.sales_count[i], median: trends.series.median_price[i] }).toEqual(raw);
  });
});
