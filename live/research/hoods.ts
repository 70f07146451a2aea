// Neighbourhoods a research question may name alone ("median price in Astoria", "Williamsburg home prices"): the ones
// a source names for its own sales (int_market_neighborhoods: NYC's Department of Finance NEIGHBORHOOD column), so the
// answer reads the neighbourhood's own sales and its zips, never a guessed boundary (warehouse/docs/research.md
// "Neighbourhoods"). Pure: the name rule the build (live/research/build.ts) and the question reader share.

/** A neighbourhood of the build: its name as asked (lower case), as the source writes it, the city part it lies in,
 *  its zips (those holding at least ZIP_SHARE of its sales, most first) and its sales. */
export interface Hood { key: string; names: string[]; state: string; city: string; part: string; zips: string[]; sales: number }

/** A zip holds a neighbourhood when at least this share of its sales lie in it (Astoria: 11105, 11106, 11103 and 11102
 *  hold 2,393 of its 2,443 sales; 11377, 11101 and 11370 the other 50). */
export const ZIP_SHARE = 0.05;

/** A neighbourhood's name in an answer: its name asked, in title case ("Upper East Side"). */
export const hoodName = (h: Pick<Hood, 'key'>): string => h.key.replace(/(^|[\s-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());

/** DOF names that name no neighbourhood anyone would ask by ("DOWNTOWN-FULTON MALL" reads "downtown"). */
const GENERIC = new Set(['downtown', 'financial', 'fashion', 'civic center', 'javits center', 'midtown cbd']);

/** The names a source's neighbourhood is asked by: lower case, a range in brackets dropped ("UPPER EAST SIDE (59-79)"),
 *  a part after a hyphen dropped ("WILLIAMSBURG-NORTH", not "CO-OP CITY"), each side of a slash ("BEDFORD
 *  PARK/NORWOOD"). */
export function hoodNames(written: string): string[] {
  const base = written.toLowerCase().replace(/\s*\([^)]*\)\s*$/, '').trim();
  return [...new Set(base.split('/').map((p) => p.trim().replace(/^([a-z .']{4,}?)-[a-z .' ]+$/, '$1').trim())
    .filter((p) => p.length >= 4 && !GENERIC.has(p) && /^[a-z][a-z .'-]*[a-z]$/.test(p)))];
}

/** One neighbourhood per name asked: rows (written name, state, city, city part, zip, sales) grouped by name; a name in
 *  two city parts (SUNNYSIDE: Queens and Staten Island) is no one neighbourhood and is left out. */
export function groupHoods(rows: readonly { n: string; s: string; c: string; p: string; z: string | null; k: number }[]): Hood[] {
  const by = new Map<string, { names: Set<string>; state: string; city: string; parts: Set<string>; zips: Map<string, number>; sales: number }>();
  for (const r of rows) {
    for (const key of hoodNames(r.n)) {
      const h = by.get(`${r.s}|${key}`) ?? { names: new Set<string>(), state: r.s, city: r.c, parts: new Set<string>(), zips: new Map<string, number>(), sales: 0 };
      h.names.add(r.n); h.parts.add(r.p); h.sales += r.k;
      if (r.z) h.zips.set(r.z, (h.zips.get(r.z) ?? 0) + r.k);
      by.set(`${r.s}|${key}`, h);
    }
  }
  const out: Hood[] = [];
  for (const [k, h] of by) {
    if (h.parts.size !== 1) continue;
    const zips = [...h.zips].filter(([, n]) => n >= ZIP_SHARE * h.sales).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([z]) => z);
    out.push({ key: k.slice(k.indexOf('|') + 1), names: [...h.names].sort(), state: h.state, city: h.city, part: [...h.parts][0]!, zips, sales: h.sales });
  }
  return out.sort((a, b) => a.key.localeCompare(b.key) || a.state.localeCompare(b.state));
}
