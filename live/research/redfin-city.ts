// Days on market of a city, borough or county from its zips' Redfin zip tracker snapshots (POST /v1/research/query:
// "days on market in chicago", "how fast do homes sell in cambridge ma"), where a zip's answer already takes its own
// snapshot (redfin.ts): a place with no sales records at all (Chicago, Cambridge), or a month or year asked after its
// sales end ("days on market in seattle in august 2025"). Redfin publishes days on market per zip, never per city, and
// a median of zip medians is no median of a city's sales (a zip of 4 homes sold would weigh as much as one of 138, and
// each zip's row may be of a different property type: ../shared/data/redfin-zip-market-snapshots/SOURCE.md), so no
// city figure is made: the answer is the range of its zips' medians over one 90-day period (the zips with 5 or more
// homes sold, the comps' minimum; the others counted), the zips at each end with their homes sold, how many of the
// place's zips have a snapshot of that period, its capture month, Redfin named; every zip's figure in the deep answer.
// Rules: warehouse/docs/research.md "Days on market from Redfin".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { fmt, plural, type Fact } from './facts.ts';
import { snapshotOf } from './redfin.ts';
import { noSalesRecords } from './rehab-facts.ts';
import { marketKey, type RedfinSnap } from './market-window.ts';

/** Homes sold a zip's snapshot needs to stand for the zip (the comps' minimum). */
const SOLID = 5;
/** The caveat intent.ts gives a year asked of the comps (price per sqft kept for the latest months only). */
const LATEST_ONLY = 'We keep price per sqft for the latest months';
/** Up to this many zips with a figure, the quick answer lists them all; above, the two ends. */
const LISTED = 6;

interface ZipSnap { zip: string; snap: RedfinSnap }

/** The zips of a place as its city summary reads them (city-summary.ts). */
const zipsOf = (data: ResearchData, t: Target): string[] => (t.hood ? t.hood.zips : t.area ? data.zipsOfCounty(t.area.county_fips) : t.city ? data.zipsOfCity(t.city, t.state) : []);

/** The last day of a place's sales (its city market's, else the latest of its zips'), or null with none. */
function salesEnd(data: ResearchData, t: Target, zips: string[]): string | null {
  const w = data.market?.windows;
  if (!w) return null;
  const keys = [...(t.city && !t.area && !t.hood ? [marketKey({ state: t.state, city: t.city })] : []), ...zips.map((z) => `zip|${z}`)];
  const ends = keys.flatMap((k) => ['sfr', 'condo', 'multi', 'land', 'commercial'].map((type) => w[`${k}|${type}`]?.as_of).filter((d): d is string => !!d));
  return ends.sort().at(-1) ?? null;
}

/** The days-on-market fact of a place from its zips' Redfin snapshots, when the place has no sales records or a month
 *  (year) past its sales is asked; null otherwise, or when none of its zips has a snapshot of the period. */
