// live/research/sales-cover.json as the research build writes it (live/research/sales-cover-build.ts), over the shared
// build's warehouse: every market with a sale record of any kind, flagged ones included (review 18: zip 06779 holds
// only a flagged CT land sale and was taken for a zip no source covers). The records are the raw files'.
import { describe, expect, it } from 'vitest';
import { salesCover } from '../../../live/research/sales-cover-build.ts';
import { connectSharedWarehouse } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { SOURCES } from '../../../pipelines/sources/registry.ts';

const db = connectSharedWarehouse();
// a market's `source` as its shards write it: the registry's title and vintage for the source's id
const named = (id: string) => {
  const s = SOURCES.find((x) => x.id === id)!;
  return { id, name: s.title, vintage: s.vintage };
};

describe('sales-cover.json', () => {
  it('a zip of flagged records only is in it with its source and reasons; a zip of arm\'s-length sales too', async () => {
    const nyc = ['nyc-rolling-sales/nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz'];
    const [raw] = await rawQuery<{ n: number; nominal: number }>(`select count(*)::int as n, count(*) filter (where try_cast(replace("SALE PRICE", ',', '') as double) <= 10000)::int as nominal
      from read_csv([${nyc.map((f) => `'${dataFile(f)}'`).join(', ')}], all_varchar = true) where "ZIP CODE" = '10041'`);
    const [ct] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz')}', all_varchar = true)
      where "Town" = 'Watertown' and "Address" = '0 PULLEN AVE' and "Non Use Code" is not null`);
    const cover = await salesCover(db.conn);
    expect(cover['zip|10041']).toEqual({ sources: ['nyc'], source: named('nyc'), arms_length: 0, flagged: raw!.n, reasons: { nominal_price: raw!.nominal } });
    expect(cover['zip|06779']).toEqual({ sources: ['connecticut'], source: named('connecticut'), arms_length: 0, flagged: ct!.n, reasons: { non_use_code: 1 } });
    expect(cover['zip|98103']!.sources).toEqual(['king_county']);
    expect(cover['zip|98103']!.arms_length).toBeGreaterThan(0);
    expect(cover['city|NY|brooklyn']!.sources).toEqual(['nyc']); // a borough's market, as market.json's
    expect(cover['zip|98103']!.source).toEqual(named('king_county'));
  });

  it('a zip or city with no sale record in a county a source records sales in carries the county\'s sales (review 24 C)', async () => {
    const [kc] = await rawQuery<{ n: number; zips: number; here: number }>(`select count(*)::int as n, count(distinct zipcode)::int as zips,
      count(*) filter (where zipcode = '98288')::int as here from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)`);
    expect(kc!.here).toBe(0);
    const cover = await salesCover(db.conn);
    const county = { county: 'King County', state: 'WA', arms_length: kc!.n, zips: kc!.zips, sources: ['king_county'], source: named('king_county') };
    expect(cover['zip|98288']).toEqual({ sources: [], source: null, arms_length: 0, flagged: 0, reasons: {}, county });
    expect(cover['city|WA|skykomish']!.county).toEqual(county);
    // a zip of a covered city names the city, not the county (zipOfCoveredCity)
    expect(cover['zip|98101']!.county).toBeUndefined();
    expect(cover['zip|98101']!.city!.city).toBe('Seattle');
  });
});
