// The rehab score's 404 says why a zip has no score (review 17 #4: "No renovation data for zip 06820" named no cause),
// per the actual cause, from the build's own shards (warehouse/docs/market.md "mart_rehab"): a score at another window
// (this window holds 1-4 arm's-length sales: the minimum cohort), the trends' direction note where the zip's records
// could show no rehab event (no permit recorded, no repeat sale or renovation year: the same test mart_rehab and
// mart_market_direction read), no window with 5 sales, a county a sales source records with no sale in the zip (as the
// comps' 404: api/shard-replies.ts noMarketSales), a zip outside coverage, or no source of the build covering the zip at all; and where the
// zip's permits are recorded but give no permit component (the source's area holds under half of the zip, or the zip
// has no housing unit count), says so and counts them (37240's one $13.2M renovation was "no permit is recorded there");
// a PO-box or unique zip (no Census ZCTA) in a permit source's area says it is one, its permits counted where any
// (live/research/unaddressed.ts, the words research's rehab answer says too); and where a source placed permits in the
// zip from their points but they are another city's, which the rehab measures leave out, says so and counts them.
import type { Reply } from './route.ts';
import type { LoadedBuild } from './builds.ts';
import { marketOfCoveredCounty, outsideCoverage, shard, salesSourceCovers } from './shard-replies.ts';
import { flaggedOnly, salesCoverOf, salesRecorded, zipOfCoveredCity, zipRecords, zipWindowPermits } from './market-source.ts';
import type { OtherCityPermits, PermitCover } from '../live/research/sales-cover-build.ts';
import { permitsInZip, unaddressedMessage } from '../live/research/unaddressed.ts';
import { shardPath } from '../warehouse/layout.ts';
import { PROPERTY_TYPES } from '../warehouse/property-types.ts';

const MONTHS = Array.from({ length: 22 }, (_, i) => i + 3);

/** The rehab shard of a zip and window, or its 404 reply naming the cause. */
export function rehabReply(build: LoadedBuild, zip: string, months: number): Reply | Promise<Reply> {
  const sp = shard('rehab', { zip, months }, `No renovation data for zip ${zip}`);
  if (sp.kind !== 'shard' || build.shards.has(sp.path)) return sp;
  return rehabNotFound(build, zip, months).then((notFound) => ({ ...sp, notFound }));
}

async function rehabNotFound(build: LoadedBuild, zip: string, months: number): Promise<string> {
  const scored = MONTHS.filter((m) => {
    const p = shardPath('rehab', { zip, months: String(m) });
    return p.ok && build.shards.has(p.path);
  });
  if (scored.length) {
    return `No rehab score for zip ${zip} over the last ${months} months: no building permit component covers the zip, and the window holds fewer than 5 residential arm's-length sales, too few for a rehab resale share (minimum cohort 5); the zip has a score over ${scored.length === 1 ? `${scored[0]} months` : `${scored[0]} to ${scored.at(-1)} months`} (months=${scored[0]})`;
  }
  const { permits, unaddressed } = zipRecords(build, zip);
  // a PO-box or unique zip first, its permits or none (h27: 37240's one permit read "the zip has no housing unit count")
  if (unaddressed && !salesRecorded(build, { zip })) {
    return unaddressedMessage(zip, unaddressed, permits, permits ? permitWindow(build, zip, permits, months) : '');
  }
  if (permits) return permitsWithoutScore(build, zip, permits, months);
  const otherCity = salesCoverOf(build, { zip })?.otherCity;
  if (otherCity) return otherCityPermits(build, zip, otherCity, months);
  if (!salesSourceCovers(build, { zip })) {
    // a source's records there are all flagged (review 18: 06779's one land sale): they are recorded, not absent
    const flagged = flaggedOnly(build, { zip }, `zip ${zip}`, 'rehab resale share (minimum cohort 5 sales)');
    if (flagged !== null) return `No renovation data for zip ${zip}: no building permit source covers the zip, and t${flagged.slice(1)}`;
    // a zip of a city a sales source records, with no sale of its own (Denver's records carry no zip code)
    const city = zipOfCoveredCity(build, zip, 'renovation data', false);
    if (city !== null) return `${city}; and no building permit source covers the zip: no rehab score can be computed`;
    // a zip of a county a sales source records, with no sale of its own (King County's 98288): the comps' words
    const county = marketOfCoveredCounty(build, { zip }, `zip ${zip}`, 'renovation data');
    if (county !== null) return `${county}; and no building permit source covers the zip: no rehab score can be computed`;
    const outside = outsideCoverage(build, zip, 'renovation data');
    if (outside !== null) return outside;
    // a zip of filings alone (Louisville's): they are recorded there, but no rehab event
    const { distress } = zipRecords(build, zip);
    const filings = distress ? `; the ${distress.n === 1 ? 'filing' : `${distress.n} filings`} ${distress.sources.map((s) => `the ${s.name} source (${s.id})`).join(' and ')} records there ${distress.n === 1 ? 'is no renovation event' : 'are no renovation events'}` : '';
    return `No renovation data for zip ${zip}: no building permit source and no sales source of this build covers the zip (no permit or sale is recorded there${filings}), which says nothing of the renovations that happened`;
  }
  const note = await directionNote(build, zip);
  if (note?.startsWith('no rehab event source: ')) {
    return `No renovation data for zip ${zip}: ${note.slice('no rehab event source: '.length).replace(/; not a flat trend$/, '')}: no rehab score can be computed`;
  }
  return `No renovation data for zip ${zip}: no building permit component covers the zip (no permit source covers at least half of it), and no window of 3 to 24 months holds the 5 residential arm's-length sales a rehab resale share needs (minimum cohort 5)`;
}