export function redfinPlaceFact(data: ResearchData, u: Understanding, t: Target, place: string, speed: string | null): Fact | null {
  if (t.zip) return null;
  const zips = zipsOf(data, t);
  const end = salesEnd(data, t, zips);
  const y = u.years;
  const asked = y ? y.month ?? y.months?.[1] ?? `${y.to ?? y.from}-12` : null;
  // a place with sales: only a month or year after them (its sales' own windows are the comps')
  if (end && !(asked && asked > end.slice(0, 7))) return null;
  if (!end && zips.some((z) => !noSalesRecords(data, z))) return null;
  const snapped = zips.flatMap((zip) => { const snaps = data.redfin.snapshots(zip); return snaps ? [{ zip, snaps }] : []; });
  if (!snapped.length) return null;
  // the period: the one asked, else the latest period end of any of its zips
  const period = y ? null : snapped.map((z) => z.snaps.at(-1)![1]).sort().at(-1)!.slice(0, 7);
  const picked: ZipSnap[] = snapped.flatMap(({ zip, snaps }) => {
    const snap = y ? snapshotOf(snaps, y) : [...snaps].reverse().find((s) => s[1].slice(0, 7) === period);
    return snap ? [{ zip, snap }] : [];
  });
  if (!picked.length) return null;
  const ends = [...new Set(picked.map((p) => p.snap[1]))].sort();
  const captures = [...new Set(picked.map((p) => p.snap[0]))].sort();
  const solid = picked.filter((p) => (p.snap[3] ?? 0) >= SOLID);
  const shown = (solid.length ? solid : picked).sort((a, b) => a.snap[2] - b.snap[2] || a.zip.localeCompare(b.zip));
  const one = (p: ZipSnap): string => `zip ${p.zip} ${plural(p.snap[2], 'day')}${p.snap[3] === null ? '' : ` (${plural(p.snap[3], 'home')} sold)`}`;
  const lo = shown[0]!, hi = shown.at(-1)!;
  const figures = shown.length <= LISTED ? shown.map(one).join('; ') : `from ${one(lo)} to ${one(hi)}`;
  const thin = picked.length - solid.length;
  const among = !solid.length ? ` (every one with fewer than ${SOLID} homes sold, too few to stand for a zip)` : thin ? `; of the ${plural(solid.length, 'zip')} with ${SOLID} or more homes sold (${thin} more had fewer, too few to stand for a zip)` : '';
  const fastest = speed && shown.length > 1 ? `; of these, homes sell ${/slow/.test(speed) ? `slowest in zip ${hi.zip} (median ${fmt(hi.snap[2])} days)` : `fastest in zip ${lo.zip} (median ${fmt(lo.snap[2])} days)`}` : '';
  const days = ends.length === 1 ? `the 90 days to ${ends[0]}` : `the 90 days to each zip's own period end (${ends[0]} to ${ends.at(-1)})`;
  const snapWord = `Redfin zip tracker's ${captures.join(' and ')} ${captures.length === 1 ? 'snapshot gives' : 'snapshots give'}`;
  // the figures are of the month asked: the "latest months only" caveat of a comps question is not this answer's
  for (let i = u.gaps.length - 1; y && i >= 0; i--) if (u.gaps[i]!.startsWith(LATEST_ONLY)) u.gaps.splice(i, 1);
  const lead = end
    ? `For ${y!.label}, the figures are Redfin's, not the sales records' (the sales records of ${place} end ${end.slice(0, 7)} and carry no listing dates)`
    : `We have no sales records for ${place}, so no days on market of our own`;
  return {
    intent: 'comps', target: t, value: `median days on market ${fmt(shown[0]!.snap[2])} to ${fmt(hi.snap[2])} days by zip (Redfin, ${plural(shown.length, 'zip')})`,
    sentence: `${lead}; Redfin publishes days on market per zip, and a median of its zips' medians would be no median of ${place}'s sales (each zip weighs alike whatever its homes sold, and each zip's row may be of a different property type), so no figure of ${place} as a whole is given: the ${snapWord} ${picked.length} of its ${plural(zips.length, 'zip')} a median days on market over ${days}${snapped.length > picked.length ? ` (${snapped.length - picked.length} more ${snapped.length - picked.length === 1 ? 'has' : 'have'} no snapshot of that period)` : ''}${among}: ${figures}${fastest} (data provided by Redfin)`,
    detail: [`By zip (Redfin's figures as published; a zip's row may be of any one residential property type): ${[...picked].sort((a, b) => a.zip.localeCompare(b.zip)).map(one).join('; ')}.`],
    source: { type: 'redfin', category: 'market', citation: `Redfin Data Center, ZIP Code Market Tracker, ${captures.length === 1 ? 'snapshot' : 'snapshots'} ${captures.join(', ')} (${days}), ${plural(picked.length, 'zip')} of ${place}` },
    confidence: 'low', primary: true, uncertain: null,
  };
}
