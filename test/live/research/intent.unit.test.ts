// Unit tests of question understanding (live/research/intent.ts, places.ts) over a small hand-made gazetteer, so each
// rule of warehouse/docs/research.md ("Entity rules", intents, months, property type, ranking) is checked on its
// own: the expected readings below are the documented rules applied by hand, not outputs copied from the code.
import { describe, expect, test } from 'vitest';
import { detectIntents, understand } from '../../../live/research/intent.ts';
import { stateNameOf, STATE_CODES, type Gazetteer } from '../../../live/research/places.ts';
import type { City } from '../../../live/research/data.ts';

const city = (name: string, state: string, population: number, zips: string[] = []): City => ({ name, state, population, zips, county_fips: null });
const CITIES: City[] = [
  city('Portland', 'OR', 650_000), city('Portland', 'ME', 68_000), city('Springfield', 'IL', 114_000), city('Springfield', 'MO', 169_000),
  city('Seattle', 'WA', 750_000, ['98103']), city('Nashville', 'TN', 690_000, ['37206']), city('Kansas City', 'MO', 508_000),
  city('Deposit', 'NY', 1_500), city('Mobile', 'AL', 187_000), city('Denver', 'CO', 715_000), city('Salem', 'OR', 175_000),
  city('Tinytown', 'TX', 800), city('Austin', 'TX', 960_000), city('New York', 'NY', 8_300_000), city('Los Angeles', 'CA', 3_800_000),
  city('Boise', 'ID', 235_000), city('Twin Oaks', 'TX', 900), city('Kent', 'WA', 135_000), city('Kent', 'OH', 28_000), city('Eugene', 'OR', 176_000), city('Oregon', 'WI', 11_000),
  city('Cook', 'MN', 500), city('Lancaster', 'CA', 173_000), city('Lancaster', 'PA', 58_000), city('Columbus', 'OH', 905_000),
  city('Columbus', 'IN', 50_000), city('Pittsburgh', 'PA', 302_000), city('Pittsburg', 'CA', 76_000),
  city('Brazil', 'IN', 8_000), city('New Britain', 'CT', 73_000), city('Paris', 'TX', 25_000),
];
function gazetteer(): Gazetteer {
  const byName = new Map<string, City[]>();
  for (const c of CITIES) byName.set(c.name.toLowerCase(), [...(byName.get(c.name.toLowerCase()) ?? []), c]);
  for (const list of byName.values()) list.sort((a, b) => b.population - a.population);
  return {
    stateNames: new Map(), citiesByName: byName, maxCityWords: 3,
    countiesByName: new Map([['king county', [{ fips: '53033', name: 'King County', state: 'WA', population: 2_260_000 }, { fips: '48269', name: 'King County', state: 'TX', population: 300 }]],
      ['cook county', [{ fips: '17031', name: 'Cook County', state: 'IL', population: 5_200_000 }]],
      ['kings county', [{ fips: '36047', name: 'Kings County', state: 'NY', population: 2_700_000 }]]]),
    zips: new Map([['98103', { city: 'Seattle', state: 'WA' }], ['37206', { city: 'Nashville', state: 'TN' }], ['73301', { city: '', state: 'TX' }],
      ['11215', { city: 'Brooklyn', state: 'NY', county_fips: '36047' }], ['11432', { city: 'Jamaica', state: 'NY', county_fips: '36081' }]]),
  };
}
const GAZ = gazetteer();
const u = (q: string, ctx = {}) => understand(q, ctx, GAZ);
const places = (q: string, ctx = {}) => u(q, ctx).targets.map((t) => [t.state, t.city ?? '', t.zip ?? '', t.area ? `[${t.area.name} ${t.area.county_fips}]` : ''].filter(Boolean).join(' '));

