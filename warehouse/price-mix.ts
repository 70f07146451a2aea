// The subtype mix of a month's sales (warehouse/docs/market.md "market_monthly and the trends", untyped_count): a change
// or a step of the median price index compares two months of one mix only. Connecticut's 2022 extract records no
// residential subtype, so its "sfr" is every residential sale (condos and 2-4 family included): Hamden's 124 such sales
// of August 2022 (median $310,000) against its 22 single-family sales of August 2023 ($329,000) made a "+6.1%" where all
// residential sales of August 2023 (34 at $315,000) give +1.6%. Used by warehouse/price-index.ts (changePct, rebase),
// the trends mart (change_note) and the API (index_note).

/** 'typed' (the sales of a known subtype), 'untyped' (the sales from a file that records no residential subtype) or
 *  'mixed'. */
export type Mix = 'typed' | 'untyped' | 'mixed';

/** The most of the other kind a month may hold and still count as one kind: a stray row or two does not move a median
 *  (Fairfield, CT's June 2022: 113 of its 114 sales from the 2022 extract, 1 typed from the head-of-file one). */
export const MIX_STRAY_SHARE = 0.05;

/** The mix of a month of `n` sales of which `untyped` are from a file with no residential subtype. */
export const mixOf = (untyped: number, n: number): Mix =>
  (untyped <= MIX_STRAY_SHARE * n ? 'typed' : untyped >= (1 - MIX_STRAY_SHARE) * n ? 'untyped' : 'mixed');

/** Whether months i and j hold sales of one mix (always, when no mixes are given: a repeat-sales step pairs two sales
 *  of one property and one type, like for like whatever file each came from). A mixed month is like no other. */
export const comparable = (mix: readonly Mix[] | undefined, i: number, j: number): boolean =>
  !mix || (mix[i] === mix[j] && mix[i] !== 'mixed');

const WORDS: Record<Mix, string> = {
  untyped: 'come from a file that records no residential subtype (every residential sale: single-family, condo and 2-4 family alike)',
  typed: 'are of the type only',
  mixed: 'mix sales of such a file with sales of the type',
};

/** Why a figure comparing month `a` (label, sales, mix) with month `b` is withheld. */
export const mixWords = (a: { month: string; n: number; mix: Mix }, b: { month: string; n: number; mix: Mix }): string =>
  `${a.month}'s ${a.n} sales ${WORDS[a.mix]} and ${b.month}'s ${b.n} ${WORDS[b.mix]}, so their medians are not like for like`;

/** A stored series' mixes for the median model (from each month's untyped and index sample counts); undefined for
 *  repeat sales, whose steps are like for like. */
export const seriesMix = (method: string, untyped: readonly number[] | undefined, n: readonly number[]): Mix[] | undefined =>
  (method === 'median' ? n.map((k, i) => mixOf(untyped?.[i] ?? 0, k)) : undefined);
