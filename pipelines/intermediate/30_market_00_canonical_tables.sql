-- Market domain, first step: the normalisation macros every market adapter uses, and the four canonical
-- tables created empty. Each source's adapter step (30_market_1x..4x) then `insert into`s them with its own
-- `-- requires:` line, so a missing source only removes its rows. Formulas: warehouse/docs/market.md.
-- Over 300 lines: every macro the adapters share (addresses, units, party names, owner classes, and the canonical
-- files' one reject cascade, canonical_reject) sits in this one file, so each rule has one definition that every adapter
-- and warehouse/address.ts's twin test read; it runs first, whichever sources are present (a macro in a source's own
-- step would be missing whenever that source is).

-- ---------------------------------------------------------------- text normalisation

-- USPS Publication 28 street suffix abbreviation of one upper-case word (the last word of a street line).
create or replace macro street_suffix_abbrev(w) as
    case w
        when 'STREET' then 'ST' when 'STR' then 'ST' when 'AVENUE' then 'AVE' when 'AV' then 'AVE' when 'AVN' then 'AVE'
        when 'BOULEVARD' then 'BLVD' when 'BOUL' then 'BLVD' when 'DRIVE' then 'DR' when 'DRV' then 'DR'
        when 'ROAD' then 'RD' when 'LANE' then 'LN' when 'COURT' then 'CT' when 'PLACE' then 'PL'
        when 'TERRACE' then 'TER' when 'TERR' then 'TER' when 'CIRCLE' then 'CIR' when 'PARKWAY' then 'PKWY'
        when 'HIGHWAY' then 'HWY' when 'SQUARE' then 'SQ' when 'TRAIL' then 'TRL' when 'PIKE' then 'PIKE'
        when 'EXPRESSWAY' then 'EXPY' when 'FREEWAY' then 'FWY' when 'TURNPIKE' then 'TPKE' when 'ALLEY' then 'ALY'
        when 'CROSSING' then 'XING' when 'HEIGHTS' then 'HTS' when 'POINT' then 'PT' when 'RIDGE' then 'RDG'
        when 'COVE' then 'CV' when 'CRESCENT' then 'CRES' when 'PLAZA' then 'PLZ' when 'LOOP' then 'LOOP'
        when 'HOLLOW' then 'HOLW' when 'MANOR' then 'MNR' when 'MEADOWS' then 'MDWS' when 'VIEW' then 'VW'
        else w
    end;

-- Unit designators a street line may end with ("APT 4", "UNIT 114", "#302", "STE 200", "APT4B"): the unit is group 1
-- after a designator and a space or '#' (or after a bare '#'), group 2 when the designator runs into it, which only a
-- unit starting with a digit may do. Otherwise the word is the street's: "10 GREENWAY NORTH", "108 NORTHGATE", "12
-- STEEPLECHASE" and "1 MAIN STEET" were read as units RTH, RTHGATE, EEPLECHASE and ET (about 140 sales of NYC and
-- Connecticut). RE2 has no lookahead, hence the two groups.
create or replace macro unit_designators() as '(?:APT|APARTMENT|UNIT|STE|SUITE|NO)';
create or replace macro address_unit_pattern() as
    '\s+(?:(?:' || unit_designators() || '[\s#]|#)\s*#?\s*([A-Z0-9-]+)|' || unit_designators() || '([0-9][A-Z0-9-]*))$';
-- A leading designator of a unit column, by the same rule: "APT 4" -> "4", "UNIT4" -> "4", "NORTH" stays "NORTH".
create or replace macro unit_designator_pattern() as '^(?:' || unit_designators() || '[\s#]+|#\s*|' || unit_designators() || '([0-9]))';