describe('state names and codes', () => {
  test('the 50 states and DC, with their names', () => {
    expect(STATE_CODES.size).toBe(51);
    expect(stateNameOf('NM')).toBe('New Mexico');
    expect(stateNameOf('DC')).toBe('District of Columbia');
    expect(stateNameOf('XX')).toBe('XX');
  });

  test('full names in any case; the longest name wins ("West Virginia" is not Virginia)', () => {
    expect(places('eviction notice in west virginia')).toEqual(['WV']);
    expect(places('Eviction notice in West Virginia and Virginia')).toEqual(['WV', 'VA']);
    expect(places('NEW HAMPSHIRE EVICTION')).toEqual(['NH']);
    expect(places('north carolina vs south carolina deposits')).toEqual(['NC', 'SC']);
  });

  test('codes need capitals or a lower case that spells no word; ambiguous codes need a cue (comma, city, a preposition before or at the end, a list, the very end)', () => {
    // h63ask: a lower-case code that spells no word is its state anywhere ("is nj tenant friendly"); before, [] here
    expect(places('eviction notice in tx today')).toEqual(['TX']);
    expect(places('eviction notice in tx')).toEqual(['TX']); // a lower-case code ending the question after "in" (not "in or", "in me")
    expect(places('eviction notice in TX today')).toEqual(['TX']);
    expect(places('Is it OK to raise rent in Texas?')).toEqual(['TX']);
    expect(places('eviction notice in OK?')).toEqual(['OK']);
    expect(places('eviction notice in OK for tenants')).toEqual(['OK']); // issue 20: a code after "in" stands as a place
    expect(places('Salem, OR rent control')).toEqual(['OR Salem']);
    expect(places('OR and WA deposit limits')).toEqual(['OR', 'WA']);
    expect(places('security deposit limit MA')).toEqual(['MA']);
    expect(places('security deposit limit MA.')).toEqual(['MA']);
    // review 19 (C20): an upper-case code ending a legal question after its topic is its state; lower case, or a yes/no question's last word, is not
    expect(places('security deposit limit ME')).toEqual(['ME']);
    expect(places('security deposit limit me')).toEqual([]);
    expect(places('is a 3 day notice OK?')).toEqual([]);
    expect(places('deposits in PA vs NJ')).toEqual(['PA', 'NJ']);
    expect(places('HOW LONG IS AN EVICTION IN TX')).toEqual(['TX']); // all caps: every code needs its cue
    expect(places('HOW LONG IS AN EVICTION TX')).toEqual([]);
    // the subject of "is X landlord friendly" (review 4B: "Is CO landlord friendly" had no place)
    expect(places('Is CO landlord friendly')).toEqual(['CO']);
    expect(places('Is OK tenant friendly?')).toEqual(['OK']);
    expect(places('Is it OK landlord wise?')).toEqual([]);
  });

  test('an ambiguous code right after a city of that state is its state; elsewhere it stays a word (finding 1)', () => {
    expect(places('Is Lancaster PA landlord friendly?')).toEqual(['PA Lancaster']);
    expect(places('Is Portland ME landlord friendly?')).toEqual(['ME Portland']);
    expect(places('investor activity in Portland ME')).toEqual(['ME Portland']);
    expect(places('Is Columbus IN landlord friendly?')).toEqual(['IN Columbus']);
    expect(places('Is Salem OR rent controlled?')).toEqual(['OR Salem']);
    // a close misspelling of a city of that state: the code still counts, and the city is read as the closest name
    expect(places('Pittsburg PA foreclosures')).toEqual(['PA Pittsburgh']);
    // no city of that state before the code: a word, as before
    expect(places('Is Austin OR Boise cheaper for landlords?')).toEqual(['TX Austin', 'ID Boise']);
    expect(places('Tell ME about eviction notice IN Texas')).toEqual(['TX']);
    expect(places('Can I evict a tenant in Texas OR California')).toEqual(['TX', 'CA']);
    expect(places('security deposit limit ME')).toEqual(['ME']); // review 19 (C20): a legal question's topic, then the code
    expect(places('is Denver OK for landlords')).toEqual(['CO Denver']);
  });

  test('DC spellings, and the ambiguous Washington (noted, and read as DC when the context state is DC)', () => {
    for (const q of ['rent control in Washington DC', 'rent control in Washington, D.C.', 'District of Columbia eviction notice', 'eviction notice in DC', 'rent control in D.C.']) {
      expect(places(q), q).toEqual(['DC']);
    }
    expect(places('eviction notice in Washington state')).toEqual(['WA']);
    const w = u('eviction notice in Washington');
    expect(places('eviction notice in Washington')).toEqual(['WA']);
    // said first as a reading, not a deep-only note (review 23)
    expect(w.notes).toEqual([]);
    expect(w.readAs).toEqual(['"Washington" as Washington State (say "Washington DC" for the District of Columbia)']);
    const dc = u('eviction notice in Washington', { state: 'DC' });
    expect(dc.targets.map((t) => t.state)).toEqual(['DC']);
    expect(dc.notes).toEqual(['"Washington" read as Washington, DC (from the context state)']);
  });

  test('"Kansas City" is a city, not Kansas; a state name followed by "City" that is no city stays the state', () => {
    expect(places('Kansas City eviction notice')).toEqual(['MO Kansas City']);
    expect(places('Texas City eviction notice')).toEqual(['TX']);
  });
});

