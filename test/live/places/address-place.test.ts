// A full address's place read by the project's own place names (live/places/address-place.ts over the build's place
// resolver, warehouse/address.ts splitPlace): a state in any form (code, name, misspelling, short form), a city of that
// state or the zip's own, a zip, with or without commas; never a street's own word. Review: "2251 League St,
// Philadelphia, Pennsylvania 19146", "... Philadelphia PA" and "..., Phila., Penn." kept their place and matched nothing.
import { beforeAll, describe, expect, test } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { normalizeAddress, splitPlace, type PlaceNames } from '../../../warehouse/address.ts';
import { addressPlaceNames } from '../../../live/places/address-place.ts';
import { loadResolver } from '../../../live/places/endpoint.ts';

let philly: PlaceNames, bronx: PlaceNames, none: PlaceNames;
beforeAll(() => {
  const resolver = loadResolver(buildDir());
  expect(resolver).not.toBeNull();
  philly = addressPlaceNames(resolver, { city: 'Philadelphia', state: 'PA' });
  bronx = addressPlaceNames(resolver, { city: 'New York', state: 'NY' });
  none = addressPlaceNames(resolver, null);
});
const street = (typed: string, names: PlaceNames): string => normalizeAddress(splitPlace(typed, names).line).street;

describe('the place is left out, in every form', () => {
  test('a state spelled out, misspelled, abbreviated or short-formed, with or without commas, with or without the zip', () => {
    for (const typed of ['2251 League St, Philadelphia, Pennsylvania 19146', '2251 League St, Philadelphia, Pennsylvannia 19146',
      '2251 League St Philadelphia PA', '2251 League St Philadelphia PA 19146', '2251 League St, Phila., Penn.', '2251 League St Philadelphia, PA',
      '2251 League St Philadelphia Pennsylvania', '2251 League St Pennsylvania 19146', '2251 League St PA 19146', '2251 League St 19146',
      '2251 League St Philadelphia', '2251 League St, Philadelphia, Penna. 19146-1234', '2251 Léague St, Philadélphia, PA']) {
      expect(street(typed, philly), typed).toBe('2251 LEAGUE ST');
    }
    expect(splitPlace('2251 League St Philadelphia PA 19146', philly).zip).toBe('19146');
    expect(splitPlace('2251 League St, Philadelphia, Pennsylvania 19147', philly).zip).toBe('19147');
    for (const typed of ['3301 Bronxwood Ave, Bronx, New York 10469', '3301 Bronxwood Ave Bronx NY 10469', '3301 Bronxwood Ave Bronx NY', '3301 Bronxwood Ave New York NY', '3301 Bronxwood Ave, Bronx, N.Y.']) {
      expect(street(typed, bronx), typed).toBe('3301 BRONXWOOD AVE');
    }
    expect(street('3526 High St, Sacramento, Calif.', none)).toBe('3526 HIGH ST');
    expect(street('3526 High St Sacramento Calif.', none)).toBe('3526 HIGH ST');
    expect(street('4000 Stone Way N Seattle WA 98103', none)).toBe('4000 STONE WAY N');
    expect(street('100 Broadway New York NY 10007', none)).toBe('100 BROADWAY');
    expect(normalizeAddress(splitPlace('170 West 23rd Street Apt 4M New York NY 10011', none).line)).toEqual({ street: '170 WEST 23RD ST', unit: '4M' });
    expect(normalizeAddress(splitPlace('12 Oak Ave Apt 4B Saint Louis MO', none).line)).toEqual({ street: '12 OAK AVE', unit: '4B' });
    expect(street('12 Oak Ct CT 06101', none)).toBe('12 OAK CT');
  });

  test('a street\'s own words stay: streets named for states and cities, a unit named like one, a direction or suffix that is a state code', () => {
    for (const [typed, want] of [['100 Washington St', '100 WASHINGTON ST'], ['1600 Pennsylvania Ave NW', '1600 PENNSYLVANIA AVE NW'],
      ['500 Virginia Ave', '500 VIRGINIA AVE'], ['100 Virginia', '100 VIRGINIA'], ['25 Indiana', '25 INDIANA'], ['12 Oak Ct', '12 OAK CT'],
      ['100 Main St NE', '100 MAIN ST NE'], ['100 Main St NE 19146', '100 MAIN ST NE'], ['1 Philadelphia Pike', '1 PHILADELPHIA PIKE'],
      ['100 W Virginia', '100 W VIRGINIA'], ['2 New York Ave', '2 NEW YORK AVE'], ['7 Texas', '7 TEXAS'], ['10 Colorado Blvd', '10 COLORADO BLVD'],
      ['100 Philadelphia', '100 PHILADELPHIA'], ['9 Maine St', '9 MAINE ST']] as const) {
      expect(street(typed, philly), typed).toBe(want);
    }
    expect(normalizeAddress(splitPlace('123 Main St Unit Indiana', philly).line)).toEqual({ street: '123 MAIN ST', unit: 'INDIANA' });
    expect(normalizeAddress(splitPlace('123 Main St, Unit B', philly).line)).toEqual({ street: '123 MAIN ST', unit: 'B' });
    expect(normalizeAddress(splitPlace('123 Main St Apt PA', philly).line)).toEqual({ street: '123 MAIN ST', unit: 'PA' });
    // another state's city is not the zip's: only after its state
    expect(street('2251 League St Pittsburgh', philly)).toBe('2251 LEAGUE ST PITTSBURGH');
    expect(street('2251 League St Pittsburgh PA', philly)).toBe('2251 LEAGUE ST');
  });
});
