// The words and mixes the synthetic generator (scripts/generate-synthetic.ts) draws from: street names and suffixes,
// people and entity names, property types and their price factors, conditions, permit types and distress kinds.
// The shares follow the real sources in ../shared/data (the generator's header says which).

export const STREETS = ['MAIN', 'OAK', 'PINE', 'MAPLE', 'CEDAR', 'ELM', 'WASHINGTON', 'LAKE', 'HILL', 'PARK', 'WALNUT', 'CHESTNUT',
  'SPRUCE', 'BIRCH', 'WILLOW', 'CHERRY', 'HICKORY', 'JEFFERSON', 'LINCOLN', 'MADISON', 'MONROE', 'JACKSON', 'ADAMS',
  'FRANKLIN', 'HAMILTON', 'GRANT', 'WILSON', 'CHURCH', 'SCHOOL', 'MILL', 'SPRING', 'RIVER', 'BROAD', 'HIGH', 'CENTER',
  'UNION', 'MARKET', 'WATER', 'BRIDGE', 'FOREST', 'MEADOW', 'VALLEY', 'SUNSET', 'HIGHLAND', 'RIDGE', 'GROVE', 'ORCHARD',
  'PROSPECT', 'PLEASANT', 'FAIRVIEW', 'LAUREL', 'HOLLY', 'ASPEN', 'POPLAR', 'LAKEVIEW', 'HILLCREST', 'RIVERSIDE',
  'WOODLAND', 'GREENWOOD', 'BROOKSIDE', 'KING', 'QUEEN', 'CHAPEL', 'STATION', 'HARBOR', 'BAY', 'CANYON', 'MESA', 'VISTA',
  'SUMMIT', 'PRAIRIE', 'FIELD', 'CARDINAL', 'EAGLE', 'FOX', 'ROSE', 'TULIP', 'JOHNSON', 'SMITH', 'WILLIAMS', 'BROWN',
  'DAVIS', 'GARCIA', 'TAYLOR', 'MOORE', 'CLARK', 'LEWIS', 'WALKER', 'YOUNG', 'ALLEN', 'WRIGHT', 'SCOTT', 'GREEN',
  '1ST', '2ND', '3RD', '4TH', '5TH', '6TH', '7TH', '8TH', '9TH', '10TH', '11TH', '12TH'];
export const SUFFIXES: [string, number][] = [['ST', 28], ['AVE', 18], ['RD', 12], ['DR', 12], ['LN', 7], ['CT', 6], ['BLVD', 3],
  ['PL', 4], ['WAY', 4], ['CIR', 3], ['TER', 2], ['PKWY', 1], ['TRL', 2]];
export const LAST = ['SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', 'RODRIGUEZ', 'MARTINEZ',
  'HERNANDEZ', 'LOPEZ', 'GONZALEZ', 'WILSON', 'ANDERSON', 'THOMAS', 'TAYLOR', 'MOORE', 'JACKSON', 'MARTIN', 'LEE',
  'PEREZ', 'THOMPSON', 'WHITE', 'HARRIS', 'SANCHEZ', 'CLARK', 'RAMIREZ', 'LEWIS', 'ROBINSON', 'WALKER', 'YOUNG', 'ALLEN',
  'KING', 'WRIGHT', 'SCOTT', 'TORRES', 'NGUYEN', 'HILL', 'FLORES', 'GREEN', 'ADAMS', 'NELSON', 'BAKER', 'HALL', 'RIVERA',
  'CAMPBELL', 'MITCHELL', 'CARTER', 'ROBERTS', 'TRUSTY', 'INCE', 'CORPUZ', 'LLOYD'];
export const FIRST = ['JAMES', 'MARY', 'ROBERT', 'PATRICIA', 'JOHN', 'JENNIFER', 'MICHAEL', 'LINDA', 'DAVID', 'ELIZABETH',
  'WILLIAM', 'BARBARA', 'RICHARD', 'SUSAN', 'JOSEPH', 'JESSICA', 'THOMAS', 'SARAH', 'CHRISTOPHER', 'KAREN', 'DANIEL',
  'LISA', 'MATTHEW', 'NANCY', 'ANTHONY', 'BETTY', 'MARK', 'SANDRA', 'WEI', 'PRIYA', 'JOSE', 'MARIA'];
export const ENTITY_WORDS = ['SUMMIT', 'KEYSTONE', 'BLUE OAK', 'RED BRICK', 'HARBOR', 'PINNACLE', 'CORNERSTONE', 'MAPLE LEAF',
  'NORTHSTAR', 'GOLDEN GATE', 'IRON HORSE', 'SILVER LAKE', 'EVERGREEN', 'LIBERTY', 'PIONEER', 'CARDINAL', 'GRANITE'];
export const ENTITY_SUFFIXES = ['LLC', 'LLC', 'LLC', 'HOLDINGS LLC', 'PROPERTIES LLC', 'INVESTMENTS LLC', 'CAPITAL GROUP LLC',
  'REALTY INC', 'HOMES INC', 'PARTNERS LP', 'VENTURES LLC', 'ACQUISITIONS LLC', 'LAND TRUST', 'EQUITY FUND LP'];
export const TYPES: [string, number][] = [['sfr', 64], ['condo', 18], ['multi', 10], ['land', 5], ['commercial', 3]];
export const TYPE_PPSF: Record<string, number> = { sfr: 1, condo: 1.08, multi: 0.85, land: 1, commercial: 0.95 };
export const CONDITIONS: [string, number][] = [['good', 60], ['fair', 22], ['excellent', 10], ['poor', 8]];
export const PERMIT_TYPES: [string, number, number][] = [ // type, weight, median valuation USD
  ['renovation', 30, 35000], ['repair', 35, 9000], ['addition', 8, 60000], ['new', 12, 320000], ['demolition', 3, 18000], ['other', 12, 6000]];
export const DISTRESS_KINDS: [string, number][] = [['pre_foreclosure', 60], ['tax_delinquent', 30], ['lien_foreclosure', 10]];