describe('cities', () => {
  test('a capitalised name; its state from an adjacent state, else a state named elsewhere, else the largest namesake', () => {
    expect(places('rent control in Portland')).toEqual(['OR Portland']);
    expect(places('rent control in Portland, Maine')).toEqual(['ME Portland']);
    expect(places('Springfield, Illinois foreclosure')).toEqual(['IL Springfield']);
    expect(places('foreclosure in Springfield')).toEqual(['MO Springfield']);
    expect(places('Is Springfield landlord friendly compared with the rest of Illinois?')).toEqual(['IL Springfield']);
    expect(places('rent control in Portland', { state: 'ME' })).toEqual(['ME Portland']);
  });

  test('a large city (100k+) in lower case counts, a small one does not', () => {
    expect(places('rent control in seattle')).toEqual(['WA Seattle']);
    expect(places('eviction rules in tinytown')).toEqual([]);
    expect(places('eviction rules in Tinytown')).toEqual(['TX Tinytown']);
  });

  test('a small town at the start of a sentence needs a state or 20k people; a big one does not', () => {
    expect(places('Tinytown eviction rules')).toEqual([]);
    expect(places('Tinytown, TX eviction rules')).toEqual(['TX Tinytown']);
    expect(places('Austin eviction rules')).toEqual(['TX Austin']);
    expect(places('Twin Oaks eviction rules')).toEqual(['TX Twin Oaks']); // multi-word names count at a sentence start
    expect(places('New York eviction rules')).toEqual(['NY']); // a state name before a city of the same name
  });

  test('common words that are town names need capitals, no sentence start, and their state named', () => {
    expect(places('Deposit limits in New York?')).toEqual(['NY']);
    expect(places('security deposit rules in New York')).toEqual(['NY']);
    expect(places('rules in Deposit, NY')).toEqual(['NY Deposit']);
    expect(places('Evictions near Mobile in Alabama')).toEqual(['AL Mobile']);
    expect(places('Evictions near Deposit')).toEqual([]);
    // a town word (Mobile) capitalised just after "near", "in"...: the town (town-words.test.ts), in lower case not
    expect(places('Evictions near Mobile')).toEqual(['AL Mobile']);
    expect(places('Evictions near mobile')).toEqual([]);
    expect(places('Evictions near mobile in Alabama')).toEqual(['AL']);
  });

  test('a city qualified by its own state is one place; a zip with its city is one place', () => {
    expect(places('Seattle, Washington rent control')).toEqual(['WA Seattle']);
    expect(places('rehab activity in Nashville 37206')).toEqual(['TN Nashville 37206']);
    expect(places('Seattle vs Portland rent control')).toEqual(['WA Seattle', 'OR Portland']);
  });

  test('a name that is both a state and a city is the state', () => {
    expect(places('eviction notice in Oregon')).toEqual(['OR']);
  });

  test('a city chosen among sizeable namesakes with no state said is reported in readAs; a state said, or no rival, is not', () => {
    const springfields: [string, string, number][] = [['Springfield', 'MO', 169000], ['Springfield', 'IL', 114000], ['Springfield', 'MA', 155000]];
    const gaz: Gazetteer = { ...GAZ, citiesByName: new Map([...GAZ.citiesByName, ['springfield', springfields.map(([name, state, population]) => ({ name, state, population, zips: [], county_fips: '' }))]]) };
    const read = (q: string) => understand(q, {}, gaz).readAs;
    expect(read('rent control in Springfield')).toEqual(['"Springfield" as Springfield, MO (the most populous of 3 US places of that name; name the state for another)']);
    expect(read('rent control in Springfield, Illinois')).toEqual([]);
    expect(read('rent control in Seattle')).toEqual([]);
  });

  test('nicknames: NYC, LA (not "LA," after a city), SF, Philly', () => {
    expect(places('rent control in NYC')).toEqual(['NY New York']);
    expect(places('rent control in New York City')).toEqual(['NY New York']);
    expect(places('eviction in LA')).toEqual(['CA Los Angeles']);
    expect(places('eviction in SF')).toEqual(['CA San Francisco']);
    expect(places('eviction in philly')).toEqual(['PA Philadelphia']);
  });

  test('misspelled cities: a large city (or one of a named state) within the typo budget, said as read; short or common words are not cities', () => {
    expect(places('comps in Seatle')).toEqual(['WA Seattle']);
    expect(u('comps in Seatle').readAs).toEqual(['"Seatle" as Seattle, WA (the closest city name)']);
    expect(places('eviction notice in Nashvile')).toEqual(['TN Nashville']);
    expect(places('Los Angles rent control')).toEqual(['CA Los Angeles']);
    // a state named: its own cities, small ones too
    expect(places('eviction notice in Springfeld, Illinois')).toEqual(['IL Springfield']);
    expect(places('rent control in Eugne, Oregon')).toEqual(['OR Eugene']);
    // four letters is too short to read as a misspelling; ordinary words after "in" are not cities
    expect(places('comps in Kenn')).toEqual([]);
    expect(places('rent control in general')).toEqual([]);
    expect(places('what is the notice in writing')).toEqual([]);
    expect(places('is it a good deal')).toEqual([]);
  });

  test('more nicknames: St Pete, Vegas, NOLA; the short ones (Indy, OKC, ATL, SLC) in capitals only', () => {
    expect(places('flood risk in St Pete')).toEqual(['FL St. Petersburg']);
    expect(places('eviction notice in Vegas')).toEqual(['NV Las Vegas']);
    expect(places('rent control in nola')).toEqual(['LA New Orleans']);
    expect(places('investors in OKC')).toEqual(['OK Oklahoma City']);
    expect(places('landlord rules in ATL')).toEqual(['GA Atlanta']);
    expect(places('comps in SLC')).toEqual(['UT Salt Lake City']);
    expect(places('is Indy landlord friendly')).toEqual(['IN Indianapolis']);
    expect(places('an indy film about eviction in Ohio')).toEqual(['OH']);
  });

  test("New York City's boroughs are New York, NY with the borough's county as an area", () => {
    expect(places('rent control in manhattan')).toEqual(['NY New York [Manhattan 36061]']);
    expect(places('home prices in Brooklyn')).toEqual(['NY New York [Brooklyn 36047]']);
    expect(places('flood risk in the Bronx')).toEqual(['NY New York [the Bronx 36005]']);
    expect(places('rehab in Staten Island')).toEqual(['NY New York [Staten Island 36085]']);
    expect(places('comps in Queens, NY')).toEqual(['NY New York [Queens 36081]']);
    // "queens" in lower case is a plain word
    expect(places('drag queens in Austin')).toEqual(['TX Austin']);
    // two boroughs are two places
    expect(places('compare Brooklyn and Queens home prices')).toEqual(['NY New York [Brooklyn 36047]', 'NY New York [Queens 36081]']);
    // a borough named with one of its zips is that zip; with another borough's zip, both
    expect(places('comps in Brooklyn 11215')).toEqual(['NY Brooklyn 11215']);
    expect(places('comps in Brooklyn vs 11432')).toEqual(['NY New York [Brooklyn 36047]', 'NY Jamaica 11432']);
  });
});

