// market.json's `years`: every market's arm's-length sales of each calendar year by property type, counted and with their
// median sale price (market-tagged.ts: the markets of the windows, a zip, a city, a New York City borough, a
// neighbourhood, a state). A year asked ("median price in Seattle in 2014") is answered with the median of all of the
// year's sales together (year-facts.ts), where before only the monthly medians were kept and the answer said so.
// A median needs 5 or more sales (market.md "Minimum cohort"), as every other median of the build.
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import type { YearFigures } from './market-window.ts';
import { taggedSales } from './market-tagged.ts';
import { WINDOW_MIN_SALES } from './market-window.ts';

/** `<market key>|<type>` -> year -> [arm's-length sales, their median sale price (null under 5 sales)]. */
export async function yearMedians(db: StageContext['db']): Promise<YearFigures> {
  if (!(await tableExists(db, 'sales'))) return {};
  const tagged = await taggedSales(db, ['zip', 'state_code', 'slug(city) as city_slug', 'property_type', 'sale_date', 'sale_price']);
  const rows = await queryRows<{ k: string; t: string; y: number; n: number; med: number | null }>(db, `
    with ${tagged}
    select k, property_type as t, cast(year(sale_date) as integer) as y, cast(count(*) as integer) as n,
           case when count(*) >= ${WINDOW_MIN_SALES} then median(sale_price) end as med
    from tagged where property_type is not null and sale_date is not null and sale_price is not null
    group by all order by 1, 2, 3`);
  const out: YearFigures = {};
  for (const r of rows) (out[`${r.k}|${r.t}`] ??= {})[String(r.y)] = [r.n, r.med === null ? null : Number(r.med)];
  return out;
}
