// The owner fields of GET /v1/property for Philadelphia OPA parcels (`owner_type`, `absentee_owner`), recomputed from
// the RAW roll with csv-parse by warehouse/docs/property.md ("owner_type", "absentee_owner"), no build table or macro.
// The owner's row: the parcel's newest row (by sale date, then the later line) naming an owner (owner_1, owner_2);
// its name is the two joined. Its type by whole words of the name upper-cased, periods and apostrophes dropped and
// every other character but letters, digits and & a space (a comma parts words): government, bank, nonprofit (never an
// LLC or LP), trust, corporate (an entity word of market.md "Investor classifier"), else individual, in that order.
// Absentee: the row's mailing street, normalised (market.md "Normalisation": one space, the last word its USPS
// suffix; a trailing unit dropped, a direction word its letter, a pre-directional on one side only ignored), is not
// its location's, or its mailing zip is not its zip; null without a mailing street.
import { rawRows, type RawRow } from '../../scripts/raw-lines.ts';
import { STREET_SUFFIXES } from '../../warehouse/address.ts';
import { SHARED_DATA } from './paths.ts';
import { rawSale } from './oracle-raw-sale-rows.ts';

export const OPA_FILE = 'philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz';
const words = (ws: string[]): RegExp => new RegExp(` (${ws.join('|')}) `);
// property.md's words, one list per type
const GOVERNMENT = words(['CITY OF', 'COUNTY OF', 'STATE OF', 'CITY AND COUNTY', 'COMMONWEALTH', 'UNITED STATES', 'SECRETARY OF', 'HUD',
  'VETERANS AFFAIRS', 'HOUSING AUTHORITY', 'REDEVELOPMENT AUTHORITY', 'LAND BANK', 'SCHOOL DISTRICT', 'BOARD OF EDUCATION', 'AUTHORITY', 'AUTH']);
const LENDER = ['BANK', 'BANCORP', 'NATIONAL ASSOCIATION', 'N A', 'NA', 'FSB', 'MORTGAGE', 'SAVINGS'];
const BANK = words([...LENDER.filter((w) => w !== 'NA'), 'CREDIT UNION', 'FEDERAL NATIONAL MORTGAGE', 'FANNIE MAE', 'FEDERAL HOME LOAN', 'FREDDIE MAC']);
const NONPROFIT = words(['CHURCH', 'CHURCHES', 'MINISTRIES', 'MINISTRY', 'DIOCESE', 'ARCHDIOCESE', 'CONGREGATION', 'SYNAGOGUE', 'MOSQUE',
  'MASJID', 'TABERNACLE', 'CATHEDRAL', 'HABITAT FOR HUMANITY', 'SCHOOL', 'ACADEMY', 'UNIVERSITY', 'COLLEGE', 'HOSPITAL', 'FOUNDATION',
  'NONPROFIT', 'YMCA', 'YWCA']);
const PARTNERSHIP = words(['LLC', 'L L C', 'LP', 'LLP', 'LLLP']);
const TRUST = words(['TRUST', 'TRUSTS', 'TRUSTEE', 'TRUSTEES', 'TR', 'TRS', 'REVOCABLE', 'IRREVOCABLE']);
const ENTITY = words(['LLC', 'L L C', 'LC', 'PLLC', 'INC', 'INCORPORATED', 'CORP', 'CORPORATION', 'CO', 'COMPANY', 'LP', 'LLP', 'LLLP',
  'LTD', 'LIMITED', 'TRUST', 'TRUSTS', 'TRUSTEE', 'TRUSTEES', 'HOLDING', 'HOLDINGS', 'PROPERTY', 'PROPERTIES', 'INVESTMENT',
  'INVESTMENTS', 'INVESTOR', 'INVESTORS', 'CAPITAL', 'PARTNER', 'PARTNERS', 'PARTNERSHIP', 'REALTY', 'REAL ESTATE', 'GROUP', 'FUND',
  'FUNDS', 'VENTURE', 'VENTURES', 'ENTERPRISE', 'ENTERPRISES', 'ASSOCIATES', 'DEVELOPMENT', 'DEVELOPERS', 'HOMES', 'BUILDERS',
  'CONSTRUCTION', 'MANAGEMENT', 'ACQUISITION', 'ACQUISITIONS', 'EQUITY', 'EQUITIES', 'REIT', 'ASSETS', 'RENTALS', 'LEASING',
  'OPENDOOR', 'OFFERPAD', 'INVITATION HOMES', 'AMERICAN HOMES 4 RENT', 'PROGRESS RESIDENTIAL', 'TRICON', 'ZILLOW']);

const clean = (n: string): string => ` ${n.toUpperCase().replaceAll(',', ' ').replace(/[.']/g, '').replace(/[^A-Z0-9&]+/g, ' ').trim()} `;

/** The owner type of a name by property.md's rule. "USA" alone names a government only when the name is no bank's or
 *  company's (review 5B: "HSBC BANK USA NATIONAL ASSOCIATION TR"). */