describe('zips, context and places outside coverage', () => {
  test('five digits standing alone are zips; not money, not part of a longer number, not a percentage', () => {
    expect(places('comps for 98103')).toEqual(['WA Seattle 98103']);
    expect(places('comps for 98103-1234')).toEqual(['WA Seattle 98103']);
    expect(places('comps for 73301')).toEqual(['TX 73301']);
    for (const q of ['a $12345 house in Texas', 'a 123456 thing in Texas', 'costs 12,345 in Texas', '12345% in Texas', 'a 98103.5 value in Texas']) {
      expect(u(q).targets.map((t) => t.zip), q).toEqual([undefined]);
    }
    const unknown = u('comps for 00001');
    expect(unknown.targets).toEqual([]);
    expect(unknown.unknown).toEqual(['zip 00001']);
  });

  test('context fills in only when the question names no place', () => {
    expect(u('eviction notice', { zip: '37206' }).targets).toEqual([{ state: 'TN', city: 'Nashville', zip: '37206', from: 'context' }]);
    expect(u('eviction notice', { zip: '73301' }).targets).toEqual([{ state: 'TX', zip: '73301', from: 'context' }]);
    expect(u('eviction notice', { zip: '00001', state: 'TX' })).toMatchObject({ targets: [{ state: 'TX', from: 'context' }], unknown: ['zip 00001'] });
    expect(u('eviction notice', { city: 'Portland', state: 'ME' }).targets).toEqual([{ state: 'ME', city: 'Portland', from: 'context' }]);
    expect(u('eviction notice', { city: 'portland' }).targets).toEqual([{ state: 'OR', city: 'Portland', from: 'context' }]);
    expect(u('eviction notice', { city: 'Atlantis', state: 'TX' })).toMatchObject({ targets: [{ state: 'TX', from: 'context' }], unknown: ['Atlantis, TX'] });
    expect(u('eviction notice', { city: 'Atlantis' })).toMatchObject({ targets: [], unknown: ['Atlantis'] });
    expect(u('eviction notice', { state: 'TX' }).targets).toEqual([{ state: 'TX', from: 'context' }]);
    expect(u('eviction notice', { state: 'PR' }).targets).toEqual([]);
    expect(u('eviction notice in Ohio', { state: 'TX', zip: '37206' }).targets).toEqual([{ state: 'OH', from: 'query' }]);
  });

  test('territories and foreign places are named as not covered; a foreign question has no targets', () => {
    expect(u('rules in Puerto Rico').unknown).toEqual(['Puerto Rico']);
    expect(u('rules in the U.S. Virgin Islands').unknown).toEqual(['U.S. Virgin Islands']);
    const f = u('eviction notice in Texas and Ontario, Canada');
    expect(f.unknown).toEqual(['Ontario, Canada']);
    expect(f.targets).toEqual([]);
    expect(u('rent in mexico city').unknown).toEqual(['Mexico']);
    // review 31: "Sao Paulo Brazil" was Brazil, IN; "Koln Germany" no place named. Every foreign name is said, no US target
    for (const [q, names] of [['median home price in Sao Paulo Brazil', ['Sao Paulo', 'Brazil']], ['median home price in Köln Germany', ['Koln', 'Germany']],
      ['house prices in Tokyo', ['Tokyo']], ['rent in New Zealand', ['New Zealand']]] as const) {
      const r = u(q);
      expect(r.unknown, q).toEqual(names);
      expect(r.targets, q).toEqual([]);
    }
    // a US town named like a country keeps its state; names US cities share stay US places
    expect(u('median price in Brazil, IN').targets).toEqual([expect.objectContaining({ state: 'IN', city: 'Brazil' })]);
    expect(u('median price in New Britain, CT').unknown).toEqual([]);
    expect(u('median price in Paris, TX').unknown).toEqual([]);
  });

  test('several places are a comparison; so are comparison words with one place', () => {
    expect(u('eviction notice in Texas and Ohio').comparison).toBe(true);
    expect(u('eviction notice in Texas').comparison).toBe(false);
    expect(u('compare eviction notice in Texas').comparison).toBe(true);
    expect(u('Texas vs. the rest').comparison).toBe(true);
    expect(u('the same place twice: Texas and Texas').targets).toHaveLength(1);
  });

  test('the topic text has the place names taken out', () => {
    const t = u('eviction notice in Texas for 98103').topicText;
    expect(t).not.toMatch(/Texas|98103/);
    expect(t).toMatch(/eviction notice in/);
  });
});