/** The zip's trends direction note (any property type's shard: the note is the market's). */
async function directionNote(build: LoadedBuild, zip: string): Promise<string | null> {
  for (const type of PROPERTY_TYPES) {
    const p = shardPath('trends', { zip, property_type: type });
    if (!p.ok || !build.shards.has(p.path)) continue;
    const s = await build.shards.get(p.path);
    if (!s) continue;
    const note = (JSON.parse(s.body.toString('utf8')) as { summary?: { direction_30d_note?: string | null } }).summary?.direction_30d_note;
    return note ?? null;
  }
  return null;
}

/** The 404 of a zip whose permits are recorded but give no permit component, and whose sales give no resale share:
 *  its permits over the whole file of its permit sources, and how many of them fall in the window a score counts
 *  (review 24: 37027's "76 building permits" were the file's 3 years, 32 of them in the 12 months asked). */
function permitsWithoutScore(build: LoadedBuild, zip: string, p: PermitCover, months: number): string {
  const by = p.sources.map((s) => `the ${s.name} source (${s.id})`).join(' and ');
  // under 1%: one decimal (La Vergne 37086 holds 0.4% in Davidson County, not "0%")
  const pct = (x: number) => (100 * x < 1 ? (100 * x).toFixed(1) : String(Math.round(100 * x)));
  const why = p.covered_share !== null && p.covered_share < 0.5
    ? `it covers ${p.area ?? 'its area'} only, which holds ${pct(p.covered_share)}% ${p.share_basis ?? 'of the zip'}: under half, so no permit component`
    : !p.housing_units ? 'the zip has no housing unit count: no permit rate, so no permit component'
    : 'no permit component can be computed';
  const window = permitWindow(build, zip, p, months);
  return `No renovation data for zip ${zip}: ${by} records ${permitsInZip(p)}${window}${window ? '; but' : ', but'} ${why}; and ${noResaleShare(build, zip)}: no rehab score can be computed`;
}

/** Why the zip's sales give no rehab resale share. */
const noResaleShare = (build: LoadedBuild, zip: string): string => salesRecorded(build, { zip })
  ? "no window of 3 to 24 months holds the 5 residential arm's-length sales a rehab resale share needs (minimum cohort 5)"
  : 'no sales source of this build covers the zip, so no rehab resale share';

/** The 404 of a zip whose permits a source placed there from their points are another city's, so no rehab measure of
 *  the zip counts them (int_market_zip_permits; review 29: 60707, Elmwood Park, whose 252 Chicago permits of the 12
 *  months were "no permit or sale is recorded there"): their count over the file, in the window asked, and the rule. */
