// The owners of a place's properties, counted (POST /v1/research/query): "philly absentee owners", "how many out of
// state owners in philadelphia", "llc owned homes in 19104", "owner occupied homes denver". Only sources whose records
// name owners count them (owner-counts-build.ts: Philadelphia's OPA extract, Denver's deeds, a canonical file's
// owners), each as it names them, and the answer says what that is: an extract of the roll, or the latest buyer of the
// deeds its files hold; never the whole city's owners. Absentee and out of state are counted where a mailing address is
// recorded (Philadelphia); elsewhere said not recorded. A place no such source covers keeps the not-recorded answer
// (not-recorded.ts OWNERS_SAY), which names the places that have counts. Rules: warehouse/docs/research.md "Owners".
import { ADDRESS } from './street-line.ts';
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Composed } from './compose.ts';
import { placeName, plural, type Depth } from './facts.ts';
import { OWNERS_ASKED, OWNERS_SAY } from './not-recorded.ts';
import { slug } from '../../warehouse/layout.ts';
import type { Target } from './place-words.ts';
import { OWNER_TYPES, type OwnerCount, type OwnerType } from './owner-types.ts';

const TYPE_WORDS: Record<OwnerType, [one: string, many: string]> = {
  individual: ['individual', 'individuals'], corporate: ['company (an LLC, corporation or partnership)', 'companies (LLCs, corporations, partnerships)'],
  trust: ['trust', 'trusts'], bank: ['bank', 'banks'], government: ['government body', 'government bodies'], nonprofit: ['nonprofit', 'nonprofits'],
};
/** A share to one decimal; a count above 0 that rounds to 0.0% is "under 0.1%". */
const share = (n: number, of: number): string => (n > 0 && (1000 * n) / of < 0.5 ? 'under 0.1%' : `${(Math.round((1000 * n) / of) / 10).toFixed(1)}%`);
const of = (n: number, total: number, what: string): string => `${n.toLocaleString('en-US')} of the ${plural(total, what)} (${share(n, total)})`;

/** The key of a place's counts: a zip, else a city (a borough or neighbourhood has none of its own). */
const keyOf = (t: Target): string | null => (t.zip ? `zip|${t.zip}` : t.city && !t.area && !t.hood ? `city|${t.state}|${slug(t.city)}` : null);

/** What a source's owners are: "as Philadelphia OPA property assessments names them (...; its rows are a sample of
 *  5,336 rows of the source, not every property of the place)". */
function whose(data: ResearchData, c: OwnerCount): string {
  const p = data.partial.get(c.source);
  const title = p?.name ?? data.titles.get(c.source) ?? c.source;
  const latest = c.latest_sale ? `, the latest sale among them on ${c.latest_sale}` : '';
  const extract = p ? `; its rows are ${p.kind === 'sample' ? 'a sample' : 'a partial extract'} of ${plural(p.rows, 'row')} of the source, not every property of the place` : '';
  return `as ${title} names them (each property's owner of record in its files, else the buyer of its latest deed there${latest}${extract})`;
}

/** The sentences of one source's owners of one place. */
function ownerSentences(data: ResearchData, t: Target, c: OwnerCount, asked: string): string {
  const lead = `In ${placeName(data, t)}, ${c.named.toLocaleString('en-US')} ${c.named === 1 ? 'property has' : 'properties have'} a named owner, ${whose(data, c)}`;
  const absentee = c.absentee_known
    ? `Absentee: ${of(c.absentee, c.absentee_known, 'owner')} with a mailing street recorded are mailed away from the property (the mailing street or zip is not the property's); the other ${(c.absentee_known - c.absentee).toLocaleString('en-US')} are mailed at the property itself, as an owner-occupant is (occupancy itself is not recorded)`
    : 'No mailing address is recorded for these owners, so absentee owners and owner-occupied homes are not counted';
  const away = c.state_known
    ? `Out of state: ${of(c.out_of_state, c.state_known, 'owner')} with a mailing state recorded are mailed outside ${data.stateName(t.state)}`
    : 'No mailing state is recorded for these owners, so out-of-state owners are not counted';
  const typed = OWNER_TYPES.filter((k) => c.types[k] > 0).sort((a, b) => c.types[b] - c.types[a]);
  const types = `By owner type (read from the owner's name): ${typed.map((k) => `${c.types[k].toLocaleString('en-US')} ${TYPE_WORDS[k][c.types[k] === 1 ? 0 : 1]} (${share(c.types[k], c.named)})`).join(', ')}`;
  const order = /out[- ]of[- ]state/.test(asked) ? [away, absentee, types]
    : /\b(llcs?|corporat\w*|compan\w*|banks?|investors?|institutional|who owns|largest|biggest|top)\b/.test(asked) ? [types, absentee, away] : [absentee, away, types];
  return `${lead}. ${order.join('. ')}.`;
}

/** "Philadelphia, PA and Denver, CO": the cities whose owners are counted. */
const countedList = (cities: readonly string[]): string =>
  cities.length > 1 ? `${cities.slice(0, -1).join('; ')} and ${cities[cities.length - 1]}` : cities[0] ?? '';

/** The answer to an owners question in a build that counts some places' owners: each place asked with its counts, or
 *  said not counted with the places that are; null in a build with none (the not-recorded answer, OWNERS_SAY). */
export function ownerCountsAnswer(data: ResearchData, u: Understanding, depth: Depth): Composed | null {
  const owners = data.market?.owners;
  const asked = u.query.toLowerCase();
  if (!owners?.cities?.length || !OWNERS_ASKED.test(asked)) return null;
  if (ADDRESS.test(u.query)) return null; // one property's owner asked ("who owns 1515 Stoney Ln 19115"): its record, address-value.ts (h78ask)
  const found = u.targets.map((t) => ({ t, counts: (keyOf(t) && owners.places[keyOf(t)!]) || [] }));
  // a question of another topic too ("what share of philadelphia homes are owned by llcs" reads the investor share of
  // buyers) is answered here only for a place whose owners are counted; elsewhere that topic is, the owners part said
  if (u.notRecorded !== OWNERS_SAY && !found.some((f) => f.counts.length)) return null;
  const counted = `owners are counted only where a source names them: the properties of ${countedList(owners.cities)}, and of their zips`;
  if (!u.targets.length) return { answer: `Name a place: ${counted} (ask "absentee owners in ${owners.cities[0]}").`, sources: [], confidence: 'low', facts: [] };
  const parts = found.map(({ t, counts }) => counts.length
    ? counts.map((c) => ownerSentences(data, t, c, asked)).join(' ')
    : `No source here names the owners of ${placeName(data, t)}'s properties, so its owners are not counted.`);
  const names = /\bwho owns\b|\b(largest|biggest|top) (land ?lords?|owners?)\b/.test(asked)
    ? ' Owners are counted by type, not ranked by name: most are private individuals.' : '';
  const with_ = found.filter((f) => f.counts.length);
  const rest = with_.length < found.length ? ` Here ${counted}.` : '';
  if (!with_.length) return { answer: `${parts.join(' ')}${rest}`, sources: [], confidence: 'low', facts: [] };
  const citation = `reii warehouse: properties (owner_name, owner_type, absentee_owner) of ${with_.map((f) => placeName(data, f.t)).join(' and ')}`;
  const answer = `${parts.join(' ')}${names}${rest}`;
  return { answer: depth === 'deep' ? `${answer}\n\nSources: ${citation}` : answer, sources: [{ type: 'property', category: 'market', citation }], confidence: 'medium', facts: [] };
}
