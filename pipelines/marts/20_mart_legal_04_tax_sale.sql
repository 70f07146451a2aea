-- requires: state_legal, int_legal_state_facts, int_legal_state_text
-- mart_legal_tax_sale: one row per state (50 + DC) with the fields of GET /v1/legal/tax-sale: lien, deed or hybrid;
-- the maximum statutory return and how to read it (rate_basis); the redemption period (null for deed states, as the
-- spec's state summary); the sale process in plain English; surplus proceeds after Tyler v. Hennepin County; actions.
create or replace table mart_legal_tax_sale as
with facts as (
    select
        l.state_code,
        l.state_name,
        l.lien_or_deed,
        l.interest_rate_pct,
        l.rate_basis,
        l.redemption_period_months,
        x.tax_sale_summary,
        x.tax_sale_citation,
        x.tax_sale_source_url,
        coalesce(x.tax_sale_uncertain, []) as tax_sale_uncertain,
        x.surplus_equity_protected,
        x.surplus_procedure_reviewed,
        x.surplus_summary,
        x.surplus_citation,
        t.tax_sentence,
        t.tax_action,
        t.disclaimer,
        l.last_reviewed_at,
    from state_legal l
    join int_legal_state_facts x using (state_code)
    join int_legal_state_text t using (state_code)
),
final as (
    select
        state_code,
        state_name,
        lien_or_deed,
        interest_rate_pct,
        rate_basis,
        redemption_period_months,
        -- the record's own summary states the type, rate, basis and redemption period with its process notes and caveats
        -- (SCHEMA.md: summaries state the actual numbers); the generated sentence only when the record has none
        coalesce(tax_sale_summary, tax_sentence) as sale_process_summary,
        tax_sale_citation as source_citation,
        tax_sale_source_url as source_url,
        surplus_equity_protected,
        surplus_procedure_reviewed,
        surplus_summary,
        surplus_citation,
        list_filter([
            tax_action,
            case when lien_or_deed in ('lien', 'hybrid') and interest_rate_pct is not null then
                'Model yields below the ' || printf('%g', interest_rate_pct) || '% maximum: '
                || case when lower(coalesce(rate_basis, '')) like '%bid down%' then 'bidding drives the rate down at the auction, '
                        when lower(coalesce(rate_basis, '')) like '%penalty%' or lower(coalesce(rate_basis, '')) like '%premium%' then 'it is a penalty or premium paid on redemption, not annual interest, '
                        else '' end
                || 'and an early redemption shortens the holding period.' end,
            case when surplus_procedure_reviewed = false then
                'Check how ' || state_name || ' returns surplus sale proceeds to former owners since Tyler v. Hennepin County (2023); the state procedure has not been reviewed here.' end,
            case when len(tax_sale_uncertain) > 0 then 'Confirm the ' || array_to_string(list_transform(tax_sale_uncertain, u ->
                case u when 'sale_type' then 'lien or deed type' when 'interest_rate_pct' then 'rate' when 'rate_basis' then 'rate basis'
                       when 'redemption_period_months' then 'redemption period' when 'summary' then 'process details'
                       when 'source_citation' then 'citation' else replace(u, '_', ' ') end), ', ')
                || ' with the county tax collector or a local attorney: our sources leave ' || case when len(tax_sale_uncertain) = 1 then 'it' else 'them' end
                || ' unverified or conflicting.' end
        ], a -> a is not null) as investor_actions,
        tax_sale_uncertain as uncertain_fields,
        last_reviewed_at,
        disclaimer,
    from facts
)
select * from final order by state_code;