describe('counties', () => {
  test('a county named for a per-zip market topic is the area of its zips; for any other topic the state named stays the place', () => {
    const area = (q: string) => u(q).targets.map((t) => `${t.state} ${t.area?.name ?? ''} ${t.area?.county_fips ?? ''}`.trim());
    expect(area('Which zip in King County has the highest price per square foot?')).toEqual(['WA King County 53033']);
    expect(area('comps in King County, Texas')).toEqual(['TX King County 48269']);
    expect(area('rehab momentum in Cook County')).toEqual(['IL Cook County 17031']);
    expect(area('What are the tax lien rules in Cook County Illinois?')).toEqual(['IL']);
    expect(area('price per sqft in Kent County')).toEqual([]);
  });

  test('every county named is read, in the order written; a borough\'s county beside a borough is that borough too', () => {
    const area = (q: string) => u(q).targets.map((t) => `${t.state} ${t.area?.name ?? ''}`.trim());
    // before (review 31): the first county alone, the second "answered per question"
    expect(area('King County WA vs Cook County IL median price')).toEqual(['WA King County', 'IL Cook County']);
    expect(area('rehab in Cook County and King County')).toEqual(['IL Cook County', 'WA King County']);
    // before: Queens alone, Brooklyn "read alone but not beside the other places"
    expect(area('Queens vs Kings County median price')).toEqual(['NY Queens', 'NY Brooklyn']);
  });

  test('a town name followed by County/Parish/Borough is a county, not the town: the state named is the place', () => {
    expect(places('What are the tax lien rules in Cook County Illinois?')).toEqual(['IL']);
    expect(places('Tax deed sales in Kent County, Ohio')).toEqual(['OH']);
    expect(places('Portland Borough eviction rules')).toEqual([]);
    expect(places('Eviction notice in Cook, Minnesota')).toEqual(['MN Cook']); // the town itself still reads
  });
});

