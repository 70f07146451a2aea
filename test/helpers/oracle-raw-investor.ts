// market.md "Investor classifier" written out again as SQL over a raw name, without the build's macros
// (`is_investor_name`, warehouse/macros.sql): used by test/pipelines/investor-raw-philadelphia.test.ts.

const ENTITY = ['LLC', 'L L C', 'LC', 'PLLC', 'INC', 'INCORPORATED', 'CORP', 'CORPORATION', 'CO', 'COMPANY', 'LP', 'LLP', 'LLLP',
  'LTD', 'LIMITED', 'TRUSTS?', 'TRUSTEES?', 'HOLDINGS?', 'PROPERTY', 'PROPERTIES', 'INVESTMENTS?', 'INVESTORS?', 'CAPITAL',
  'PARTNERS?', 'PARTNERSHIP', 'REALTY', 'REAL ESTATE', 'GROUP', 'FUNDS?', 'VENTURES?', 'ENTERPRISES?', 'ASSOCIATES',
  'DEVELOPMENT', 'DEVELOPERS', 'HOMES', 'BUILDERS', 'CONSTRUCTION', 'MANAGEMENT', 'ACQUISITIONS?', 'EQUITY', 'EQUITIES', 'REIT',
  'ASSETS', 'RENTALS', 'LEASING', 'OPENDOOR', 'OFFERPAD', 'INVITATION HOMES', 'AMERICAN HOMES 4 RENT', 'PROGRESS RESIDENTIAL',
  'TRICON', 'ZILLOW'];
// governments and authorities, GSEs and lenders, churches and charities, universities, hospitals, utilities, personal
// estate-planning trusts and a decedent's estate (not "REAL ESTATE OF"). market.md names categories, not every word:
// the utility words (PECO ENERGY COMPANY, a utility, buys in Philadelphia), a charity's (HABITAT FOR HUMANITY), a
// church's and a college's are written out here as the categories read
const NOT_INVESTOR = ['CITY OF', 'COUNTY OF', 'STATE OF', 'COMMONWEALTH', 'UNITED STATES', 'SECRETARY OF', 'HUD',
  'HOUSING AUTHORITY', 'REDEVELOPMENT AUTHORITY', 'LAND BANK', 'SCHOOL DISTRICT', 'FANNIE MAE', 'FREDDIE MAC', 'BANK', 'N A',
  'FSB', 'MORTGAGE', 'SAVINGS', 'CREDIT UNION', 'CHURCH', 'MINISTRIES', 'DIOCESE', 'CHARITY', 'CHARITIES', 'HABITAT FOR HUMANITY', 'UNIVERSITY', 'COLLEGE',
  'HOSPITAL', 'ELECTRIC', 'ENERGY', 'UTILITY', 'UTILITIES', 'AUTHORITY', 'REVOCABLE',
  'IRREVOCABLE', 'LIVING TRUST', 'FAMILY TRUST'];

const words = (list: string[]): string => `'(^|[^A-Z0-9])(${list.join('|')})($|[^A-Z0-9])'`;

/** The name as the classifier reads it: upper case, periods and apostrophes removed, a comma a space. */
const normal = (col: string): string => `regexp_replace(regexp_replace(upper(${col}), '[.'']', '', 'g'), ',', ' ', 'g')`;

/** SQL: true for an investor's name, false for a person's or a non-investor entity's, null when the name is unknown. */
export const rawIsInvestor = (col: string): string => `case when nullif(trim(coalesce(${col}, '')), '') is null then null
  else regexp_matches(${normal(col)}, ${words(ENTITY)})
       and not regexp_matches(${normal(col)}, ${words(NOT_INVESTOR)})
       and not regexp_matches(regexp_replace(${normal(col)}, 'REAL ESTATE OF', '', 'g'), '(^|[^A-Z0-9])ESTATE OF($|[^A-Z0-9])') end`;
