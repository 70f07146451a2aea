// The covered days of an investor-overview window for a city of one sales file (Philadelphia's OPA roll, Denver's
// deeds), from the RAW file (warehouse/docs/market.md "Coverage of a window", "Thin extracts"): the file's span is its
// first and last arm's-length sale, cut to its solid months (from its first to its last month holding at least a
// quarter of its busiest month's arm's-length sales); a window's covered days are the span's days inside it. And the
// window's confidence count (mart_investor `confidence`: the sales for value whose buyer name is known). Arm's-length
// sales are RAW_MARKET_SALES' (oracle-raw-comps.ts, portfolio deeds out) for Philadelphia, DENVER_DEEDS' `arms` for Denver.
import { PHILADELPHIA_DATE, PHILADELPHIA_ROWS, RAW_MARKET_SALES, rawQuery } from './oracle-raw-comps.ts';
import { DENVER_DEEDS } from './oracle-denver.ts';

export type OneFileCity = 'philadelphia' | 'denver';
export interface Span { first: string; last: string }

/** The file's arm's-length span cut to its solid months. */
export async function solidSpan(src: OneFileCity): Promise<Span> {
  const arms = src === 'philadelphia' ? `${RAW_MARKET_SALES}, a as (select d from market where src = 'philadelphia' and not portfolio)`
    : `${DENVER_DEEDS()}, a as (select d from deeds where arms)`;
  const [r] = await rawQuery<Span>(`${arms},
    mo as (select date_trunc('month', d) as m, count(*) as n from a group by 1),
    solid as (select min(m) as lo, max(m) + interval 1 month - interval 1 day as hi from mo where n >= 0.25 * (select max(n) from mo))
    select greatest((select min(d) from a), (select lo from solid))::date::varchar as first,
           least((select max(d) from a), (select hi from solid))::date::varchar as last`);
  return r!;
}

/** The sales for value with a known buyer in each window of `months` to `asOf`: Philadelphia's OPA sales of $10,000 or
 *  more naming an owner (owner_1 + owner_2), Denver's deeds for value naming a grantee. */
export async function knownBuyerSales(src: OneFileCity, asOf: string, months: number[]): Promise<Map<number, number>> {
  const m = `m(months) as (values ${months.map((n) => `(${n})`).join(', ')})`;
  const rows = src === 'philadelphia'
    ? await rawQuery<{ months: number; n: number }>(`with ${m}, v as (select ${PHILADELPHIA_DATE} as d from ${PHILADELPHIA_ROWS}
        where try_cast(sale_price as double) >= 10000 and nullif(trim(concat_ws(' ', nullif(trim(owner_1), ''), nullif(trim(owner_2), ''))), '') is not null)
        select m.months, count(*)::int as n from v, m where d > date '${asOf}' - to_months(m.months) and d <= date '${asOf}' group by m.months`)
    : await rawQuery<{ months: number; n: number }>(`${DENVER_DEEDS()}, ${m}
        select m.months, count(*)::int as n from deeds, m where forvalue and buyer is not null and d > date '${asOf}' - to_months(m.months) and d <= date '${asOf}' group by m.months`);
  return new Map(rows.map((r) => [r.months, r.n]));
}