describe('ranking, months and property type', () => {
  test('"which states" questions without a place rank: max, min, or none', () => {
    expect(u('Which states have the longest eviction timeline?').ranking).toBe('max');
    expect(u('which state has the shortest redemption period').ranking).toBe('min');
    expect(u('Which states have no rent control?').ranking).toBe('none');
    expect(u('Which states don\'t require a just cause?').ranking).toBe('none');
    expect(u('eviction timeline').ranking).toBeNull();
  });

  test('"which states" naming a recorded kind list that kind: tax sale type, foreclosure type, where rent control can apply', () => {
    expect(u('which states allow rent control')).toMatchObject({ ranking: 'category', category: ['statewide', 'local'] });
    expect(u('Which states have statewide rent control?')).toMatchObject({ ranking: 'category', category: ['statewide'] });
    expect(u('What states are tax deed states?')).toMatchObject({ ranking: 'category', category: ['deed'] });
    expect(u('tax lien states')).toMatchObject({ ranking: 'category', category: ['lien'] });
    expect(u('list the states with hybrid tax sales')).toMatchObject({ ranking: 'category', category: ['hybrid'] });
    expect(u('judicial foreclosure states')).toMatchObject({ ranking: 'category', category: ['judicial'] });
    expect(u('which states allow non-judicial foreclosure')).toMatchObject({ ranking: 'category', category: ['non-judicial'] });
    // no kind named, or a place named: not a list
    expect(u('which states are lien or deed states')).toMatchObject({ ranking: 'category', category: ['lien', 'deed', 'hybrid'] }); // both kinds: every state, each with its kind
    expect(u('Is Florida a tax deed state?').ranking).toBeNull();
    // best / worst / most ... states: a ranking; for tenants, landlord friendliness runs the other way
    expect(u('best states for landlords')).toMatchObject({ intents: ['landlord_friendliness'], ranking: 'max' });
    expect(u('best states for renters')).toMatchObject({ intents: ['landlord_friendliness'], ranking: 'min' });
    expect(u('most tenant friendly states')).toMatchObject({ intents: ['landlord_friendliness'], ranking: 'min' });
    expect(u('worst states for landlords')).toMatchObject({ intents: ['landlord_friendliness'], ranking: 'min' });
    expect(u('best states for tax lien investing')).toMatchObject({ intents: ['tax_sale'], ranking: 'max' });
    expect(u('Which states have the longest eviction timeline, Texas or Ohio?').ranking).toBeNull(); // places named
  });

  test('months: a number of months between 3 and 24, or the year/quarter phrases; otherwise none', () => {
    expect(u('comps over the last 6 months in Austin').months).toBe(6);
    expect(u('comps over 18-month window').months).toBe(18);
    expect(u('comps over 3 mos').months).toBe(3);
    expect(u('comps over 24 months').months).toBe(24);
    expect(u('comps over 2 months').months).toBeNull();
    expect(u('comps over 25 months').months).toBeNull();
    expect(u('comps over the past year').months).toBe(12);
    expect(u('year-over-year price change').months).toBe(12);
    expect(u('investor activity in the last two years').months).toBe(24);
    expect(u('investor activity in the last quarter').months).toBe(3);
    expect(u('investor activity').months).toBeNull();
  });

  test('property type from the words; single-family by default', () => {
    expect(u('condo prices in Austin').propertyType).toBe('condo');
    // townhouses are single-family sales in these records (Denver's rowhouses, Philadelphia's), said (type-words.ts)
    expect(u('townhome comps').propertyType).toBe('sfr');
    expect(u('townhome comps').readAs.join()).toMatch(/counted among single-family sales/);
    expect(u('two family homes in queens').propertyType).toBe('multi');
    expect(u('2 to 4 family homes').propertyType).toBe('multi');
    expect(u('duplex comps').propertyType).toBe('multi');
    expect(u('multi-family comps').propertyType).toBe('multi');
    expect(u('vacant land prices').propertyType).toBe('land');
    expect(u('retail space prices').propertyType).toBe('commercial');
    expect(u('house prices').propertyType).toBe('sfr');
  });
});

