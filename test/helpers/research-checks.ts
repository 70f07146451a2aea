// What each expectation of the research question set checks in an answer (checkFor): the figure an oracle gives
// (oracle-research*.ts), written with its unit and said of its place, and the citation it needs; or, for data no
// source has, the proof of that. warehouse/docs/research.md "How the question set is scored".
import { about, type Check, csvRows, type Cite, esc, type Expect, type Family, fail, fmtNum, hasNumberUnit, LookupFailed, stateName, stripDates } from './research-questions.ts';
import { citesRecord, regKey, regs, sd, sql } from './oracle-research.ts';
import { CSV_RECORD, csvCheck, extreme, friendlinessOf, legalRiskOf, recordCite } from './oracle-research-legal.ts';
import { cityMonthPpsfOracle, compsOracle, investorOracle, rehabOracle, ZIP, zipOk } from './oracle-research-market.ts';
import { environmentalScore, floodOf, zipFacts } from './oracle-research-location.ts';

/** How a figure is written: the number with its unit, so a stray number elsewhere cannot pass. */
const FIGURE_RE: Record<string, (n: string) => RegExp> = {
  'price_per_sqft.median': (n) => new RegExp(`\\$${esc(n)}(?: per sqft|/sqft)`),
  median_price_per_sqft: (n) => new RegExp(`\\$${esc(n)}(?: per sqft|/sqft)`),
  investor_purchase_rate_pct: (n) => new RegExp(`(?<![\\d.])${esc(n)}%`),
  rehab_momentum_score: (n) => new RegExp(`(?<![\\d.])${esc(n)}(?: out of 100| \\()`),
  environmental_risk_score: (n) => new RegExp(`(?<![\\d.])${esc(n)} out of 100`),
  legal_risk_score: (n) => new RegExp(`(?:legal risk score of |, [A-Z]{2} )${esc(n)} \\(`),
};
/** The citation of a market or location answer names its place (zip, or city and state), and for market figures
 *  the property type and the window asked ("comps for 98103, sfr, 12 months"), so a figure of another window fails. */
const familyCite = (family: string, keys: Record<string, string>): Cite => {
  const where = [keys['zip'] ?? `${keys['city']}, ${keys['state']}`, keys['property_type'], keys['months'] && `${keys['months']} months`].filter(Boolean).join(', ');
  return { label: `${family} for ${where}`, ok: (src) => src.some((s) => s.citation.includes(`for ${where},`)) };
};
/** A figure of one family for one key set, from the oracles (oracle-research-*.ts; a number, a string, or null for "none"). */
async function figureOf(family: Family, keys: Record<string, string>, field: string): Promise<number | string | null> {
  const months = Number(keys['months'] ?? 0);
  switch (`${family}.${field}`) {
    case 'comps.price_per_sqft.median': return (await compsOracle(keys['zip']!, keys['property_type']!, months)).median;
    // a city with no zip comps: its latest monthly median price per sqft (the trends shard's figure)
    case 'trends.median_price_per_sqft': return (await cityMonthPpsfOracle(keys['state']!, keys['city']!, keys['property_type']!))?.median ?? null;
    case 'rehab.rehab_momentum_score': return rehabOracle(keys['zip']!, months);
    case 'investor.investor_purchase_rate_pct': return investorOracle(keys['state']!, keys['city']!, months);
    case 'location-zip.flood_zone': return floodOf(await zipFacts(keys['zip']!)).zone;
    case 'location-zip.environmental_risk_score': return environmentalScore(keys['zip']!);
    case 'legal-market-risk.legal_risk_score': return legalRiskOf(keys['state']!, keys['city']!);
    default: return fail(`no oracle for ${family}.${field}`);
  }
}

/** Zips of a city as the raw simplemaps file lists them. */
async function cityZipList(st: string, city: string): Promise<string[]> {
  const rows = await sql<{ zips: string }>(`select zips from raw.simplemaps__cities where state_id = $st and city = $city`, { st, city });
  const zips = (rows[0]?.zips ?? '').split(/\s+/).filter((z) => ZIP.test(z));
  return zips.length ? zips : fail(`no zips for ${city}, ${st} in the raw simplemaps file`);
}

/** Proof that no source has the data: the figure must then be absent from every canonical table it would come from. */
async function noDataProof(e: NonNullable<Expect['noData']>): Promise<string> {
  if (e.family === 'comps') {
    const zips = e.zip ? [zipOk(e.zip)] : await cityZipList(e.state!, e.city!);
    const [r] = await sql<{ n: number }>(`select count(*)::int as n from sales where zip in (${zips.map((z) => `'${zipOk(z)}'`).join(', ')})`);
    if (r!.n > 0) fail(`noData claimed for comps of ${e.zip ?? e.city}, but the sales table has ${r!.n} sales there`);
    return `no sale in any source for ${e.zip ? `zip ${e.zip}` : `the ${zips.length} zips of ${e.city}, ${e.state}`}`;
  }
  const [r] = await sql<{ n: number }>(`select ((select count(*) from sales where state_code = $st and lower(city) = lower($city))
    + (select count(*) from distress where state_code = $st and lower(city) = lower($city)))::int as n`, { st: e.state!, city: e.city! });
  if (r!.n > 0) fail(`noData claimed for investor data of ${e.city}, ${e.state}, but sales or distress has ${r!.n} rows there`);
  return `no sale and no distress filing in any source for ${e.city}, ${e.state}`;
}

