-- Helpers available to every stage (loaded on connect). Lowercase SQL, one macro per repeated expression.

-- confidence label by sample count, the spec's comps bands: low 5-19, medium 20-49, high 50+.
create or replace macro confidence_by_count(n) as
    case when n >= 50 then 'high' when n >= 20 then 'medium' else 'low' end;

-- the most confidence a window allows when its sources' records cover `days` of its `window_days` (warehouse/docs/
-- market.md "Coverage of a window"): high from 90% of the days, medium from 50%, low below: a figure over records of
-- less than half the period asked describes another, shorter period.
create or replace macro confidence_by_coverage(days, window_days) as
    case when days >= 0.9 * window_days then 'high' when days >= 0.5 * window_days then 'medium' else 'low' end;

-- the lower of two confidences (warehouse/confidence.ts minConfidence is the same rule in TypeScript).
create or replace macro min_confidence(a, b) as
    case when a = 'low' or b = 'low' then 'low' when a = 'medium' or b = 'medium' then 'medium' else 'high' end;

-- A canonical file's amount or area (README "Canonical format": prices, valuations, areas) as plain number text: an
-- unambiguous thousands separator and a dollar sign are dropped ("295,000", "$295,000", "$1,250.50" -> 295000,
-- 1250.50; a comma before other than groups of three digits, "1,5", stays and is no number); other text is left as it is.
-- The staging views cast it; the canonical format step logs each value read so (repair number_unformatted).
create or replace macro canonical_plain_number(t) as
    case when regexp_full_match(trim(t), '\$?([0-9]{1,3}(,[0-9]{3})+|[0-9]+)(\.[0-9]+)?') then replace(replace(trim(t), '$', ''), ',', '') else t end;

-- A 5-digit zip from text such as '98178', '98178-1234', ' 2138' (zero-padded) or 98178.0; null otherwise.
create or replace macro zip5(z) as
    case
        when regexp_matches(trim(cast(z as varchar)), '^\d{5}(-\d{4})?$') then left(trim(cast(z as varchar)), 5)
        when regexp_matches(trim(cast(z as varchar)), '^\d{3,4}(\.0+)?$') then lpad(split_part(trim(cast(z as varchar)), '.', 1), 5, '0')
        when regexp_matches(trim(cast(z as varchar)), '^\d{5}\.0+$') then left(trim(cast(z as varchar)), 5)
        else null
    end;

-- The property types of the canonical sales and parcels tables; warehouse/property-types.ts is the same list.
create or replace macro property_types() as ['sfr', 'multi', 'condo', 'land', 'commercial'];
-- The types a row of `sales` or `parcels` may carry: the five, and 'coop', New York City's co-op apartments (rolling
-- sales building class categories 09, 10 and 17: a share in a cooperative, bought with the board's approval, no deed).
-- The API contract enumerates the five (interface-v1 property_type), so no figure is served for co-ops: a type of the
-- warehouse only, kept out of every per-type figure (the marts read property_types()) and said in the condo comps'
-- note (market.md "Co-ops").
create or replace macro recorded_property_types() as list_append(property_types(), 'coop');

-- The great-circle distance in km between two points (haversine, mean Earth radius 6,371 km).
create or replace macro km_between(lat1, lng1, lat2, lng2) as
    2 * 6371 * asin(least(1, sqrt(power(sin(radians(lat2 - lat1) / 2), 2)
        + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lng2 - lng1) / 2), 2))));

-- The URL slug of a city name; warehouse/layout.ts slug() is the same rule in TypeScript.
create or replace macro slug(s) as
    trim(regexp_replace(lower(strip_accents(cast(s as varchar))), '[^a-z0-9]+', '-', 'g'), '-');

-- The compact comparison key of a place name: live/places/names.ts placeKey (accents and case off, apostrophes and dots
-- dropped, Saint/Sainte/Mount/Fort as St/Ste/Mt/Ft) with its spaces and punctuation taken out (names.ts compactKey):
-- "Saint Anthony" = "St. Anthony", "De Witt" = "DeWitt", "Pon-she-wa-ing" = "Ponshewaing".
create or replace macro place_key(s) as
    array_to_string(list_transform(
        string_split(trim(regexp_replace(regexp_replace(lower(strip_accents(cast(s as varchar))), '[''’`‘]', '', 'g'), '[^a-z0-9]+', ' ', 'g')), ' '),
        w -> case w when 'saint' then 'st' when 'sainte' then 'ste' when 'mount' then 'mt' when 'fort' then 'ft' else w end), '');

