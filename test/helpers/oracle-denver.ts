// Denver's deeds read from the RAW file (denver-real-property-sales) with the tests' own SQL, by the rules of
// warehouse/docs/market.md written out again (never the build's adapters, flags or macros): the investor overview
// (sales for value, the investor classifier on GRANTEE, investor flips) and the trends' months (arm's-length sales,
// median price, price per sqft from the characteristics file joined on reception number + PIN).
//   - a deed: residential class (R, H single-family; O, A, B condo), a readable sale date (SALE_YEAR + MDD);
//   - a sale for value: $10,000 or more, a deed for value (WD, SW, PR, TR, BS), grantor <> grantee (names compared
//     upper-cased, punctuation as spaces); a deed recorded twice (same parcel, date, price and buyer) counts once, the
//     copy kept being one that is a sale for value;
//   - arm's-length: a sale for value that is neither on a portfolio deed (two or more parcels, one date, one price, one
//     reception number or one buyer) nor a double closing's first leg (the buyer resells to another buyer by a sale
//     for value dated the same day, or later but recorded the same day; two legs of one date recorded on one day are
//     ordered by reception number, the earlier flagged);
//   - an investor: an entity word of the GRANTEE (whole words, commas as spaces, periods and apostrophes dropped) and no
//     government, lender, church, university, hospital, personal-trust or estate word ("Investor classifier").
import { dataFile, rawQuery } from './oracle-raw-comps.ts';

const SALES = 'denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz';
const CHARACTERISTICS = 'denver-real-property-sales/sales_with_residential_characteristics_2018-2019.csv.gz';
const party = (col: string): string => `nullif(trim(regexp_replace(upper(coalesce(${col}, '')), '[^A-Z0-9&]+', ' ', 'g')), '')`;
const words = (col: string): string => `' ' || trim(regexp_replace(regexp_replace(replace(upper(coalesce(${col}, '')), ',', ' '), '[.'']', '', 'g'), '[^A-Z0-9&]+', ' ', 'g')) || ' '`;
const ENTITY = 'LLC|L L C|LC|PLLC|INC|INCORPORATED|CORP|CORPORATION|CO|COMPANY|LP|LLP|LLLP|LTD|LIMITED|TRUSTS?|TRUSTEES?|HOLDINGS?|PROPERTY|PROPERTIES'
  + '|INVESTMENTS?|INVESTORS?|CAPITAL|PARTNERS?|PARTNERSHIP|REALTY|REAL ESTATE|GROUP|FUNDS?|VENTURES?|ENTERPRISES?|ASSOCIATES|DEVELOPMENT|DEVELOPERS'
  + '|HOMES|BUILDERS|CONSTRUCTION|MANAGEMENT|ACQUISITIONS?|EQUITY|EQUITIES|REIT|ASSETS|RENTALS|LEASING|OPENDOOR|OFFERPAD|TRICON|ZILLOW';
const NOT_INVESTOR = 'CITY OF|COUNTY OF|STATE OF|COMMONWEALTH|UNITED STATES|SECRETARY OF|HUD|HOUSING AUTHORITY|REDEVELOPMENT AUTHORITY|LAND BANK'
  + '|SCHOOL DISTRICT|FANNIE MAE|FEDERAL NATIONAL MORTGAGE|FREDDIE MAC|FEDERAL HOME LOAN|BANK|N A|FSB|MORTGAGE|SAVINGS|CREDIT UNION|CHURCH|UNIVERSITY'
  + '|HOSPITAL|REVOCABLE|IRREVOCABLE|LIVING TRUST|FAMILY TRUST';

