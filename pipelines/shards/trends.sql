-- requires: market_monthly, mart_trends, mart_market_direction, mart_market_source
-- GET /v1/market/trends?zip= | city=&state=, property_type= : one shard per market (zip, or state + city) and
-- property type holding the market's 60 months (market_monthly; `series` by column: one list of 60 per field, the
-- oldest month first) and its summary (mart_trends). The route
-- (api/market-trends.ts) keeps the last `months` of them and rebases the index to the first of those with a value
-- (`level`, `se`: the log level and its standard error, warehouse/price-index.ts); it never recomputes a figure.
-- direction_30d and direction_30d_pct are null, with direction_30d_note (additive) saying why, for a market whose
-- records could show no rehab event at all (mart_market_direction.direction_note): no permit, no resale, no
-- renovation year; 0 against 0 from no source is no "flat". `sources` (the market's sales sources) lets the route say
-- when they are a partial extract (api/market-trends.ts dataNote), and `source_files` (their files and months) which of
-- a source's caveats apply to the market (a caveat of one file: live/research/partial.ts caveatWords), and `source_types`
-- (the property types those sources record any sale of, anywhere) whether they record the type at all
-- (api/trends-type-note.ts: Denver's land months are empty for want of any land record, not thin); summary.change_note says why a change is withheld for
-- comparing two subtype mixes (warehouse/price-mix.ts). source (additive, last; the route keeps it last): the market's
-- sales source as the manifest names it (mart_market_source, by the zip, or the state and city slug; market.md "The
-- source of a market answer"), absent where no sales source records a sale there.
with series as (
    select market_kind, zip, state_code, city_slug, property_type,
           {
               month: list(month_label order by month_no),
               sales_count: list(cast(sales_count as integer) order by month_no),
               median_price: list(round_to(median_price, 0) order by month_no),
               median_price_per_sqft: list(round_to(median_price_per_sqft, 2) order by month_no),
               median_days_on_market: list(round_to(median_days_on_market, 1) order by month_no),
               investor_purchase_share_pct: list(round_to(investor_purchase_share_pct, 1) order by month_no),
               index_sample_count: list(cast(index_sample_count as integer) order by month_no),
               confidence: list(confidence order by month_no),
               complete: list(complete order by month_no),
               covered: list(covered order by month_no),
               untyped_count: list(cast(untyped_count as integer) order by month_no),
               level: list(round_to(index_level, 6) order by month_no),
               se: list(round_to(index_se, 6) order by month_no)
           } as series
    from market_monthly group by all
)
select
    t.zip,
    case when t.market_kind = 'city' then t.state_code end as state,
    case when t.market_kind = 'city' then t.city end as city,
    t.property_type,
    json_with(cast(to_json({
        zip_code: t.zip,
        city: t.city,
        state: t.state,
        property_type: t.property_type,
        method: t.index_method,
        pair_count: cast(t.pair_count as integer),
        as_of: strftime(t.as_of, '%Y-%m-%d'),
        series: m.series,
        sources: t.sources,
        source_files: t.source_files,
        source_types: t.source_types,
        summary: {
            change_3m_pct: round_to(t.change_3m_pct, 1),
            change_12m_pct: round_to(t.change_12m_pct, 1),
            change_24m_pct: round_to(t.change_24m_pct, 1),
            change_end_month: t.change_end_month,
            direction_30d: case when d.direction_note is null then t.direction_30d end,
            direction_30d_pct: case when d.direction_note is null then round_to(t.direction_30d_pct, 1) end,
            direction_30d_end: strftime(t.direction_30d_end, '%Y-%m-%d'),
            direction_30d_measure: 'rehab_events',
            direction_30d_note: d.direction_note,
            change_note: t.change_note
        }
    }) as varchar), 'source', ms.source) as body
from mart_trends t
join series m on m.market_kind = t.market_kind and m.zip is not distinct from t.zip and m.state_code is not distinct from t.state_code
 and m.city_slug is not distinct from t.city_slug and m.property_type = t.property_type
left join mart_market_direction d on d.market_kind = t.market_kind and d.zip is not distinct from t.zip
 and d.state_code is not distinct from t.state_code and d.city_slug is not distinct from t.city_slug
left join mart_market_source ms on ms.market_key = case when t.zip is not null then 'zip|' || t.zip else 'city|' || upper(t.state) || '|' || slug(t.city) end
where t.market_kind = 'zip' or t.city <> ''
order by t.market_kind, t.zip, t.state_code, t.city_slug, t.property_type;