-- An `addresses` row that autocomplete indexes (warehouse/docs/address.md): a point, a city and a state. The zip and
-- county may be unknown (`addresses.zip` is only ever a recorded zip, never a guess): the answer then says "" for
-- them. zip and zip_imputed stay parameters (callers pass them; a guessed zip is already null in `addresses`). The
-- coverage summary counts the same rows, so `addresses` is what can be found.
create or replace macro address_is_indexable(zip, zip_imputed, lat, lng, county, city, state_code) as
    lat is not null and lng is not null and city is not null and state_code is not null;

-- A shard body (a JSON object's text) with `name` and `value`'s JSON appended as its last field, or the body as it is
-- where value is null: an additive field absent where there is nothing to say (the market answers' `source`).
create or replace macro json_with(body, name, value) as
    case when value is null then body
         else left(body, length(body) - 1) || case when body = '{}' then '' else ',' end || to_json(name) || ':' || to_json(value) || '}' end;

-- Round a double to n decimals and keep it a DOUBLE (JSON number).
create or replace macro round_to(x, n) as round(cast(x as double), n);

-- The additive `coverage` of a market window answer (comps, investor overview, rehab score; market.md "Coverage of a
-- window"): the window asked, `ws` the day before its first, `we` its last, and the part its sources' records cover.
create or replace macro window_coverage(ws, we, wd, rs, re, rd) as {
    window_start: strftime(cast(ws + 1 as date), '%Y-%m-%d'),
    window_end: strftime(we, '%Y-%m-%d'),
    window_days: wd,
    records_start: strftime(rs, '%Y-%m-%d'),
    records_end: strftime(re, '%Y-%m-%d'),
    records_days: rd
};

-- A zip that delivers to an area, so a coordinate can lie in it: a ZCTA with the Gazetteer's internal point. A PO-box
-- or unique zip (no ZCTA; its point is GeoNames' or the ZIP reference's, often the post office's own) is none: the
-- zip of a coordinate is looked for among these only (30_market_80_fill_geo.sql; the point lookup of
-- /v1/location/risk, live/location/build.ts). Callers pass the zips table's columns.
create or replace macro zip_is_area(is_zcta, centroid_source) as
    coalesce(is_zcta, false) and centroid_source = 'gazetteer_zcta';

-- A permit that counts as residential rehab (warehouse/docs/market.md "Residential rehab"), the one test the rehab
-- score's permit components and the rehab events of the 30-day direction read: a rehab type (renovation, addition,
-- repair) on a building the source names residential; where the source cannot tell the use (building_use null), one
-- whose declared cost is at most $500,000 (about the 95th percentile of the residential-named rehab permits).
create or replace macro is_residential_rehab(permit_type, building_use, valuation) as
    permit_type in ('renovation', 'addition', 'repair')
    and case when building_use is null then coalesce(valuation, 0) <= 500000 else building_use = 'residential' end;

-- A residential sale (sfr, condo, multi, and NYC's co-ops: homes, as they were as condos) and a rehab resale (warehouse/docs/market.md mart_rehab "rehab resales"): the
-- one test the rehab score's resale share and the rehab events of the 30-day direction read, so the two count the same
-- sales (h27: the direction counted a store's or a vacant lot's quick resale, the score only homes'). A rehab resale is a
-- residential sale renovated in its year or the year before (King County's yr_renovated) or resold 1 to 365 days after
-- its purchase at 10% or more over it (int_market_resales.is_quick_gain_resale, null for a first sale).
create or replace macro is_residential_sale(property_type) as property_type in ('sfr', 'condo', 'multi', 'coop');
create or replace macro is_rehab_resale(property_type, year_renovated, sale_date, is_quick_gain_resale) as
    is_residential_sale(property_type)
    and ((year_renovated is not null and year_renovated between year(sale_date) - 1 and year(sale_date))
         or coalesce(is_quick_gain_resale, false));

-- The recording order of a source's document number (sales.document_id: Denver's reception number, Philadelphia's
-- book and page, a Connecticut town's serial), as a sortable text: zero-padded so that 2018139696 sorts after 2018137316
-- and a longer serial after a shorter one of the same prefix; null when the source numbers no document. Deeds of one day
-- are ordered by it (then by line): a source's file order is not its chain order (Denver lists a day's deeds newest
-- first: MACDONALD -> CARTUS at reception 2018037548, CARTUS -> DURHAM at 2018037549 on the line before).
create or replace macro document_order(document_id) as lpad(cast(document_id as varchar), 40, '0');

-- Market tier of a county's CBSA (warehouse/docs/geo.md "Market tier rule"), by the CBSA's ACS population: the one
-- rule for a city of `cities` (10_geo_04) and for a city of the market files that is no such city (30_market_90).
create or replace macro market_tier_of_cbsa(cbsa_code, cbsa_population) as
    case when cbsa_population >= 1000000 then 'primary'
         when cbsa_population >= 250000 then 'secondary'
         when cbsa_code is not null then 'tertiary'
         else 'rural' end;

-- Redfin zip snapshots in comps (pipelines/marts/30_mart_comps.sql, its check; warehouse/docs/market.md "Days on market /
-- list-to-sale").
-- A Redfin row's 90 days: the three calendar months to its period end (Redfin's period_begin, the first of the month two
-- months before: 2024-01-31 -> 2023-11-01).
create or replace macro redfin_period_start(period_end) as cast(date_trunc('month', period_end) - interval 2 month as date);

-- Whether a Redfin row's recorded type describes a canonical property type. Redfin's tracker is residential only
-- (SOURCE.md): Single Family Residential and Townhouse -> sfr, Condo/Co-op -> condo, Multi-Family (2-4 Unit) -> multi,
-- All Residential -> sfr, condo, multi (the answer says all residential). A row whose type was not recorded (every
-- capture but 2025-05) describes none: Domapus kept whichever type came first, and one zip's rows of one period differ
-- between captures. Never land or commercial.
create or replace macro redfin_describes(redfin_type, property_type) as
    case redfin_type
        when 'All Residential' then property_type in ('sfr', 'condo', 'multi')
        when 'Single Family Residential' then property_type = 'sfr'
        when 'Townhouse' then property_type = 'sfr'
        when 'Condo/Co-op' then property_type = 'condo'
        when 'Multi-Family (2-4 Unit)' then property_type = 'multi'
        else false
    end;

-- Whether a Redfin row may stand for a comps window (first_day..last_day, inclusive) of a type: the one rule of comps and
-- research (which reads comps). Its 90 days (redfin_period_start..period_end) lie inside the window, its recorded type
-- describes the type, and it counts 5 or more homes sold (the minimum cohort).
create or replace macro redfin_stands_for(period_end, homes_sold, redfin_type, property_type, first_day, last_day) as
    redfin_period_start(period_end) >= first_day and period_end <= last_day and homes_sold >= 5
    and redfin_describes(redfin_type, property_type);

create or replace macro redfin_type_words(redfin_type) as case redfin_type
    when 'All Residential' then 'all residential' when 'Single Family Residential' then 'single-family'
    when 'Townhouse' then 'townhouse' when 'Condo/Co-op' then 'condo and co-op' when 'Multi-Family (2-4 Unit)' then '2-4 unit' end;

-- New York City's boroughs, the one list: the rolling sales' BOROUGH code (nyc-rolling-sales SOURCE.md: 1 Manhattan,
-- 2 Bronx, 3 Brooklyn, 4 Queens, 5 Staten Island), the name of the city part it is (int_market_city_parts), and its
-- county (Census FIPS: New York, Bronx, Kings, Queens, Richmond). Before, three lists were written in two SQL steps.
create or replace macro nyc_boroughs() as table
    select * from (values ('1', 'Manhattan', '36061'), ('2', 'Bronx', '36005'), ('3', 'Brooklyn', '36047'),
                          ('4', 'Queens', '36081'), ('5', 'Staten Island', '36085')) b(code, name, county_fips);
