-- requires: sales
-- The arm's-length rule, one rule in one place for every source (warehouse/docs/market.md "Arm's-length rule").
-- Runs after every sales adapter, the canonical one included; it reads only what the adapters recorded (price,
-- parties, document, deed type, non-use code, tax block, the property) and sets, on every row of `sales`:
--   is_portfolio / portfolio_parcels  one deed over two or more parcels with its total price on each: the same
--        date and price on two or more properties sharing the same document (document_id), the same buyer
--        (buyer_name) or, for a source naming neither (NYC), the same tax block (block_key), or across blocks of one
--        borough at a price that is no round figure (portfolio_price_is_round below)
--   is_duplicate / duplicate_of       the same sale recorded more than once: the same property (parcel id and
--        street line + unit + place, as far as the source knows them) on the same date at the same price to the same
--        buyer (as far as the source names one), within a source; or the same street line + unit in the same state,
--        date and price in two sources. Two deeds of one day and price to different buyers are a chain, not a copy: Denver's double closings (ARCHULETA to UNITED COLORADO LLC, then the LLC to CLARKE, $295,000 each
--        on 2018-07-09: 41 of Denver's 90 same-day pairs) are two deeds (review 5B: the property record hid the LLC's
--        purchase), the first of them pass_through (below). A near copy is one too: the same property, date and buyer
--        and the same facts, prices within 0.5% of the higher (one sale keyed twice). One copy is kept:
--        a copy no other flag marks (but pass_through or double_close) first, then the one with the fewest values the row
--        contracts nulled (meta.repairs; review 17: a canonical copy with swapped coordinates, nulled, was kept over its
--        good twin by document order), then the one with a document number, the latest document, the last line
--        (on a tie, the row loaded last: rid is the load order)
--   non_arms_length_reason            the first that applies: nominal_price (under nominal_price_floor(), $10,000;
--        NYC at or under it, its SOURCE.md: "nominal (<= $10,000)"),
--        related_parties (buyer = seller, or a non-use code saying so: 01 family, 02 love and affection, 03
--        inter-corporation), deed_type (an instrument other than a deed for value), non_use_code (any other code),
--        pass_through (a buyer who resells the property to another buyer the same day at the same price: a relocation
--        company's deed; a sale for value, the buyer took title, but its price is the next deed's), double_close (the
--        same at another price: a wholesaler's purchase, the seller's price beside the end buyer's; "the same day" is
--        one sale date, or one recording date where the source records it: Denver; the resale itself a sale for value,
--        the last leg the market sale),
--        assessment_ratio (for a source recording an assessment: a sale-to-assessment ratio, assessed value / price,
--        outside the extreme-outlier fences Q1 - 3 x IQR, Q3 + 3 x IQR of its source file and property type: IAAO
--        Standard on Ratio Studies, Appendix B, outlier trimming)
--   is_arms_length = none of the above. Flagged rows stay in `sales`; every mart that reads a price reads only
--        arm's-length rows (comps, rehab, investor, resales and flips, valuation).