export function ownerType(name: string | null): string | null {
  if (!name?.trim()) return null;
  const c = clean(name);
  if (GOVERNMENT.test(c) || (/ USA /.test(c) && !ENTITY.test(c) && !words(LENDER).test(c))) return 'government';
  if (BANK.test(c)) return 'bank';
  if (NONPROFIT.test(c) && !PARTNERSHIP.test(c)) return 'nonprofit';
  if (TRUST.test(c)) return 'trust';
  return ENTITY.test(c) ? 'corporate' : 'individual';
}

const DIRECTIONS: Record<string, string> = { NORTH: 'N', SOUTH: 'S', EAST: 'E', WEST: 'W' };
/** A street line normalised (market.md "Normalisation"), its pre-directional apart. */
function street(s: string): { num: string; dir: string; rest: string } {
  let w = s.toUpperCase().replace(/[^A-Z0-9#/&\- ]/g, ' ').replace(/\s+/g, ' ').trim()
    .replace(/\s+(APT|APARTMENT|UNIT|STE|SUITE|NO|#)\s*#?\s*[A-Z0-9-]+$/, '').split(' ').map((x) => DIRECTIONS[x] ?? x);
  const last = w.at(-1)!;
  if (w.length > 1 && STREET_SUFFIXES[last]) w = [...w.slice(0, -1), STREET_SUFFIXES[last]];
  const dir = ['N', 'S', 'E', 'W'].includes(w[1] ?? '') && w.length > 2 ? w[1]! : '';
  return { num: w[0] ?? '', dir, rest: w.slice(dir ? 2 : 1).join(' ') };
}
function sameLine(a: string, b: string): boolean {
  const x = street(a), y = street(b);
  return x.num === y.num && x.rest === y.rest && (x.dir === y.dir || !x.dir || !y.dir);
}

export interface RawOwner { parcel_id: string; owner: string | null; owner_type: string | null; absentee_owner: boolean | null }

/** Every OPA parcel's owner fields by the rule above. */
export function rawOpaOwners(): Map<string, RawOwner> {
  const rows = new Map<string, { r: RawRow; line: number }[]>();
  rawRows(SHARED_DATA, OPA_FILE).forEach((r, i) => { const id = r['parcel_number']?.trim(); if (id) rows.set(id, [...(rows.get(id) ?? []), { r, line: i + 2 }]); });
  const out = new Map<string, RawOwner>();
  for (const [id, rs] of rows) {
    const name = (r: RawRow): string | null => [r['owner_1'], r['owner_2']].map((x) => x?.trim() ?? '').filter(Boolean).join(' ') || null;
    const own = rs.filter((x) => name(x.r)).sort((a, b) => rawSale(OPA_FILE, b.r).date.localeCompare(rawSale(OPA_FILE, a.r).date) || b.line - a.line)[0]?.r;
    if (!own) { out.set(id, { parcel_id: id, owner: null, owner_type: null, absentee_owner: null }); continue; }
    const mail = own['mailing_street']?.trim() ?? '';
    const absentee = mail ? !sameLine(mail, own['location'] ?? '') || (own['mailing_zip'] ?? '').trim().slice(0, 5) !== (own['zip_code'] ?? '').trim().slice(0, 5) : null;
    out.set(id, { parcel_id: id, owner: name(own), owner_type: ownerType(name(own)), absentee_owner: absentee });
  }
  return out;
}

// the deeds file only: the characteristics file holds the same deeds (by reception number) with SCHEDNUM damaged to an
// Excel float (SOURCE.md), so it names no parcel of its own
const DENVER_FILES = ['denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz'];

/** Every Denver parcel's (SCHEDNUM) owner type: its newest deed naming a grantee (sale date, then the later reception
 *  number of the day, then the earlier file and the later line: property.md "Which value wins" 1, 3 and 4), the
 *  grantee's type; Denver records no mailing address, so absentee is null. */
export function rawDenverOwners(): Map<string, RawOwner> {
  const best = new Map<string, { key: string; owner: string }>();
  DENVER_FILES.forEach((file, f) => rawRows(SHARED_DATA, file).forEach((r, i) => {
    const id = r['SCHEDNUM']?.trim(), owner = r['GRANTEE']?.trim();
    const date = rawSale(file, r).date;
    if (!id || !owner || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return;
    // a sort key, larger wins: the date, the reception number, the earlier file, the later line
    const key = `${date}|${(r['RECEPTION_NUM'] ?? '').trim().padStart(12, '0')}|${1 - f}|${String(i).padStart(7, '0')}`;
    if (!best.has(id) || best.get(id)!.key < key) best.set(id, { key, owner });
  }));
  return new Map([...best].map(([id, b]) => [id, { parcel_id: id, owner: b.owner, owner_type: ownerType(b.owner), absentee_owner: null }]));
}