export async function checkFor(e: Expect): Promise<Check> {
  if (e.csv) return csvCheck(e.csv, e.state!);
  if (e.csvMax) return extreme(e.csvMax, 'max');
  if (e.csvMin) return extreme(e.csvMin, 'min');
  if (e.stateLegal) {
    const st = e.stateLegal;
    const v = friendlinessOf(st);
    return {
      label: `landlord friendliness ${st} = ${fmtNum(v)}`, ok: (a) => about(a, stateName(st), (w) => new RegExp(`(?<![\\d.])${esc(fmtNum(v))} out of 100`).test(stripDates(w))),
      cite: { label: `landlord friendliness for ${st}`, ok: (src) => src.some((s) => s.category === 'landlord_friendliness' && s.citation.includes(` for ${st},`)) },
    };
  }
  if (e.record) {
    const { state, city, category, subcategory } = e.record;
    const r = regs.get(regKey(state, category, subcategory, city)) ?? fail(`no active record ${state}${city ? `/${city}` : ''} ${category}/${subcategory} in the warehouse regulations table`);
    const cite = { label: `record ${r.id}`, ok: citesRecord(r) };
    if (e.pattern) { const re = new RegExp(e.pattern, 'i'); return { label: `${r.id}: /${e.pattern}/`, ok: (a) => re.test(stripDates(a)), cite }; }
    const raw = sd(r)![e.field!];
    // a city's figure must be said of that city (the District's overlay is the District's)
    const place = city ? (state === 'DC' ? 'District of Columbia' : city) : stateName(state);
    if (typeof raw === 'number') return { label: `${r.id}.${e.field} = ${fmtNum(raw)}${e.unit}`, ok: (a) => about(a, place, (w) => hasNumberUnit(w, fmtNum(raw), e.unit!)), cite };
    if (typeof raw === 'string') return { label: `${r.id}.${e.field} = "${raw}"`, ok: (a) => about(a, place, (w) => w.includes(raw)), cite };
    return fail(`${r.id}.${e.field} is ${JSON.stringify(raw)}: no figure to expect`);
  }
  if (e.noOverlay) {
    const { state, city } = e.noOverlay;
    if (regs.has(regKey(state, 'rent_control', 'local_overlay', city))) fail(`noOverlay claimed for ${city}, but the warehouse has its rent control overlay`);
    return { label: `no ordinance recorded for ${city}`, ok: (a) => new RegExp(`no (?:local )?rent control ordinance recorded for ${esc(city)}`, 'i').test(a) };
  }
  if (e.csvNone) {
    const col = e.csvNone;
    const none = csvRows.filter((r) => (r[col] ?? '').trim() === 'none').map((r) => r['state_code']!);
    if (none.length === 0) fail(`no state has ${col} = none in legal-facts.csv`);
    const allowed = none.map((st) => recordCite(st, col));
    const capped = csvRows.filter((r) => (r[col] ?? '').trim() !== 'none').map((r) => recordCite(r['state_code']!, col));
    return {
      label: `${none.length} jurisdictions with ${col} = none`, ok: (a) => new RegExp(`(?<![\\d.])${none.length} jurisdictions have no`).test(a),
      cite: { label: `only states without a cap`, ok: (src) => allowed.some((c) => c.ok(src)) && !capped.some((c) => c.ok(src.filter((s) => s.category === CSV_RECORD[col]![0]))) },
    };
  }
  if (e.cityZips) {
    const { family, state, city, area } = e.cityZips;
    const zips = area ? (await sql<{ zip: string }>(`select zip from zips where county_fips = $f order by zip`, { f: area.county_fips })).map((r) => r.zip) : await cityZipList(state, city);
    const place = area ? `${area.name} (${city}, ${state})` : `${city}, ${state}`;
    const field = family === 'comps' ? 'price_per_sqft.median' : family === 'rehab' ? 'rehab_momentum_score' : 'environmental_risk_score';
    const months = e.cityZips.months ?? (family === 'location-zip' ? '' : '6');
    const figures: { zip: string; n: string }[] = [];
    const refused: string[] = [];
    for (const zip of zips) {
      const keys: Record<string, string> = family === 'comps' ? { zip, property_type: 'sfr', months } : family === 'rehab' ? { zip, months } : { zip };
      try {
        const v = await figureOf(family, keys, field);
        if (typeof v === 'number') figures.push({ zip, n: family === 'comps' ? String(Math.round(v)) : fmtNum(v) });
      } catch (err) {
        if (!(err instanceof LookupFailed)) throw err;
        refused.push(zip); // a zip without data (or one this oracle cannot derive): the answer's zip must be another
      }
    }
    if (figures.length === 0) fail(`no ${family} figure for any of the ${zips.length} zips of ${city}, ${state} (refused: ${refused.join(' ')})`);
    if (figures.length === 1) {
      return {
        label: `${family} figure of the one ${city} zip with data (${figures[0]!.zip}=${figures[0]!.n})`,
        ok: (a) => new RegExp(`\\b${figures[0]!.zip}\\b`).test(a) && FIGURE_RE[field]!(figures[0]!.n).test(stripDates(a)),
        cite: { label: `a ${family} source for ${figures[0]!.zip}`, ok: (src) => src.some((s) => s.citation.includes(`for ${figures[0]!.zip},`)) },
      };
    }
    // a city with several zips: the summary names how many have a figure, the lowest and the highest zip with theirs.
    // A zip the oracle refused (e.g. a score on a rounding boundary) may be counted and named, but its figure must
    // still be the lowest (highest) of every figure the oracle has.
    const value = (t: string): number => Number(t.replace(/[$,]/g, ''));
    const known = new Map(figures.map((f) => [f.zip, value(f.n)]));
    const [lo, hi] = [Math.min(...known.values()), Math.max(...known.values())];
    const num = family === 'comps' ? '\\$[\\d,]+' : '\\d+(?:\\.\\d+)?';
    const fits = (zip: string, v: number, edge: number): boolean => (known.has(zip) ? known.get(zip) === v : refused.includes(zip)) && (edge === lo ? v <= lo : v >= hi);
    return {
      label: `${family} summary of ${place}: ${figures.length}${refused.length ? `-${figures.length + refused.length}` : ''} zips, lowest ${lo}, highest ${hi} (oracle has ${figures.map((f) => `${f.zip}=${f.n}`).join(', ')})`,
      ok: (a) => {
        const w = stripDates(a);
        const n = Number(w.match(/(?<![\d.])(\d+) zips\b/)?.[1] ?? NaN);
        if (!(n >= figures.length && n <= figures.length + refused.length)) return false;
        const same = w.match(new RegExp(`are (${num}) in every zip`));
        if (same) return lo === hi && value(same[1]!) === lo;
        const m = w.match(new RegExp(`run from (${num}) \\(zip (\\d{5})\\) to (${num}) \\(zip (\\d{5})\\)`));
        return !!m && fits(m[2]!, value(m[1]!), lo) && fits(m[4]!, value(m[3]!), hi);
      },
      cite: { label: `the ${place} summary source (and a zip's)`, ok: (src) => src.some((s) => new RegExp(`for \\d+ zips of ${esc(place)},`).test(s.citation)) && src.every((s) => s.citation.includes(` zips of ${place},`) || zips.some((z) => s.citation.includes(`for ${z},`))) },
    };
  }
  if (e.family) {
    const keys = e.keys ?? {};
    const v = await figureOf(e.family, keys, e.field!);
    const cite = familyCite(e.family, keys);
    // a city's figure is said of that city ("Denver, CO 13% ...; Seattle, WA investor share unknown")
    const inPlace = (a: string, ok: (w: string) => boolean): boolean => (keys['city'] ? about(stripDates(a), keys['city'], ok) : ok(stripDates(a)));
    // a cohort under 5 comps has no prices: the answer must say so rather than give a figure
    if (v === null && e.field === 'price_per_sqft.median') return { label: `${e.family}.${e.field} = none (fewer than 5 comps)`, ok: (a) => /fewer than 5\b[^.]*sales/i.test(a) && !/\$\d/.test(a), cite };
    if (v === null && e.field === 'investor_purchase_rate_pct') return { label: `${e.family}.${e.field} = unknown (no buyer names)`, ok: (a) => inPlace(a, (w) => /investor share (?:is )?unknown/i.test(w) && !/\d%/.test(w)), cite };
    if (typeof v === 'number') {
      const n = e.round ? String(Math.round(v)) : fmtNum(v);
      const re = FIGURE_RE[e.field!] ?? fail(`no unit rule for ${e.field}`);
      return { label: `${e.family}.${e.field} = ${n}`, ok: (a) => inPlace(a, (w) => re(n).test(w)), cite };
    }
    if (typeof v !== 'string') return fail(`${e.family}.${e.field} ${JSON.stringify(keys)} has no figure`);
    const s = (e.format ?? '{}').replace('{}', v);
    return { label: `${e.family}.${e.field} = ${s}`, ok: (a) => new RegExp(`\\b${esc(s)}\\b`, 'i').test(a), cite };
  }
  if (e.noData) return { noData: await noDataProof(e.noData), type: e.noData.family };
  return fail(`expectation without a fact check: ${JSON.stringify(e)}`);
}