-- Deeds for value: warranty, special warranty, personal representative, trustee, bargain and sale (Denver's codes).
-- Quit claims (QC), affidavits (AF), contracts (CS), ... are no market price.
-- A nominal price (market.md "Arm's-length rule"): under the floor; for NYC at or under it, as its SOURCE.md reads
-- ("nominal (<= $10,000)": 95 NYC rows at exactly $10,000, 84 of them arm's-length before). Other sources keep their
-- own reading (Sacramento's SOURCE.md: "filter prices < $10,000").
create or replace macro sale_price_is_nominal(source, price) as
    price < nominal_price_floor() or (source = 'nyc' and price <= nominal_price_floor());

-- A round price, where independent sales of one day meet by chance (as nominal prices do: $1 and $10 deeds, never
-- a package by this rule): a multiple of $500, or $1 under a multiple of
-- $1,000 ($999,999 and $499,999, under the $1M mansion-tax line). In the NYC files over $10,000, 6,237 same-day
-- same-price groups of a borough span two or more blocks at such prices (6,210 at a multiple of $1,000), pairs of
-- unrelated sales; the 58 at any other price (465 lots, $350,007 on 10 Queens houses, $7,249,492 on five Harlem
-- buildings) are one deed's price recorded on each parcel (market.md "Portfolio deeds").
create or replace macro portfolio_price_is_round(price) as price % 500 = 0 or (price + 1) % 1000 = 0;

create or replace macro market_deed_type(t) as upper(trim(t)) in ('WD', 'SW', 'PR', 'TR', 'BS');

-- Non-use codes that name related parties (Connecticut OPM: 01 Family, 02 Love and Affection, 03 Inter Corporation;
-- some towns write the bare number).
create or replace macro non_use_is_related(code) as
    try_cast(regexp_extract(cast(code as varchar), '^\s*([0-9]+)', 1) as integer) in (1, 2, 3);

-- Sales validation by the sale-to-assessment ratio (IAAO Standard on Ratio Studies, Appendix B "Outlier Trimming
-- Guidelines", B.1: the interquartile-range method, extreme outliers beyond 3.0 x IQR from the quartiles;
-- warehouse/docs/market.md). The fences of a source file and property type are computed over its sales that no other
-- rule flags (not nominal, related, deed type, non-use code or portfolio) and that carry an assessment, and only from
-- 30 such sales (fewer give no quartiles worth fencing: no sale of that group is flagged by this rule). Per file, not
-- per source: a file is one roll's extract (Connecticut's two: grand lists 2021 and 2022, each town's assessment as of
-- its own revaluation; Philadelphia's one roll), and a file's types are its own reading (Connecticut's 2022 extract
-- has no residential subtype: its sfr is every residential sale).
create or replace macro assessment_ratio_fence_iqr() as 3.0;
create or replace macro assessment_ratio_min_sales() as 30;

-- A party's name for comparison: upper case, anything but letters, digits and '&' to one space ("SMITH, JOHN" and
-- "SMITH JOHN" are one party); null when empty.
create or replace macro sale_party_key(n) as
    nullif(trim(regexp_replace(upper(cast(n as varchar)), '[^A-Z0-9&]+', ' ', 'g')), '');

-- What the rule reads, one narrow row per sale (rid = the row's rowid in `sales`). The property and the street line
-- are compared through a 64-bit hash of their parts: at 10 million sales, string keys cost most of the step's time.
create or replace temp table int_market_sale_keys as
select * exclude (deed_type, non_use_code),
       case
           when sale_price_is_nominal(source, sale_price) then 'nominal_price'
           when buyer_key = seller_key or non_use_is_related(non_use_code) then 'related_parties'
           when deed_type is not null and not market_deed_type(deed_type) then 'deed_type'
           when non_use_code is not null then 'non_use_code'
       end as reason,
       -- one 64-bit key per candidate group of copies (a collision only adds a group the exact ranking below splits)
       case when prop is not null then hash(source, prop, sale_date, sale_price, buyer_key) end as copy_key,
       case when street is not null then hash(state_code, street, sale_date, sale_price) end as street_copy_key,
       -- a near copy (below): the same but the price, and the same facts
       case when prop is not null then hash(source, prop, sale_date, buyer_key, facts) end as near_key
from (
    select rowid as rid, source, case when assessed_value > 0 then hash(file) end as roll, state_code, sale_date, recorded_date, sale_price, document_id, block_key, deed_type, non_use_code, line,
           -- the values the row contracts nulled in this row (meta.repairs: a canonical row's swapped coordinates,
           -- nulled_outside_state; its file is relative to the sources folder, the sale's the path read): of two copies
           -- of one sale, the one with fewer is kept (review 17 #3)
           (select count(*) from meta.repairs r where r.stage = 'intermediate' and r.source = sales.source
              and r.line = sales.line and (r.file = sales.file or ends_with(sales.file, '/' || r.file))) as repairs,
           hash(property_type, beds, baths, sqft, year_built, assessed_value) as facts,
           property_type, assessed_value,
           sale_party_key(buyer_name) as buyer_key, sale_party_key(seller_name) as seller_key,
           -- the property as far as the source knows it: parcel id and street line + unit + place (zip, else city)
           case when parcel_id is not null or address is not null then
               hash(parcel_id, address, unit, coalesce(zip, upper(city) || ',' || state_code)) end as prop,
           -- the street line across sources (parcel ids are each source's own)
           case when address is not null then hash(address, unit) end as street
    from sales
);

-- Pass-through and double-closing deeds: the buyer resells the property to another buyer the same day (a deed of
-- the same date, or of a later date recorded the same day, for a source that records both: Denver), by a resale that
-- is itself a sale for value (no reason above). The first deed's price is no market price, the last deed's is: at one
-- price the first is a pass_through (a relocation company), at two a double_close (a wholesaler: $220,000 from the
-- seller, $260,100 from the end buyer, one day). One statement: every leg of a chain but the last is flagged.
-- The legs' order: the deed date, then, for two deeds of one date recorded the same day, the recorder's
-- (document_order(): Denver's reception numbers run in recording order). In the raw Denver file 164 of the 165
-- chains of one date recorded on one day record the purchase first; the one recorded the other way is no resale of
-- that purchase (parcel 506513030000, dated 2018-12-28, recorded 2019-01-03: 2019000813, ALLMER's personal
-- representative's deed to 735 PERRY STREET LLC at $65,750, a quarter of the price, $78/sq ft, then 2019000814,
-- POE -> ALLMER $263,000 by a warranty deed, $311/sq ft beside Villa Park's median $344): the deed recorded first is
-- the earlier leg, flagged, and the purchase recorded last the sale. Deeds of one date recorded on different days keep
-- the parties' order (a late recording: VANN -> UNITED COLORADO LLC recorded 17 days after the LLC's resale to
-- PALECKI, a wholesaler's chain), as do deeds of two dates recorded together.
create or replace temp table int_market_sale_resold as
select case when o.sale_date = k.sale_date and o.recorded_date = k.recorded_date
                 and document_order(o.document_id) < document_order(k.document_id) then o.rid else k.rid end as rid,
       bool_or(o.sale_price = k.sale_price) as same_price
from int_market_sale_keys k
join int_market_sale_keys o on o.source = k.source and o.prop = k.prop and o.seller_key = k.buyer_key
where k.reason is null and o.reason is null and o.rid <> k.rid and o.buyer_key is distinct from k.buyer_key
  and (o.sale_date = k.sale_date or (o.recorded_date = k.recorded_date and o.sale_date > k.sale_date))
group by all;

update int_market_sale_keys k set reason = case when r.same_price then 'pass_through' else 'double_close' end
from int_market_sale_resold r
where k.rid = r.rid;

-- Portfolio deeds: two or more properties on one document, one buyer or one tax block, same date and total price;
-- for a source with blocks (NYC: no document, no buyer), also the blocks of one borough (block_key's part before the
-- '-') at a price that is no round figure (a deed over buildings on several blocks: 2024 MADISON AVE, 28 E 127 ST,
-- 22 E 126 ST, 149 E 121 ST and 60 E 130 ST, $7,249,492 each on 2023-05-09). Groups are found cheaply first (two
-- different properties: min <> max), then their parcels counted.
create or replace temp table int_market_sale_portfolio as
with doc_groups as (
    select source, document_id, sale_date, sale_price from int_market_sale_keys
    where document_id is not null and prop is not null group by all having min(prop) <> max(prop)
),
buyer_groups as (
    select source, buyer_key, sale_date, sale_price from int_market_sale_keys
    where buyer_key is not null and prop is not null group by all having min(prop) <> max(prop)
),
block_groups as (
    select source, block_key, sale_date, sale_price from int_market_sale_keys
    where block_key is not null and prop is not null group by all having min(prop) <> max(prop)
),
borough_groups as (
    select source, split_part(block_key, '-', 1) as borough, sale_date, sale_price from int_market_sale_keys
    where block_key is not null and prop is not null and not portfolio_price_is_round(sale_price)
      and not sale_price_is_nominal(source, sale_price)  -- $1 and $10 deeds of one day meet by chance
    group by all having min(prop) <> max(prop)
),
members as (
    select k.rid, k.prop, 'd' || k.document_id as deed from int_market_sale_keys k semi join doc_groups g using (source, document_id, sale_date, sale_price)
    union all
    select k.rid, k.prop, 'b' || k.buyer_key from int_market_sale_keys k semi join buyer_groups g using (source, buyer_key, sale_date, sale_price)
    union all
    select k.rid, k.prop, 'k' || k.block_key from int_market_sale_keys k semi join block_groups g using (source, block_key, sale_date, sale_price)
    union all
    select k.rid, k.prop, 'p' || g.borough from int_market_sale_keys k
    join borough_groups g on g.source = k.source and g.borough = split_part(k.block_key, '-', 1)
                         and g.sale_date = k.sale_date and g.sale_price = k.sale_price
),
counted as (
    -- a deed key is unique within (source, date, price) only: count per that whole group
    select m.rid, count(distinct m.prop) over (partition by k.source, m.deed, k.sale_date, k.sale_price) as parcels
    from members m join int_market_sale_keys k using (rid)
)
select rid, max(parcels)::integer as parcels from counted group by rid;

-- The sale-to-assessment ratio: fences per source file (roll) and property type over the sales no other rule flags, then every
-- sale without another reason whose ratio falls outside them (a portfolio deed's too: its reason is recorded beside
-- the portfolio flag, as a nominal one's is) takes the reason assessment_ratio. Sources without assessments: no rows.
create or replace temp table int_market_sale_ratio_fences as
select source, roll, property_type,
       quantile_cont(ratio, 0.25) - assessment_ratio_fence_iqr() * (quantile_cont(ratio, 0.75) - quantile_cont(ratio, 0.25)) as low,
       quantile_cont(ratio, 0.75) + assessment_ratio_fence_iqr() * (quantile_cont(ratio, 0.75) - quantile_cont(ratio, 0.25)) as high
from (
    select k.source, k.roll, k.property_type, k.assessed_value / k.sale_price as ratio
    from int_market_sale_keys k anti join int_market_sale_portfolio p using (rid)
    where k.reason is null and k.assessed_value > 0
)
group by all
having count(*) >= assessment_ratio_min_sales();

update int_market_sale_keys k set reason = 'assessment_ratio'
from int_market_sale_ratio_fences f
where k.reason is null and k.assessed_value > 0 and k.source = f.source and k.roll = f.roll and k.property_type = f.property_type
  and (k.assessed_value / k.sale_price < f.low or k.assessed_value / k.sale_price > f.high);

-- Duplicates: the copies of one sale. Only the groups with two or more copies are ranked. A middleman's purchase
-- (pass_through, double_close) is a deed for value as clean as any: kept before its copy that another rule flags (a
-- re-recording from the LLC to itself, related_parties), so the purchase still counts as a sale for value.
create or replace temp table int_market_sale_duplicates as
with copies_in_source as (
    select copy_key from int_market_sale_keys where copy_key is not null group by copy_key having count(*) > 1
),
candidates as (
    select k.*, (coalesce(k.reason in ('pass_through', 'double_close'), true) and p.parcels is null) as clean
    from int_market_sale_keys k semi join copies_in_source c using (copy_key)
    left join int_market_sale_portfolio p using (rid)
),
-- near copies: the same property, date and buyer (as far as the source names one) and the same facts (type, beds,
-- baths, area, year built, assessed value) at prices within 0.5% of the higher (Sacramento lists 1223 LAMBERTON CIR
-- twice on 2008-05-19, $155,435 and $155,500; Connecticut 2022 four homes at $1 or $500 apart under two serial
-- numbers); a group whose prices differ more is left alone. Two units of one NYC building differ in the property.
near_groups as (
    select near_key from int_market_sale_keys where near_key is not null group by near_key
    having count(*) > 1 and min(sale_price) < max(sale_price) and max(sale_price) - min(sale_price) <= 0.005 * max(sale_price)
),
near_candidates as (
    select k.*, (coalesce(k.reason in ('pass_through', 'double_close'), true) and p.parcels is null) as clean
    from int_market_sale_keys k semi join near_groups g using (near_key)
    left join int_market_sale_portfolio p using (rid)
),
near_copies as (
    select rid, first_value(rid) over (partition by near_key
                                       order by clean desc, repairs, document_id is null, document_id desc, line desc, rid desc) as kept
    from near_candidates
),
within_source as (
    select rid,
           first_value(rid) over (partition by source, prop, sale_date, sale_price, buyer_key
                                  order by clean desc, repairs, document_id is null, document_id desc, line desc, rid desc) as kept
    from candidates where rid not in (select rid from near_copies)
    union all
    select rid, kept from near_copies
),
-- across sources: the same street line + unit in one state on one date at one price in two sources, among the copies
-- each source keeps; every source's copy but the first source's (same preference, then source name) is a duplicate
copies_across as (
    select street_copy_key from int_market_sale_keys where street_copy_key is not null
    group by street_copy_key having min(source) <> max(source)
),
across_candidates as (
    select k.*, (coalesce(k.reason in ('pass_through', 'double_close'), true) and p.parcels is null) as clean
    from int_market_sale_keys k semi join copies_across c using (street_copy_key)
    left join int_market_sale_portfolio p using (rid)
    where k.rid not in (select rid from within_source where kept <> rid)
),
across_sources as (
    select rid, source,
           first_value(rid) over w as first_rid, first_value(source) over w as first_source
    from across_candidates
    window w as (partition by state_code, street, sale_date, sale_price
                 order by clean desc, repairs, document_id is null, document_id desc, source, line desc, rid desc)
)
select rid, kept as kept_rid from within_source where kept <> rid
union all
select rid, first_rid from across_sources where first_source <> source;

-- Every row is arm's-length unless a flag says otherwise: one cheap pass for all, then the flagged rows.
update sales set is_arms_length = true, is_portfolio = false, portfolio_parcels = null, is_duplicate = false, duplicate_of = null,
                 non_arms_length_reason = null;

update sales set
    is_portfolio = f.parcels is not null,
    portfolio_parcels = f.parcels,
    is_duplicate = f.duplicate_of is not null,
    duplicate_of = f.duplicate_of,
    non_arms_length_reason = f.reason,
    is_arms_length = false
from (
    select k.rid, k.reason, p.parcels, kept.sale_id as duplicate_of
    from int_market_sale_keys k
    left join int_market_sale_portfolio p using (rid)
    left join int_market_sale_duplicates d using (rid)
    left join (select rowid as kept_rid, sale_id from sales) kept using (kept_rid)
    where k.reason is not null or p.parcels is not null or d.kept_rid is not null
) f
where sales.rowid = f.rid;

drop table int_market_sale_keys;
drop table int_market_sale_resold;
drop table int_market_sale_portfolio;
drop table int_market_sale_ratio_fences;
drop table int_market_sale_duplicates;
alter table sales alter column is_arms_length set not null;
