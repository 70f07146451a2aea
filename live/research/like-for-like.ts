// The one rule for ranking the sides of a comparison (review 25; compose.ts verdict): sides are ranked ("so Bridgeport,
// CT is the more expensive") only when their figures are of the same period (one month, or one window to the same day)
// and of months the source files cover alike (all whole, or all in part only); else each figure is given with its
// period and the answer says why none is ranked. Before, Hartford's median over 6 months and Bridgeport's over 3, of
// months a thin extract holds in part only (GET /v1/market/trends gives them no median), named "the more expensive",
// with a note that they were not like for like. Rules: warehouse/docs/research.md "Comparisons".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import { placeName, type Fact } from './facts.ts';
import { periodKey, periodSaid } from './figure-period.ts';

const COVER_WORDS = { whole: 'months the source files cover whole', part: 'months the source files hold in part only (a partial extract, or a file starting or ending inside)', mixed: 'months some of which the source files hold in part only' } as const;

/** A like-for-like group of sides: their places and its period said. */
interface Group { targets: Understanding['targets']; said: string }

/** Whether the sides' figures of one topic may be ranked, the note said after them when they may not (or ''), and,
 *  when not, the largest group of three or more sides' figures that may be ranked among themselves (a former county's
 *  towns: those of 2022-09 apart from those pooled over 6 months), ranked alone by compose.ts verdict. */
export function likeForLike(data: ResearchData, targets: Understanding['targets'], facts: readonly Fact[]): { rank: boolean; note: string; group?: Group } {
  // each figure's period as its maker carried it (figure-period.ts), with how the source files cover its months
  const sides = facts.flatMap((f) => (f.value && f.period && f.target && targets.includes(f.target)
    ? [{ f, p: { said: periodSaid(f.period), key: periodKey(f.period), months: f.period.kind === 'month' ? undefined : f.period.months }, cover: f.period.cover }] : []));
  if (sides.length < 2) return { rank: true, note: '' };
  // figures counting different things (Pittsburgh's mortgage foreclosure filings, Louisville's lien filings): never
  // ranked, whatever their periods (review 30: "so Pittsburgh, PA has more distressed properties (201)")
  const counts = [...new Set(sides.map((x) => x.f.period!.counts ?? ''))];
  if (counts.length > 1) {
    const keys = new Set(sides.map((x) => x.p.key));
    const of = counts.map((c) => `${sides.filter((x) => (x.f.period!.counts ?? '') === c).map((x) => placeName(data, x.f.target!)).join(' and ')}'s ${c || 'of no kind recorded'}`);
    const when = keys.size > 1 ? `; and they are of different periods, ${[...new Set(sides.map((x) => x.p.said))].join(' and ')}` : '';
    return { rank: false, note: ` (not ranked: these figures count different records, ${of.join(' beside ')}${when}; so they are not a like-for-like comparison)` };
  }
  // windows of one length ending in one month are one period (each ends at its market's latest sale: Greenwich's
  // 2023-09-29, Darien's 2023-09-25), said once by their first and last end day
  const saidOf = (list: typeof sides): string => {
    const said = [...new Set(list.map((x) => x.p.said))].sort();
    return said.length === 1 ? said[0]! : `${said[0]}..${said.at(-1)!.replace(/.* to /, '')}`;
  };
  const keys = [...new Set(sides.map((x) => x.p.key))];
  const periods = [...new Set(sides.map((x) => x.p.said))];
  const groups = [...new Set(sides.map((x) => `${x.p.key}|${x.cover}`))].map((k) => sides.filter((x) => `${x.p.key}|${x.cover}` === k));
  const top = groups.reduce((a, b) => (b.length > a.length ? b : a));
  const group = groups.length > 1 && top.length >= 3
    ? { targets: top.map((x) => x.f.target!), said: `${saidOf(top)}${top[0]!.cover === 'whole' ? '' : `, ${COVER_WORDS[top[0]!.cover]}`}` } : undefined;
  const lead = group ? `the others not ranked with these ${top.length}` : 'not ranked';
  if (keys.length > 1) {
    const word = periods.some((x) => x.startsWith('the ')) ? 'periods' : 'months';
    const said = keys.map((k) => saidOf(sides.filter((x) => x.p.key === k)));
    return { rank: false, note: ` (${lead}: these figures are of different ${word}, ${said.join(' and ')}, so they are not a like-for-like comparison)`, ...(group ? { group } : {}) };
  }
  const kinds = [...new Set(sides.map((x) => x.cover))];
  const days = periods.length > 1 ? `${sides[0]!.p.months}-month windows ending ${periods.map((x) => x.replace(/.* to /, '')).join(' and ')}` : null;
  if (kinds.length === 1) return { rank: true, note: kinds[0] === 'part' ? ` (each figure is of ${days ?? periods[0]}, months the source files hold in part only: a ranking of the sales they hold)` : days ? ` (${days}, each at its market's latest sale)` : '' };
  const said = kinds.map((k) => `${sides.filter((x) => x.cover === k).map((x) => placeName(data, x.f.target!)).join(' and ')}'s of ${COVER_WORDS[k]}`);
  return { rank: false, note: ` (${lead}: these figures are of the same period, ${days ?? periods[0]}, but ${said.join(', ')}, so they are not a like-for-like comparison)`, ...(group ? { group } : {}) };
}