describe('intents', () => {
  const is = (q: string) => detectIntents(q).sort();
  test('eviction: notice, timeline, both when neither is said, just cause', () => {
    expect(is('How many days notice to evict in Texas?')).toEqual(['eviction_notice']);
    expect(is('How long does an eviction take?')).toEqual(['eviction_timeline']);
    expect(is('eviction rules')).toEqual(['eviction_notice', 'eviction_timeline']);
    expect(is('pay or quit notice for late rent')).toEqual(['eviction_notice']);
    expect(is('Is just cause required to evict?')).toEqual(['just_cause']);
    expect(is('what notice period applies to a tenant eviction')).toEqual(['eviction_notice']);
    expect(is('eviction process timeline')).toEqual(['eviction_timeline']);
    expect(is('notice about the weather')).toEqual([]); // notice without rent, tenant or landlord
  });

  test('tax sales, surplus and redemption', () => {
    expect(is('tax lien interest rate')).toEqual(['tax_sale']);
    expect(is('Is it a tax deed state?')).toEqual(['tax_sale']);
    expect(is('surplus proceeds after a tax sale')).toEqual(['surplus']);
    expect(is('surplus proceeds and the interest rate')).toEqual(['surplus', 'tax_sale']);
    expect(is('redemption period after a tax sale')).toEqual(['redemption']);
    expect(is('redemption period and interest on a tax lien')).toEqual(['redemption', 'tax_sale']);
  });

  test('foreclosure, rent control, adverse possession, deposits', () => {
    expect(is('Is it a judicial foreclosure state')).toEqual(['foreclosure']);
    expect(is('non-judicial power of sale')).toEqual(['foreclosure']);
    expect(is('tax foreclosure auction')).toEqual(['tax_sale']);
    expect(is('Does the state preempt rent control?')).toEqual(['rent_control']);
    expect(is('how much can I raise the rent')).toEqual(['rent_control']);
    expect(is('squatters rights')).toEqual(['adverse_possession']);
    expect(is('security deposit limit')).toEqual(['security_deposit']);
  });

  test('market intents: comps, rehab, investor, location, legal risk, landlord friendliness', () => {
    expect(is('price per square foot')).toEqual(['comps']);
    // understood, a price level is the trends shard's median sale price; per sqft it is the comps figure
    expect(u('median sale price')).toMatchObject({ intents: ['trends'], priceLevel: true });
    expect(u('how much does a house cost')).toMatchObject({ intents: ['trends'], priceLevel: true });
    expect(u('median sale price per sqft')).toMatchObject({ intents: ['comps'], priceLevel: false });
    expect(u('median sale price and days on market')).toMatchObject({ intents: ['comps'], priceLevel: false });
    expect(u('are median home prices going up')).toMatchObject({ intents: ['trends'], priceLevel: false });
    expect(is('days on market')).toEqual(['comps']);
    expect(is('renovation permits issued')).toEqual(['rehab']);
    expect(is('are investors buying here')).toEqual(['investor']);
    expect(is('flip activity')).toEqual(['investor']);
    expect(is('pre-foreclosure pipeline')).toEqual(['investor']);
    expect(is('flood zone')).toEqual(['location']);
    expect(is('superfund sites nearby')).toEqual(['location']);
    expect(is('legal risk score')).toEqual(['legal_risk']);
    expect(is('is it landlord-friendly')).toEqual(['landlord_friendliness']);
    expect(is('best states for landlords')).toEqual(['landlord_friendliness']);
    expect(is('which is better for landlords')).toEqual(['landlord_friendliness']);
    expect(is('compare landlord laws')).toEqual(['landlord_friendliness']);
    expect(is('where is it easiest for landlords')).toEqual(['landlord_friendliness']);
    expect(is('cheapest zip codes')).toEqual(['comps']);
    expect(is('most expensive neighborhoods')).toEqual(['comps']);
    expect(is('investor overview')).toEqual(['investor']);
    expect(is('what is the weather like')).toEqual([]);
  });

  test('the low end asked ("cheapest zips", "lowest risk") is marked, so a city summary details its lowest zip', () => {
    expect(u('cheapest zip codes in Seattle, WA').lowEnd).toBe(true);
    expect(u('which Seattle zips have the lowest flood risk').lowEnd).toBe(true);
    expect(u('most expensive neighborhoods in Seattle, WA').lowEnd).toBe(false);
    expect(u('home prices per sqft in Seattle, WA').lowEnd).toBe(false);
  });

  test('mortgage redemption is not recorded: it becomes foreclosure with a gap said', () => {
    const r = u('Can I redeem my home after a mortgage foreclosure in Texas?');
    expect(r.intents).toEqual(['foreclosure']);
    expect(r.gaps).toEqual(['We record redemption periods for tax sales only, not the right to redeem after a mortgage foreclosure']);
    const t = u('redemption after a tax foreclosure in Texas');
    expect(t.intents).toContain('redemption');
    expect(t.gaps).toEqual([]);
  });

  test('a foreclosure duration is not recorded: the type is answered with the gap said', () => {
    const r = u('How long does foreclosure take in Florida?');
    expect(r.intents).toEqual(['foreclosure']);
    expect(r.gaps).toEqual(["We record whether a state's mortgage foreclosure goes through the courts, not how long it takes"]);
    expect(u('Is foreclosure judicial in Florida?').gaps).toEqual([]);
    // an eviction's timeline is recorded: no gap
    expect(u('How long does an eviction take in Florida?').gaps).toEqual([]);
  });

  test('a notice for another ground than nonpayment is not recorded: the nonpayment notice is answered with the gap said', () => {
    const gap = 'We record the notice to pay rent or move out (nonpayment), not the notice for a lease violation or for ending a tenancy';
    for (const q of ["what's the eviction notice for lease violation in Florida", 'eviction notice to end a month-to-month tenancy in Texas', 'how many days notice to evict for a lease breach in CA']) {
      const r = u(q);
      expect(r.intents, q).toContain('eviction_notice');
      expect(r.gaps, q).toEqual([gap]);
    }
    expect(u('eviction notice for nonpayment in Florida').gaps).toEqual([]);
    expect(u('eviction notice when rent is unpaid after a lease violation in Florida').gaps).toEqual([]); // nonpayment asked too
  });

  test('removing a squatter is not recorded: the adverse possession period is answered with the gap said', () => {
    const r = u('how long to get a squatter out in California');
    expect(r.intents).toEqual(['adverse_possession']);
    expect(r.gaps).toEqual(['We record how long a squatter must hold a property to claim it by adverse possession, not how long removing a squatter takes']);
    expect(u('can I evict squatters in Texas').gaps.length).toBe(1);
    expect(u('squatters rights in Texas').gaps).toEqual([]);
  });

  test('what homes sold for is a price level', () => {
    expect(u('what did houses sell for in 98103')).toMatchObject({ intents: ['trends'], priceLevel: true });
    expect(u('what do condos go for in 98103')).toMatchObject({ intents: ['trends'], priceLevel: true });
  });

  test("a deposit's return rules are not recorded: the cap is answered with the gap said", () => {
    const r = u('How many days does a landlord have to return a security deposit in Washington?');
    expect(r.intents).toEqual(['security_deposit']);
    expect(r.gaps).toEqual(['We record the cap on security deposits, not the rules for returning them (deadlines, deductions, interest)']);
    expect(u('security deposit limit in Texas').gaps).toEqual([]);
  });

  test('a market asked about as a whole: its median sale price and change, and its investor activity', () => {
    for (const q of ["How's the Seattle housing market?", 'real estate market in 98103', 'is it a good time to buy in Denver', 'market conditions in Austin']) {
      expect(u(q), q).toMatchObject({ intents: ['trends', 'investor'], priceLevel: true, notRecorded: null });
    }
    expect(u('What are the investor trends in Nashville?').intents).toEqual(['investor']);
  });

  test('topics no source records are said, not searched: property tax rates, rents, schools and crime', () => {
    expect(u('property taxes in Texas').notRecorded).toMatch(/^We record tax sale rules .* not property tax rates/);
    expect(u('what is the homestead exemption in Florida').notRecorded).toMatch(/not property tax rates/);
    expect(u('average rent in Seattle').notRecorded).toMatch(/^We record sales, not rents/);
    expect(u('Is Philadelphia a good market for rentals?').notRecorded).toMatch(/not rents/);
    expect(u('how are schools in Bellevue').notRecorded).toMatch(/no school, crime/);
    // a recorded topic is answered even with such a word in it
    expect(u('tax lien interest rate in Florida')).toMatchObject({ intents: ['tax_sale'], notRecorded: null });
    expect(u('can a landlord raise the rent in Oregon').notRecorded).toBeNull();
  });

  test('evicting without cause, for no reason: the just-cause rule', () => {
    expect(u('Can a landlord evict without cause in Oregon?').intents).toEqual(['just_cause']);
    expect(u('can I evict a tenant for no reason in California').intents).toEqual(['just_cause']);
    expect(u('no-cause eviction in Washington').intents).toEqual(['just_cause']);
  });
});

