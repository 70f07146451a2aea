// Property types compared in one place ("denver condos vs single family", "compare condos and houses in brooklyn"):
// the question asks the types' sale prices, and their difference. Pure. Rules: warehouse/docs/research.md "Modifiers".
import { detectIntents, type Understanding } from './intent.ts';
import { money, type Fact } from './facts.ts';
import { TYPE_WORDS } from './sales-facts.ts';

/** Types compared: the prices asked, never a market overview's investor sentence in place of the second type's price
 *  ("compare condos and houses in brooklyn" read "compare" as an overview: its condo price and investor share, the
 *  houses dropped). An investor topic asked in words stays. */
export function typesOnly(u: Understanding): void {
  if (u.intents.includes('trends') && u.intents.includes('investor') && !detectIntents(u.query.toLowerCase()).includes('investor')) u.intents.splice(u.intents.indexOf('investor'), 1);
}

/** A price level's median and month ("$700,000 (2024-02, 293 sales)"), or null (a period's count, no figure). */
function level(f: Fact | undefined): { usd: number; month: string } | null {
  const m = /^\$([\d,]+) \((\d{4}-\d{2}),/.exec(f?.value ?? '');
  return m ? { usd: Number(m[1]!.replaceAll(',', '')), month: m[2]! } : null;
}

/** The difference of the types' medians, said after the last type's figure: "; the single-family median ($895,000) is
 *  $195,000 (27.9%) above the condo median ($700,000), both of 2024-02". Only where each type has a median of one
 *  place (`sides`: each type's price fact, in the order written); nothing otherwise. */
export function typeDifference(sides: { type: string; fact: Fact | undefined }[]): void {
  const got = sides.map((s) => ({ ...s, l: level(s.fact) }));
  if (got.length !== 2 || got.some((s) => !s.l) || got[0]!.fact!.target !== got[1]!.fact!.target) return;
  const [a, b] = got as { type: string; fact: Fact; l: { usd: number; month: string } }[];
  const [hi, lo] = a!.l.usd >= b!.l.usd ? [a!, b!] : [b!, a!];
  const when = hi.l.month === lo.l.month ? `both of ${hi.l.month}` : `of ${hi.l.month} and ${lo.l.month}`;
  const diff = hi.l.usd === lo.l.usd ? `the ${TYPE_WORDS[a!.type]} and ${TYPE_WORDS[b!.type]} medians are equal (${money(hi.l.usd)}, ${when})`
    : `the ${TYPE_WORDS[hi.type]} median (${money(hi.l.usd)}) is ${money(hi.l.usd - lo.l.usd)} (${((hi.l.usd - lo.l.usd) / lo.l.usd * 100).toFixed(1)}%) above the ${TYPE_WORDS[lo.type]} median (${money(lo.l.usd)}), ${when}`;
  b!.fact.sentence = `${b!.fact.sentence}; ${diff}`;
}
