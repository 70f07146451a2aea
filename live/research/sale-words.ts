// Sales of distress asked ("sheriff sales in pittsburgh", "foreclosure sales in bridgeport ct"): read as the
// foreclosure filings the build counts (before: no topic read, or the state's legal rule alone), with the law kept
// where a foreclosure word was asked; what is not recorded (the sales themselves: their dates, buyers or prices) said
// after the answer (sheriffNote).
const SHERIFF = /\bsheriff'?s? sales?\b(?! prices?)/gi;
const FORECLOSURE_SALES = /\bforeclosure sales?\b(?! prices?)/gi;

/** The question with its distress sales written as the filings counted. */
export function distressSales(text: string): string {
  return text.replace(SHERIFF, 'foreclosures').replace(FORECLOSURE_SALES, 'foreclosures');
}

/** What a distress sale asked is not: the sale itself, said after the filings counted; null when none is asked. */
export function saleNote(asked: string): string | null {
  return new RegExp(SHERIFF.source, 'i').test(asked) || new RegExp(FORECLOSURE_SALES.source, 'i').test(asked)
    ? 'The figures above are foreclosure filings where a source covers the place; the sheriff or foreclosure sales themselves (their dates, buyers and prices) are recorded by no source of this build'
    : null;
}