-- Letters as ASCII first, as warehouse/address.ts asciiLetters (NFKD, marks off): full-width forms as their letters,
-- accents off ("Stöne" -> "Stone"); no raw file's address has a non-ASCII character (checked 2026-11), so this is for twins.
-- An ASCII text (as many bytes as characters) is left alone: translate over every address made the adapters 3-4x slower.
create or replace macro address_ascii(a) as
    case when strlen(cast(a as varchar)) = length(cast(a as varchar)) then cast(a as varchar) else strip_accents(translate(cast(a as varchar), 'ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ０１２３４５６７８９＃－／＆', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#-/&')) end;
-- Upper case, punctuation to spaces (but keep '#', '-', '/', '&'), one space between words, trimmed, a house number
-- written "N/A" dropped (2,033 NYC sales of lots without one read "N/A RADIGAN AVE"); null when empty.
create or replace macro address_clean(a) as
    nullif(regexp_replace(trim(regexp_replace(regexp_replace(upper(address_ascii(a)), '[^A-Z0-9#/&\- ]', ' ', 'g'), '\s+', ' ', 'g')), '^N/A( |$)', ''), '');

-- The street line without its unit part: address_clean, then the unit removed, then the last word abbreviated.
create or replace macro address_street_part(c) as
    regexp_replace(c, address_unit_pattern(), '');
create or replace macro address_abbrev(s) as
    case when s is null or s = '' then null
         when strpos(s, ' ') = 0 then s
         else regexp_replace(s, '\S+$', '') || street_suffix_abbrev(regexp_extract(s, '(\S+)$', 1)) end;

-- A normalised street address (no unit) and the unit found at its end, if any.
create or replace macro normalize_address(a) as address_abbrev(address_street_part(address_clean(a)));
-- Two street lines of one place, told by the owner's mailing address and the property's: equal, or equal but for a
-- pre-directional that only one of them writes (OPA location "1001 SLOCUM ST", mailing "1001 E SLOCUM ST"), a
-- direction word read as its letter (EAST = E). "1001 E X ST" and "1001 W X ST" stay two places.
create or replace macro street_direction_abbrev(s) as
    regexp_replace(regexp_replace(regexp_replace(regexp_replace(s,
        '^(\S+) NORTH (\S+ )', '\1 N \2'), '^(\S+) SOUTH (\S+ )', '\1 S \2'), '^(\S+) EAST (\S+ )', '\1 E \2'), '^(\S+) WEST (\S+ )', '\1 W \2');
create or replace macro street_without_direction(s) as regexp_replace(s, '^(\S+) (?:N|S|E|W|NE|NW|SE|SW) (\S+ \S)', '\1 \2');
create or replace macro same_street_line(a, b) as
    street_direction_abbrev(a) = street_direction_abbrev(b)
    or (street_without_direction(street_direction_abbrev(a)) = street_without_direction(street_direction_abbrev(b))
        and (street_without_direction(street_direction_abbrev(a)) = street_direction_abbrev(a)
             or street_without_direction(street_direction_abbrev(b)) = street_direction_abbrev(b)));
create or replace macro address_unit(a) as
    coalesce(nullif(regexp_extract(address_clean(a), address_unit_pattern(), 1), ''),
             nullif(regexp_extract(address_clean(a), address_unit_pattern(), 2), ''));

-- Whether a normalised street line names a lot rather than a whole street: it carries a number other than a route's
-- ("ROUTE 32", "ROUTE I-95", "HWY 6") or a numbered street's name ("5TH AVE"), and not only zeros ("RIVER ROAD 0000").
-- The number is most often a house number in front ("12 MAIN ST"); Greenwich writes it behind ("HAVEMEYER LANE 0082"),
-- and some towns give a map-block-lot or a unit ("MBL 26/87/6", "ANCHOR REEF CLUB 17E", "LOT 3 JUNE RD"). A line that
-- names no lot ("PARADISE DR": 8 vacant lots of Brooklyn, CT, sold apart at $7,500 to $32,000) is no property's
-- identity (property_identity) nor a resale's key (30_market_92_resales.sql) unless a parcel id names the lot.
create or replace macro street_line_names_lot(n) as
    regexp_matches(regexp_replace(regexp_replace(n,
        '\b(ROUTE|RTE|RT|HWY|HIGHWAY|US|I|INTERSTATE|SR|CR|STATE ROAD|COUNTY ROAD)[ -]?[A-Z]?-?[0-9]+[A-Z]?\b', ' ', 'g'),
        '\b[0-9]+(ST|ND|RD|TH)\b', ' ', 'g'), '[1-9]');

-- A unit value from its own column: upper case, trimmed, without a leading designator.
create or replace macro normalize_unit(u) as
    nullif(trim(regexp_replace(upper(trim(cast(u as varchar))), unit_designator_pattern(), '\1')), '');

-- City names in title case ("SACRAMENTO" -> "Sacramento", "mc kees rocks" -> "Mc Kees Rocks").
create or replace macro title_case(s) as
    nullif(array_to_string(list_transform(string_split(regexp_replace(lower(trim(cast(s as varchar))), '\s+', ' ', 'g'), ' '),
        w -> upper(left(w, 1)) || substr(w, 2)), ' '), '');

-- ---------------------------------------------------------------- classifiers

-- Entity (non-person) buyer names: the investor classifier. Word-boundary match on the upper-cased name with
-- punctuation removed, so "L.L.C." -> "LLC" matches and "TRUSTY JOHN" or "INCE MARY" do not. A comma parts words
-- ("MM INVESTORS,LLC" is MM INVESTORS LLC, review 4: it read as one word, a person); periods and apostrophes join.
create or replace macro entity_name_clean(n) as
    ' ' || trim(regexp_replace(regexp_replace(replace(upper(cast(n as varchar)), ',', ' '), '[.'']', '', 'g'), '[^A-Z0-9&]+', ' ', 'g')) || ' ';
create or replace macro is_entity_name(n) as
    case when n is null or trim(cast(n as varchar)) = '' then null
         else regexp_matches(entity_name_clean(n),
            ' (LLC|L L C|LC|PLLC|INC|INCORPORATED|CORP|CORPORATION|CO|COMPANY|LP|LLP|LLLP|LTD|LIMITED|TRUST|TRUSTS|TRUSTEE|TRUSTEES'
            || '|HOLDING|HOLDINGS|PROPERTY|PROPERTIES|INVESTMENT|INVESTMENTS|INVESTOR|INVESTORS|CAPITAL|PARTNER|PARTNERS|PARTNERSHIP'
            || '|REALTY|REAL ESTATE|GROUP|FUND|FUNDS|VENTURE|VENTURES|ENTERPRISE|ENTERPRISES|ASSOCIATES|DEVELOPMENT|DEVELOPERS'
            || '|HOMES|BUILDERS|CONSTRUCTION|MANAGEMENT|ACQUISITION|ACQUISITIONS|EQUITY|EQUITIES|REIT|ASSETS|RENTALS|LEASING'
            || '|OPENDOOR|OFFERPAD|INVITATION HOMES|AMERICAN HOMES 4 RENT|PROGRESS RESIDENTIAL|TRICON|ZILLOW) ')
    end;

-- A government or public authority by its name. "USA" alone names none when the name is a bank's or a company's
-- ("HSBC BANK USA NATIONAL ASSOCIATION TR", "RUN PROPERTIES USA CORP" read as government: review 5B).
create or replace macro is_government_name(n) as
    regexp_matches(entity_name_clean(n), ' (CITY OF|COUNTY OF|STATE OF|CITY AND COUNTY|COMMONWEALTH|UNITED STATES|SECRETARY OF|HUD'
        || '|VETERANS AFFAIRS|HOUSING AUTHORITY|REDEVELOPMENT AUTHORITY|LAND BANK|SCHOOL DISTRICT|BOARD OF EDUCATION|AUTHORITY|AUTH) ')
    or (regexp_matches(entity_name_clean(n), ' USA ') and not coalesce(is_entity_name(n), false)
        and not regexp_matches(entity_name_clean(n), ' (BANK|BANCORP|NATIONAL ASSOCIATION|N A|NA|FSB|MORTGAGE|SAVINGS) '));

-- Entities that are not investors when they take title: governments and authorities, GSEs and lenders (REO and
-- foreclosure-deed grantees), churches and charities, universities, hospitals, utilities, and personal trusts
-- (revocable / living / family trusts) and decedents' estates.
-- "REAL ESTATE" is joined into one word first, so a firm named "...REAL ESTATE OF TEXAS LLC" is not a decedent's
-- "ESTATE OF".
create or replace macro is_non_investor_entity(n) as
    is_government_name(n) or regexp_matches(replace(entity_name_clean(n), ' REAL ESTATE ', ' REALESTATE '),
        ' (FEDERAL NATIONAL MORTGAGE|FANNIE MAE|FEDERAL HOME LOAN|FREDDIE MAC|BANK|BANCORP|NATIONAL ASSOCIATION|N A|FSB'
        || '|MORTGAGE|SAVINGS|CREDIT UNION|CHURCH|MINISTRIES|DIOCESE|HABITAT FOR HUMANITY'
        || '|UNIVERSITY|COLLEGE|HOSPITAL|ELECTRIC|ENERGY|UTILITY|UTILITIES'
        -- personal estate-planning trusts hold an owner-occupant's home, not an investment
        || '|REVOCABLE|IRREVOCABLE|LIVING TRUST|FAMILY TRUST|ESTATE OF) ');

-- The investor classifier: an entity name that is not a government, lender or charity. Null when the name is unknown.
create or replace macro is_investor_name(n) as
    case when n is null or trim(cast(n as varchar)) = '' then null
         else coalesce(is_entity_name(n), false) and not is_non_investor_entity(n) end;

-- Owner class of an owner name: government, bank, nonprofit, trust, corporate or individual (the property record;
-- warehouse/docs/property.md) (null when no name).
create or replace macro owner_type(n) as
    case when n is null or trim(cast(n as varchar)) = '' then null
         when is_government_name(n) then 'government'
         when regexp_matches(entity_name_clean(n), ' (BANK|BANCORP|NATIONAL ASSOCIATION|N A|FSB|MORTGAGE|SAVINGS|CREDIT UNION|FEDERAL NATIONAL MORTGAGE'
              || '|FANNIE MAE|FEDERAL HOME LOAN|FREDDIE MAC) ') then 'bank'
         -- churches, charities, schools and hospitals (before trust: "... CHURCH TRUSTEES" is the church's); never a
         -- limited liability company or partnership ("ACADEMY HOLDINGS LLC" is corporate)
         -- (words that are also given names or surnames stay out: "TRELEASE,CHARITY" is a person; TEMPLE, PARISH)
         when regexp_matches(entity_name_clean(n), ' (CHURCH|CHURCHES|MINISTRIES|MINISTRY|DIOCESE|ARCHDIOCESE|CONGREGATION|SYNAGOGUE'
              || '|MOSQUE|MASJID|TABERNACLE|CATHEDRAL|HABITAT FOR HUMANITY|SCHOOL|ACADEMY|UNIVERSITY|COLLEGE|HOSPITAL|FOUNDATION'
              || '|NONPROFIT|YMCA|YWCA) ')
              and not regexp_matches(entity_name_clean(n), ' (LLC|L L C|LP|LLP|LLLP) ') then 'nonprofit'
         when regexp_matches(entity_name_clean(n), ' (TRUST|TRUSTS|TRUSTEE|TRUSTEES|TR|TRS|REVOCABLE|IRREVOCABLE) ') then 'trust'
         when coalesce(is_entity_name(n), false) then 'corporate'
         else 'individual' end;

-- The zip of a canonical file: exactly 5 digits, or ZIP+4 (cut to 5); null (a bad_zip reject) otherwise. Unlike
-- zip5(), a 3-4 digit value is not zero-padded: an operator's '6270' for Springfield IL would become '06270', a
-- Connecticut zip, so it is rejected rather than guessed.
create or replace macro canonical_zip(z) as
    case when regexp_full_match(trim(cast(z as varchar)), '[0-9]{5}(-[0-9]{4})?') then left(trim(cast(z as varchar)), 5) end;

-- The reject of a canonical row: the first rule it breaks, {rule, col, val} (null when none). The four canonical
-- files (30_market_40..43) check the place columns the same way and in the same order, around checks of their own
-- (each a CASE of the caller's, null when the row passes it):
--   missing_value  address, city, state, zip (city and state where the file has them: has_city_state), then own_missing
--   too_long       address over 200 characters, city over 100, then own_too_long
--   unknown_state  state not two letters;  bad_zip  zip not 5 digits or ZIP+4 (canonical_zip)
--   then own_checks, the file's other columns
create or replace macro canonical_reject(address, city, state, zip, own_missing, own_too_long, own_checks, has_city_state := true) as
    case
        when address is null then {'rule': 'missing_value', 'col': 'address', 'val': null::varchar}
        when has_city_state and city is null then {'rule': 'missing_value', 'col': 'city', 'val': null}
        when has_city_state and state is null then {'rule': 'missing_value', 'col': 'state', 'val': null}
        when zip is null then {'rule': 'missing_value', 'col': 'zip', 'val': null}
        when own_missing is not null then own_missing
        when length(address) > 200 then {'rule': 'too_long', 'col': 'address', 'val': address}
        when length(city) > 100 then {'rule': 'too_long', 'col': 'city', 'val': city}
        when own_too_long is not null then own_too_long
        when not regexp_full_match(state, '[A-Za-z]{2}') then {'rule': 'unknown_state', 'col': 'state', 'val': state}
        when canonical_zip(zip) is null then {'rule': 'bad_zip', 'col': 'zip', 'val': zip}
        else own_checks
    end;

-- A canonical room count (beds, baths) of 0 is unknown: its repair {rule, col, val} (null when the count is not 0).
-- Every native adapter reads a 0 count as unknown (Denver BED_RMS, Sacramento, Philadelphia), whatever the type: a
-- studio's 0 cannot be told from a blank written 0. sales.csv and parcels.csv (30_market_40, 41) null it by this rule.
create or replace macro canonical_zero_is_unknown(col, n, txt) as
    case when n = 0 then {'rule': 'zero_is_unknown', 'col': col, 'val': cast(txt as varchar)} end;

-- A canonical value written in another case than the format's, read in the format's case and the row kept, as a
-- repair {rule, col, val, to} (null when the file wrote it so, or the value read is not `known`: then the caller's
-- not_in_list or unknown_state decides). One rule for every such respelling: a word of a list column ("SFR", "Condo",
-- "Warranty") is read in lower case, rule `lower_cased`; a state code ("wa", "Ny") in upper case, rule `upper_cased`.
-- Never silent: a meta.repairs row, detail `<column>=<the file's value> -> <the value read>` (README "Canonical format").
create or replace macro canonical_respelled(col, written, known, read) as
    case when known and written <> read
         then {'rule': case when read = lower(written) then 'lower_cased' else 'upper_cased' end, 'col': col, 'val': cast(written as varchar), 'to': read} end;
create or replace macro canonical_lower_cased(col, written, known) as canonical_respelled(col, written, known, lower(written));
-- the state as the canonical files read it: two letters in upper case (a real code is checked by the row contracts)
create or replace macro canonical_upper_cased_state(state) as
    canonical_respelled('state', state, regexp_full_match(state, '[A-Za-z]{2}'), upper(state));

-- A canonical value written in another form than the format's whose reading is unambiguous, read so and the row kept,
-- as a repair {rule, col, val, to} (null when the file wrote the format's form or the value cannot be read: then the
-- caller's not_a_number, not_a_date or bad_zip decides). Never silent, as canonical_respelled (review 25 #2, #3):
--   number_unformatted  an amount or area with a thousands separator or a dollar sign (canonical_plain_number,
--                       warehouse/macros.sql): `sale_price=$295,000 -> 295000`
--   date_zero_padded    a date without its zeros: `sale_date=2023-9-5 -> 2023-09-05`
--   zip_plus4_dropped   a ZIP+4 read as its 5 digits (canonical_zip): `zip=06405-1234 -> 06405`
create or replace macro canonical_read_as(rule, col, written, read) as
    case when read is not null and cast(written as varchar) <> cast(read as varchar)
         then {'rule': rule, 'col': col, 'val': cast(written as varchar), 'to': cast(read as varchar)} end;
create or replace macro canonical_number_read(col, written) as
    canonical_read_as('number_unformatted', col, written, canonical_plain_number(written));
create or replace macro canonical_date_read(col, written, d) as
    canonical_read_as('date_zero_padded', col, written, strftime(d, '%Y-%m-%d'));
create or replace macro canonical_zip_read(written) as canonical_read_as('zip_plus4_dropped', 'zip', written, canonical_zip(written));

-- Arm's-length price floor: a recorded price below it is no market price (a $0 or $1 transfer, a family deed, a
-- placeholder such as Sacramento's 4,897). Used by the one arm's-length rule, 30_market_45_sale_flags.sql.
create or replace macro nominal_price_floor() as 10000;

-- ---------------------------------------------------------------- canonical tables

create or replace table sales (
    sale_id varchar not null,
    source varchar not null,
    parcel_id varchar,
    address varchar,
    unit varchar,
    city varchar,
    state_code varchar,
    zip varchar,
    sale_date date not null,
    sale_price double not null,
    list_price double,
    list_date date,
    property_type varchar not null,
    beds double,
    baths double,
    sqft double,
    year_built integer,
    condition varchar,
    lat double,
    lng double,
    buyer_name varchar,
    seller_name varchar,
    -- is_arms_length: set for every row by 30_market_45_sale_flags.sql (the one rule, warehouse/docs/market.md),
    -- from the flags below; the adapters leave it null and record what the rule reads (price, parties, codes, keys)
    is_arms_length boolean,
    buyer_is_investor boolean,
    -- added columns
    year_renovated integer,      -- last renovation year when the source has it (King County yr_renovated)
    file varchar,                -- source file (relative name) and its line, for tracing a row back
    line bigint,
    -- what the arm's-length rule reads, as the source recorded it (null when the source has no such field)
    document_id varchar,         -- the deed's document number: Denver reception number, Philadelphia book and page,
                                 -- Connecticut town + list year + serial number
    deed_type varchar,           -- the instrument code (Denver: WD, SW, PR, TR, BS, QC, AF, ...)
    non_use_code varchar,        -- the assessor's non-use code (Connecticut: "01 - Family", "14 - Foreclosure", ...)
    block_key varchar,           -- the tax block (NYC borough-block): the package key of a source naming neither deed nor buyer
    assessed_value double,       -- the assessor's value of the property on the source's roll (Philadelphia OPA market_value,
                                 -- assessment date 2022-05-24; Connecticut Assessed Value, 70% of the town's appraisal on
                                 -- the row's grand list), the numerator of the sale-to-assessment ratio
    -- flags set by 30_market_45_sale_flags.sql (kept in the warehouse, left out of every market figure)
    recorded_date date,          -- the day the deed was recorded, when the source gives it beside the sale date (Denver RECEPTION_DATE)
    non_arms_length_reason varchar,  -- nominal_price | related_parties | deed_type | non_use_code | pass_through | double_close | assessment_ratio (the first that applies)
    is_portfolio boolean not null default false,  -- one deed over several parcels, its total price on each
    portfolio_parcels integer,   -- parcels on that deed (null when not a portfolio)
    is_duplicate boolean not null default false,  -- the same sale recorded again (a later copy of duplicate_of)
    duplicate_of varchar         -- sale_id of the copy that is kept
);

-- Repairs: source values changed by a rule the source's own notes justify (Philadelphia's two-digit years, ...),
-- one row per repaired value, counted in the build report. Filled by the adapters.
create schema if not exists meta;
create table if not exists meta.repairs (stage varchar, source varchar, file varchar, line bigint, rule varchar, detail varchar);
delete from meta.repairs where stage = 'intermediate';

-- The place of each parcel parcels.csv lists (its first line per parcel_id), as the file wrote it: a sale of
-- sales.csv that leaves address, city, state or zip empty takes each from here by its parcel_id (a deed file keyed by
-- parcel; 30_market_40_canonical_sales.sql). Filled by 30_market_39_canonical_parcel_places.sql when parcels.csv is
-- present; empty otherwise. `file` and `line` are that parcels.csv row's. Each value a sale takes from here is recorded in
-- int_market_canonical_place_fills (the sales.csv row, the column, the parcels.csv row), so the property lineage cites
-- the parcels.csv line the value was read at, not the sales.csv line that left it empty.
create or replace table int_market_canonical_parcel_places (parcel_id varchar, address varchar, city varchar, state varchar, zip varchar, file varchar, line bigint);
create or replace table int_market_canonical_place_fills (file varchar, line bigint, field varchar, parcel_file varchar, parcel_line bigint);

create or replace table parcels (
    parcel_id varchar,
    source varchar not null,
    address varchar,
    unit varchar,
    city varchar,
    state_code varchar,
    zip varchar,
    property_type varchar,
    beds double,
    baths double,
    sqft double,
    year_built integer,
    lat double,
    lng double,
    owner_name varchar,
    -- added columns
    last_sale_date date,
    last_sale_price double,
    file varchar,
    line bigint
);

create or replace table permits (
    permit_id varchar not null,
    source varchar not null,
    address varchar,
    zip varchar,
    city varchar,
    state_code varchar,
    issue_date date not null,
    permit_type varchar not null,
    valuation double,
    lat double,
    lng double,
    -- added columns
    parcel_id varchar,
    description varchar,         -- the source's own permit type text
    building_use varchar,        -- 'residential' / 'nonresidential' from the source's own words; null: it cannot tell
    zip_imputed boolean not null default false,  -- zip assigned from the nearest ZCTA centroid
    file varchar,
    line bigint
);

-- What each permit file declares about itself, one row per permit source, inserted by its adapter beside its
-- permits (30_market_20 / 21 / 42): date_word, what its dates are ('applied': the day an application was entered;
-- 'issued'), and the area the source covers (area_kind 'county' with a county FIPS, or 'place' with a Census place
-- GEOID; null: it declares none and its area is inferred from its permits, 30_market_98_permit_area.sql). Read by
-- the permit area and the research index (live/research/permit-counts-build.ts permitSources): one declaration each.
create or replace table permit_sources (
    source varchar primary key,
    date_word varchar not null,
    area_kind varchar,
    area_code varchar,
    area_name varchar
);

create or replace table distress (
    distress_id varchar not null,
    source varchar not null,
    parcel_id varchar,
    address varchar,
    city varchar,
    state_code varchar,
    zip varchar,
    kind varchar not null,
    filing_date date not null,
    amount double,
    -- added columns
    docket_type varchar,         -- the source's own type of the case's last docket row (Allegheny)
    status varchar,              -- 'active' / 'closed' (discontinued, dismissed, satisfied, sold...); null: the source does not say
    outcome varchar,             -- a closed case's outcome: discontinued, dismissed, satisfied, terminated, sheriff_sale, commissioner_sale
    status_date date,            -- the date the case closed: the closing docket row's (Allegheny), the commissioner sale's (Louisville)
    sale_date date,              -- the foreclosure auction (commissioner) sale's date, where the source records it (Louisville)
    sale_price double,           -- that sale's price; null where the source gives none (35 Louisville filings)
    lat double,
    lng double,
    file varchar,
    line bigint
);

-- Housing units per ZCTA (ACS B25001_001E), filled by 30_market_50_housing_units.sql when ACS is present.
create or replace table int_market_housing_units (zip varchar, housing_units double);

-- City display name and market tier per (state, city slug), filled by 30_market_9x steps.
create or replace table int_market_city_tiers (state_code varchar, city_slug varchar, city_name varchar, market_tier varchar, tier_source varchar);

-- The part of a consolidated city a sale lies in, as its source records it (NYC's BOROUGH: a sale's `city` is the
-- municipality, New York; city_part is Brooklyn, Queens, ...), filled by the adapters. The city markets (trends,
-- investor overview, 30-day direction) count such a sale in its city and in its part (warehouse/docs/market.md).
create or replace table int_market_city_parts (sale_id varchar, state_code varchar, city_part varchar);

-- The neighbourhood a sale lies in, as its source names it (NYC's NEIGHBORHOOD, the Department of Finance's names:
-- ASTORIA, WILLIAMSBURG-NORTH, UPPER EAST SIDE (59-79)), filled by the adapters. The research index reads it
-- (live/research/build.ts): a neighbourhood named alone is answered from its own sales and its zips.
create or replace table int_market_neighborhoods (sale_id varchar, state_code varchar, city_part varchar, neighborhood varchar);

-- The source files whose residential sales carry no subtype (Connecticut's 2022 extract: "Residential" only), so
-- their sfr is every residential sale, condos and 2-4 family houses too; filled by the adapters. The trends count
-- such sales per month (market_monthly.untyped_count) and say so (warehouse/docs/market.md).
create or replace table int_market_untyped_files (source varchar, file varchar);

-- ---------------------------------------------------------------- ids and small helpers

-- A stable row id: "<source>:<file name>:<n>" (unique per source, traceable to the file line): n is the data row for
-- the native sources, the file line for the canonical files (the line meta.rejects, meta.repairs and `line` give).
create or replace macro market_row_id(src, file, rn) as
    src || ':' || regexp_extract(cast(file as varchar), '[^/]+$') || ':' || cast(rn as varchar);

-- A property's identity (issue 22; warehouse/docs/market.md): the source's own parcel id where it has one, else the
-- normalised street line and unit within the zip when that line names a lot (street_line_names_lot: "PARADISE DR"
-- does not); null when neither is known. property_id() is its stable public id,
-- the same across builds while the identity holds: 16 hex digits of its sha256. Every table and live module that
-- names a property (properties, valuation's subject, autocomplete) calls these two, so the ids agree.
-- The normalised street line is computed once per row (a lambda over a one-element list) and only when a zip is
-- known: each macro call expands inline, and calling normalize_address twice made this 3-4x slower (issue 22).
-- NYC: a co-op's apartments share one tax lot (the building's; "CONDO COOPS" share a condominium unit lot), and so do
-- a market's stalls, so the unit a row records is part of the identity, compared without punctuation ('2-G' = '2G'):
-- one property per (lot, unit); a row without a unit names the lot itself (warehouse/docs/property.md, "Identity").
create or replace macro property_identity(src, parcel_id, address, unit, zip) as
    case when nullif(trim(cast(parcel_id as varchar)), '') is not null then src || '|parcel|' || trim(cast(parcel_id as varchar))
            || case when src = 'nyc' and unit is not null
                    then coalesce('|' || nullif(regexp_replace(upper(cast(unit as varchar)), '[^A-Z0-9]', '', 'g'), ''), '') else '' end
         when address is not null and zip5(zip) is not null then
            list_transform([normalize_address(address)], n -> case when n is not null and street_line_names_lot(n)
                then src || '|addr|' || zip5(zip) || '|' || n || coalesce('|' || coalesce(normalize_unit(unit), address_unit(address)), '') end)[1]
    end;
create or replace macro property_id(src, parcel_id, address, unit, zip) as
    left(sha256(property_identity(src, parcel_id, address, unit, zip)), 16);

-- A number that means "unknown" when zero or negative (sqft 0, beds 0, year 0, cost 0).
create or replace macro positive_or_null(x) as case when x > 0 then x else null end;

-- Redfin zip snapshots (days on market, sale-to-list), filled by 30_market_60_redfin.sql when present.
-- redfin_property_type: Redfin's own type of the row (only the 2025-05 capture kept it; null = not recorded, and then
-- unknown: the other captures' rows of one zip and period differ in type, SOURCE.md)
create or replace table int_market_redfin_zip (zip varchar, period_end date, snapshot_month varchar, median_dom double, avg_sale_to_list_ratio double, homes_sold double,
    redfin_property_type varchar);

-- Which Redfin rows may stand for a comps window: redfin_stands_for (warehouse/macros.sql), read by mart_comps.
