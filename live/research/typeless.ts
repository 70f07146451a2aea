// A property type asked of a market whose sales sources record no property type ("how many condos sold in 98004":
// King County's house sales file has no type column, every row is counted as a single-family house, pipelines/
// intermediate/30_market_10_sales_king_county.sql): said so, never "no condo sales", which reads as a count of 0.
// Pure over market.json's windows and sources (build.ts). Rules: warehouse/docs/research.md "Property types".
import type { ResearchData } from './data.ts';
import { marketKey, type Market, type MarketWindows } from './market-window.ts';

/** Per build: the sources whose markets hold sales of a type other than single-family. */
const TYPED = new WeakMap<MarketWindows, Set<string>>();

function typedSources(mw: MarketWindows): Set<string> {
  let typed = TYPED.get(mw);
  if (typed) return typed;
  typed = new Set<string>();
  for (const key of Object.keys(mw.windows)) {
    const type = key.slice(key.lastIndexOf('|') + 1);
    if (type === 'sfr') continue;
    for (const id of mw.sources?.[key.slice(0, key.lastIndexOf('|'))] ?? []) typed.add(id);
  }
  TYPED.set(mw, typed);
  return typed;
}

/** The sentence for a type other than single-family asked of a market every one of whose sales sources records no
 *  property type (no market of theirs has a sale of another type), else null; `noun` the type's words. */
export function typelessSentence(data: ResearchData, m: Market, type: string, noun: string, where: string): string | null {
  const mw = data.market;
  const ids = mw?.sources?.[marketKey(m)] ?? [];
  if (!mw || type === 'sfr' || !ids.length) return null;
  const typed = typedSources(mw);
  if (ids.some((id) => typed.has(id))) return null;
  const names = ids.map((id) => data.spans.get(id)?.name ?? id).join(' and ');
  return `We have no ${noun} figures for ${where}: its sales source (${names}) records no property type, so every sale in it is counted as a single-family house and ${noun} sales cannot be told apart (this is not a count of 0); its single-family figures can be asked`;
}