describe('review 2: states written short, counties in lower case, a market asked how it is doing', () => {
  test('AP-style and dotted state forms are the state; a word that is also a short form is not', () => {
    for (const [q, st] of [['landlord friendliness in Calif', 'CA'], ['eviction notice in Mass.', 'MA'], ['eviction notice N. Carolina', 'NC'],
      ['security deposit limit s dakota', 'SD'], ['foreclosure in Fla', 'FL'], ['Is Penn. a tax lien state?', 'PA'], ['eviction in W. Va.', 'WV'], ['deposit cap in N.J.', 'NJ']] as const) {
      expect(u(q).targets.map((t) => t.state), q).toEqual([st]);
    }
    expect(u('rent is $2,000/mo. in Austin, what is the eviction notice').targets).toEqual([expect.objectContaining({ state: 'TX', city: 'Austin' })]);
    expect(u('a mass eviction notice in Texas').targets.map((t) => t.state)).toEqual(['TX']);
  });

  test('a county named in lower case is the county; a borough\'s county is the borough', () => {
    expect(u('home prices in king county').targets).toEqual([expect.objectContaining({ state: 'WA', area: { name: 'King County', county_fips: '53033' } })]);
    expect(u('price trend in Kings County NY').targets).toEqual([expect.objectContaining({ state: 'NY', city: 'New York', area: expect.objectContaining({ name: 'Brooklyn', county_fips: '36047' }) })]);
    expect(u('price trend in the county').targets).toEqual([]);
  });

  test('a city the context\'s state has no place of is read in its own state, and the answer says so', () => {
    const r = u('eviction notice in Seattle', { state: 'OR' });
    expect(r.targets).toEqual([expect.objectContaining({ state: 'WA', city: 'Seattle' })]);
    expect(r.readAs).toEqual(['"Seattle" as Seattle, WA (no place of that name in OR, the context\'s state)']);
    expect(u('eviction notice in Seattle', { state: 'WA' }).readAs).toEqual([]);
    expect(u('eviction notice in Salem', { state: 'OR' }).readAs).toEqual([]);
  });

  test('"how is the <place> market doing", "<place> market": a market overview (price and investor activity)', () => {
    for (const q of ['How is the NYC market doing?', 'NYC market', 'How is the Denver market doing?', "what's the Seattle market like"]) {
      expect(u(q).intents, q).toEqual(['trends', 'investor']);
    }
  });
});

describe('a window said of market questions only', () => {
  test('days or months of a legal question are its rule\'s, not a market window (review r24 follow-up)', () => {
    for (const q of ['can a landlord evict in texas in the last 30 days of a lease', 'eviction in texas after 2 months of unpaid rent']) {
      expect(u(q).readAs.filter((r) => /window/.test(r)), q).toEqual([]);
    }
    expect(u('seattle median price last 30 days').readAs.some((r) => r.startsWith('"last 30 days" without its window'))).toBe(true);
    expect(u('seattle median price last 90 days').months).toBe(3);
  });
});
