// The parcel id forms a source documents (its SOURCE.md), reduced to the form the warehouse stores (the form its file
// records): the property record's parcel lookup (live/property/engine.ts) and the valuation's match of a parcel id typed
// as the address (live/valuation/endpoint.ts) both try these forms. Per source:
//   king_county (WA)  Major (6 digits) + Minor (4 digits): "0795000620", "079500-0620"; the file dropped the leading
//                     zeros, so the stored id is "795000620"
//   nyc (NY)          the BBL: borough (1 digit, 1-5) + block (5) + lot (4), "2046070042", or written "2-04607-0042",
//                     "2/4607/42"; the stored id is borough-block-lot without padding, "2-4607-42"
// Every other source's id is matched as typed (trimmed, upper case).

/** The source whose parcel ids a state's record holds, for the states whose sources document other id forms. */
const STATE_SOURCE: Record<string, string> = { WA: 'king_county', NY: 'nyc' };

const RULES: Record<string, (id: string) => string | null> = {
  king_county: (id) => (/^\d{1,10}$/.test(id) || /^\d{6}-\d{4}$/.test(id) ? id.replace('-', '').replace(/^0+(?=\d)/, '') : null),
  nyc: (id) => {
    const m = /^([1-5])(\d{5})(\d{4})$/.exec(id) ?? /^([1-5])[-/ ](\d{1,5})[-/ ](\d{1,4})$/.exec(id);
    return m ? `${m[1]}-${Number(m[2])}-${Number(m[3])}` : null;
  },
};

/** The forms to look a typed parcel id up by, the id as typed first; `scope` is a source id or a state code. */
export function parcelIdForms(scope: string, id: string): string[] {
  const typed = id.trim().toUpperCase();
  const rule = RULES[scope] ?? RULES[STATE_SOURCE[scope.toUpperCase()] ?? ''];
  const stored = rule?.(typed) ?? null;
  return stored !== null && stored !== typed ? [typed, stored] : [typed];
}
