// A short-term rental named by a platform or a short form ("airbnb rules nashville", "vrbo allowed in denver", "STR
// regulations seattle", "vacation rental laws") written as the words every rule reads, "short term rental" (pure):
// before (h77ask), "airbnb rules nashville" answered a generic no-data while "short term rental rules seattle" found
// the state's zoning record (its short-term-rental rules come from the local code). "str" in lower case is read only
// before a word of rules or renting ("str rules", "str permit"); "STR" in capitals anywhere but after a number or a
// house name ("123 Main Str"). Rules: warehouse/docs/research.md "Intents".

const RULE_WORD = String.raw`(?:rules?|regulations?|regs|laws?|ordinances?|permits?|licen[cs]es?|licensing|bans?|banned|restrictions?|allowed|legal|rentals?|properties|property|investing|investments?|market)`;
/** "airbnb" or "vrbo" as a verb with the home it lets ("can i airbnb my condo in denver"): the home's word taken out
 *  with it, so the question asks the rules, not the home's sale price (h77ask: it answered Denver's condo median). */
const LET_OUT = /\b(?:air\s?bnb|vrbo)(?:\s+out)?\s+(?:my|our|a|an|the|this|that|his|her|their)\s+(?:condo|house|home|property|place|unit|apartment|apt|basement|room|townhouse|townhome|duplex|cabin|cottage|adu)s?(?:\s+out)?\b/gi;
const STR_WORDS = new RegExp([
  String.raw`\b(?:air\s?bnb|vrbo)(?:'?s)?(?:\s+rentals?)?\b`, // "airbnb", "Air BnB rentals", "vrbo's"
  String.raw`\bvacation\s+rentals?\b`, // "vacation rental(s)"
  String.raw`\bstrs?\b(?=\s+${RULE_WORD}\b)`, // "str rules", "strs allowed"
  String.raw`(?<![\d]\s*(?:\w+\s+)?)\bSTRs?\b`, // "STR" in capitals, not "123 Main STR"
].join('|'), 'gi');
const CAPITAL_STR = /^STRs?$/;
const RULE_AFTER = new RegExp(String.raw`^\s+${RULE_WORD}\b`, 'i');

/** The question with each short-term-rental wording written "short term rental" (a plural kept plural). */
export const rentalWords = (q: string): string => q.replace(LET_OUT, 'short term rental').replace(STR_WORDS, (w: string, at: number) => {
  // a lower-case "str" not before a word of rules or renting is a street's short form ("main str"), kept
  if (/^strs?$/i.test(w) && !CAPITAL_STR.test(w) && !RULE_AFTER.test(q.slice(at + w.length))) return w;
  return /^strs$|(?:bnb|vrbo)s$|rentals$/i.test(w) ? 'short term rentals' : 'short term rental';
});