/** The raw deeds kept once each, with `t` (sfr|condo), `sqft`, `forvalue`, `arms` and `investor` (CTEs ending in `deeds`). */
export const DENVER_DEEDS = () => `
  with raw as (
    select row_number() over () as line, trim(SCHEDNUM) as sched, trim(INSTRUMENT) as inst, trim(RECEPTION_NUM) as rec, trim(PIN) as pin,
      trim(CLASS) as cls, try_strptime(trim(SALE_YEAR) || lpad(trim(SALE_MONTHDAY), 4, '0'), '%Y%m%d')::date as d,
      try_strptime(trim(RECEPTION_DATE), '%Y%m%d')::date as rd, try_cast(SALE_PRICE as double) as p,
      ${party('GRANTOR')} as seller, ${party('GRANTEE')} as buyer, ${words('GRANTEE')} as bw
    from read_csv('${dataFile(SALES)}', all_varchar = true)),
  ch as (select trim(RECEPTION_NUM) as rec, trim(PIN) as pin, any_value(nullif(try_cast(AREA_ABG as double), 0)) as sqft
    from read_csv('${dataFile(CHARACTERISTICS)}', all_varchar = true) group by all),
  r as (select raw.*, case when cls in ('R', 'H') then 'sfr' else 'condo' end as t, ch.sqft,
      p >= 10000 and inst in ('WD', 'SW', 'PR', 'TR', 'BS') and coalesce(buyer, '') <> coalesce(seller, '#') as forvalue,
      regexp_matches(bw, ' (${ENTITY}) ') and not regexp_matches(bw, ' (${NOT_INVESTOR}) ')
        and not (regexp_matches(bw, ' ESTATE OF ') and not regexp_matches(bw, ' REAL ESTATE OF ')) as investor
    from raw left join ch using (rec, pin) where cls in ('R', 'H', 'O', 'A', 'B') and d is not null),
  u as (select * from (select *, row_number() over (partition by sched, d, p, buyer order by forvalue desc, rec desc) as k from r) where k = 1),
  portfolio as (select distinct a.line from u a join u b on a.d = b.d and a.p = b.p and a.sched <> b.sched and (a.rec = b.rec or a.buyer = b.buyer) where a.p >= 10000),
  legs as (select a.line as aline, c.line as cline, a.rec as arec, c.rec as crec, a.d as ad, c.d as cd, a.rd as ard, c.rd as crd
    from u a join u c on a.sched = c.sched and a.forvalue and c.forvalue and c.seller = a.buyer and c.buyer <> a.buyer and a.line <> c.line
    where c.d = a.d or (c.d > a.d and c.rd = a.rd)),
  first_legs as (select distinct case when cd = ad and crd = ard and crec < arec then cline else aline end as line from legs),
  deeds as (select u.*, forvalue and line not in (select line from portfolio) and line not in (select line from first_legs) as arms from u)`;

export interface DenverInvestor { months: number; sales_for_value: number; investors: number; rate: number; flips: number; days: number | null; margin: number | null }

/** The investor overview's figures over the `months` to `asOf` (unrounded): the purchase rate of the sales for value,
 *  and the investor flips (an investor's arm's-length purchase whose next arm's-length sale of the parcel, by date
 *  then reception number, comes 1 to 365 days later, in the window): median days held and median margin in %. */
export async function denverInvestor(asOf: string, months: number[]): Promise<DenverInvestor[]> {
  return rawQuery<DenverInvestor>(`${DENVER_DEEDS()},
    m(months) as (values ${months.map((n) => `(${n})`).join(', ')}),
    seq as (select *, lag(d) over w as d0, lag(p) over w as p0, lag(investor) over w as i0 from deeds where arms window w as (partition by sched order by d, rec)),
    rate as (select m.months, count(*)::int as sales_for_value, count(*) filter (where investor)::int as investors from deeds, m
      where forvalue and d > date '${asOf}' - to_months(m.months) and d <= date '${asOf}' group by m.months),
    flips as (select m.months, count(*)::int as flips, median(d - d0)::double as days, 100 * median((p - p0) / p0) as margin from seq, m
      where i0 and (d - d0) between 1 and 365 and d > date '${asOf}' - to_months(m.months) and d <= date '${asOf}' group by m.months)
    select months, sales_for_value, investors, 100.0 * investors / sales_for_value as rate, coalesce(flips, 0)::int as flips, days, margin
    from rate left join flips using (months) order by months`);
}

export interface DenverMonth { month: string; n: number; median_price: number | null; ppsf: number | null; investor_share: number | null }

/** A property type's arm's-length sales per month: the count, and (5 or more) the median price, the median price per
 *  sqft of those with a living area and the investor buyers' share in %. */
export async function denverMonths(type: 'sfr' | 'condo'): Promise<DenverMonth[]> {
  return rawQuery<DenverMonth>(`${DENVER_DEEDS()}
    select strftime(d, '%Y-%m') as month, count(*)::int as n,
      case when count(*) >= 5 then median(p) end as median_price,
      case when count(sqft) >= 5 then median(p / sqft) end as ppsf,
      case when count(*) >= 5 then 100.0 * count(*) filter (where investor) / count(*) end as investor_share
    from deeds where arms and t = '${type}' group by 1 order by 1`);
}
