// Citations of the state regulation records (scripts/author-regulations.ts): the federal sources that apply in every
// state, the statute sections taken from the reference's citation columns (secondary sources dropped), and the
// sections given by hand where that extraction is wrong or empty.

export const GARN = '12 U.S.C. 1701j-3 (Garn-St Germain Depository Institutions Act of 1982)';
export const GARN_URL = 'https://www.law.cornell.edu/uscode/text/12/1701j-3';
export const REG_Z = '12 CFR 1026.36(a)(4)-(5) (Regulation Z loan originator rules, seller-financer exclusions)';
export const REG_Z_URL = 'https://www.law.cornell.edu/cfr/text/12/1026.36';
export const LEAD = '42 U.S.C. 4852d; 40 CFR 745 subpart F; 24 CFR 35 subpart A';
export const LEAD_URL = 'https://www.law.cornell.edu/uscode/text/42/4852d';
export const TYLER = 'Tyler v. Hennepin County, 598 U.S. 631 (2023)';
export const UNVERIFIED_CITE = 'The citation comes from general knowledge of the code and is unverified against current statute text.';

// ---------- statute sections from the reference citation columns

/** Secondary sources (charts, guides, datasets) are dropped: source_citation holds statute sections only. */
const SECONDARY = /nolo|\.com|\.org|\.net|\.us\b|reiclub|NMHC|chart|dataset|code-corpus|evictionRules|lawchek|sigtour|docslib|pages\.dev|jiang|table|homestead|n\/a|not identified|not verified|opt-in|explicit|commissions/i;

/** Splits a citation cell at the semicolons between its sources, never at one inside parentheses: in
 *  "La. R.S. 9:3258 (NMHC 2019 lists preempt; federalstatelaw.com says ... - conflict)" the statute and its
 *  parenthetical are one source (split inside, the statute half kept "(NMHC" and was dropped as secondary). */
export function sourcesOf(citation: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of citation) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ';' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function statuteOf(citation: string | undefined): string | null {
  if (!citation) return null;
  const parts = sourcesOf(citation)
    .map((s) => s.replace(/\s\(([^)]*)\)/g, (m, inner: string) => (/^\d{4}$/.test(inner) ? m : '')).trim())
    .filter((s) => s !== '' && !SECONDARY.test(s));
  return parts.length > 0 ? parts.join('; ') : null;
}

/** Where the automatic extraction is wrong or empty, the section is given here. */
export const CITE_OVERRIDES: Record<string, Partial<Record<'deposit' | 'notice' | 'ap' | 'preemption' | 'tax', string | null>>> = {
  CA: { deposit: 'Cal. Civ. Code 1950.5 (as amended by AB 12, 2023)' },
  CO: { deposit: 'C.R.S. 38-12-102, 38-12-103 (as amended by HB 25-1249)' },
  CT: { preemption: 'Conn. Gen. Stat. 7-148b (fair rent commissions)' },
  // The reference names the statute only inside a secondary source's words ("statute cited by tenant-rights.com
  // (KRS 383.300) not verified"): kept, with source_citation uncertain and the summary saying so.
  KY: { preemption: 'KRS 383.300' },
  GA: { deposit: 'O.C.G.A. 44-7-30.1 (HB 404, 2024)', notice: 'O.C.G.A. 44-7-50 (as amended by HB 404, 2024)' },
  MA: { preemption: 'M.G.L. c.40P' },
  MN: { notice: 'Minn. Stat. 504B.321', preemption: 'Minn. Stat. 471.9996' },
  NE: { notice: 'Neb. Rev. Stat. 76-1431' },
  // The reference's "ETPA local opt-in (HSTPA 2019)": the two acts, named in full.
  NY: { preemption: 'Emergency Tenant Protection Act of 1974 (ETPA), as amended by the Housing Stability and Tenant Protection Act of 2019 (HSTPA)' },
  OR: { notice: 'ORS 90.394', preemption: 'ORS 91.225' },
  SC: { ap: 'S.C. Code 15-67-210' },
  TX: { tax: 'Tex. Tax Code 34.21' },
  WA: { preemption: 'RCW 35.21.830' },
};