function otherCityPermits(build: LoadedBuild, zip: string, o: OtherCityPermits, months: number): string {
  const by = o.sources.map((s) => `the ${s.name} source (${s.id})`).join(' and ');
  const permits = (n: number) => (n === 1 ? '1 building permit' : `${n.toLocaleString('en-US')} building permits`);
  const w = o.counts[months - 3];
  // the window's rehab types and residential rehab among them (mart_rehab_permits' counts): "113 of them renovation,
  // addition or repair permits, 90 of those on residential buildings"
  const kinds = !w || w[0] === 0 ? '' : w[0] === 1
    ? (w[1] ? `, a renovation, addition or repair permit on ${w[2] ? 'a residential building' : 'another building'}` : ', not a renovation, addition or repair permit')
    : w[1] === 0 ? ', none of them a renovation, addition or repair permit'
    : `, ${w[1] === w[0] ? 'all' : w[1]} of them ${w[1] === 1 ? 'a renovation, addition or repair permit' : 'renovation, addition or repair permits'}${
      w[2] === w[1] ? ` on ${w[1] === 1 ? 'a residential building' : 'residential buildings'}` : w[1] === 1 ? ' on another building' : `, ${w[2] === 0 ? 'none' : w[2]} of those on residential buildings`}`;
  const window = !w ? '' : `; ${o.n === 1 ? `it falls ${w[0] ? 'in' : 'before'}` : `${w[0] === 0 ? 'none' : w[0] === o.n ? 'all' : w[0]} of them ${w[0] === 1 ? 'falls' : 'fall'} in`} the ${months} months to ${o.as_of}, the window a score counts${kinds}`;
  return `No renovation data for zip ${zip}: ${by} ${o.sources.length === 1 ? 'places' : 'place'} ${permits(o.n)} of ${o.city} in the zip by ${o.n === 1 ? 'its point' : 'their points'} (no zip recorded: the nearest Census ZCTA of the permit's city) in ${o.sources.length === 1 ? 'its whole file' : 'their whole files'}, ${o.file[0]} to ${o.file[1]}${window}; but the zip's city is ${o.zip_city}, ${o.state}, and a permit whose zip is guessed counts only in a zip of its own city (a rate per the zip's homes would divide ${o.city}'s permits by ${o.zip_city}'s), so no permit component; and ${noResaleShare(build, zip)}: no rehab score can be computed`;
}

/** The span of the zip's permit sources' files and how many of its permits fall in the window asked, their
 *  residential rehab ones said where the file mixes them with others (" in its whole file, <first> to <last>; it falls
 *  in the 12 months to <end>, the window a score counts"); empty where the build has no such counts. */
function permitWindow(build: LoadedBuild, zip: string, p: PermitCover, months: number): string {
  const w = zipWindowPermits(build, zip, p.sources.map((s) => s.id), months);
  // where the file mixes residential rehab permits with others: the window's residential rehab permits, the score's own
  // count (mart_rehab_permits); in an older build, whose window counts are of every type and use, how many are of a
  // rehab type (h25: 37027's "32 of them" read as rehab permits)
  const mixed = w === null || w.n === 0 || p.rehab === 0 || p.rehab === p.n ? ''
    : w.rehab !== null ? ` (${residentialInWindow(w.n, w.rehabTypes, w.rehab, w.useUnrecorded ?? 0)})`
    : w.rehabTypes === 0 ? ` (${w.n === 1 ? 'not a' : 'none of them a'} renovation, addition or repair permit, so no residential rehab permit)`
    : w.n === 1 ? ' (a renovation, addition or repair permit, on a residential building or not: the window is counted by type, not use)'
    : ` (of every type and use: ${w.rehabTypes === w.n ? 'all' : w.rehabTypes} of them renovation, addition or repair permits, on residential buildings or not; the window is counted by type, not use)`;
  // the window ends at the sources' last permit, so a permit outside it is before it
  return w === null ? '' : ` in ${p.sources.length === 1 ? 'its whole file' : 'their whole files'}, ${w.file[0]} to ${w.file[1]}; ${
    p.n === 1 ? `it falls ${w.n ? 'in' : 'before'}` : `${w.n === 0 ? 'none' : w.n === p.n ? 'all' : w.n} of them ${w.n === 1 ? 'falls' : 'fall'} in`} the ${months} months to ${w.asOf}, the window a score counts${mixed}`;
}

/** The window's residential rehab permits among its `n` permits (h26: 37027's 32 permits of the 12 months were said
 *  "15 of them renovation, addition or repair permits, on residential buildings or not"; the score counts 11). */
function residentialInWindow(n: number, rehabTypes: number, rehab: number, useUnrecorded: number): string {
  const which = rehab === 0 ? (n === 1 ? 'not a residential rehab permit' : 'none of them a residential rehab permit')
    : rehab === n ? (n === 1 ? 'a residential rehab permit' : 'all of them residential rehab permits')
    : `${rehab} of them ${rehab === 1 ? 'a residential rehab permit' : 'residential rehab permits'}`;
  const what = rehab === 0 ? '' : ': renovation, addition or repair on a residential building, the permits a score counts';
  const other = rehabTypes > rehab ? `; ${rehabTypes - rehab} ${rehabTypes - rehab === 1 ? 'renovation, addition or repair permit is' : 'renovation, addition or repair permits are'} on other buildings, which no score counts` : '';
  const unknown = useUnrecorded > 0 ? `; ${useUnrecorded} of the residential ones do not record the building's use: each is counted when its declared cost is $500,000 or less, so commercial work may be counted` : '';
  return `${which}${what}${other}${unknown}`;
}
