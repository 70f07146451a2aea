-- requires: mart_legal_tax_sale
-- legal/tax-sale/<STATE>.json, GET /v1/legal/tax-sale: lien versus deed mechanics, the maximum rate and its basis,
-- the redemption period, the sale process, surplus proceeds, investor actions, citation and uncertainty.
with tax as (
    select * from mart_legal_tax_sale
),
final as (
    select
        state_code as state,
        to_json({
            state: state_code,
            state_name: state_name,
            lien_or_deed: lien_or_deed,
            interest_rate_pct: cast(interest_rate_pct as double),
            rate_basis: rate_basis,
            redemption_period_months: cast(redemption_period_months as double),
            sale_process_summary: sale_process_summary,
            surplus_proceeds: {
                surplus_equity_protected: surplus_equity_protected,
                state_procedure_reviewed: surplus_procedure_reviewed,
                summary: surplus_summary,
                citation: surplus_citation,
            },
            investor_actions: investor_actions,
            source_citation: source_citation,
            source_url: source_url,
            uncertain_fields: uncertain_fields,
            last_reviewed_at: last_reviewed_at,
            disclaimer: disclaimer,
        })::varchar as body,
    from tax
)
select state, body from final order by state;
