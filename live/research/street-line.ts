// A street line written in a question ("2926 ridge ave", "7921 Doe Trail Way", "711 Greenwood Avenue"): its house
// number, street words and suffix (pure, no imports), read by addresses.ts (the address's zip), address-value.ts (its
// value asked) and place-aliases.ts (a house number is not a zip).
/** A house number, up to four street words and a street suffix (and a direction after it). */
const WORD = "(?!(?:in|of|for|near|around|and|or|the|at|to|from|million|thousand|k|bedrooms?|beds?|baths?|sq|sqft|homes?|houses?|sales?|years?|months?|days?|zips?)\\b)[a-z0-9']+";
export const ADDRESS = new RegExp(`(?<![$\\d,.])\\b(\\d{1,6})\\s+((?:[nsew]\\.?\\s+)?(?:${WORD}\\s+){0,3}?${WORD})\\s+(st|street|ave|avenue|av|way|wy|rd|road|blvd|boulevard|dr|drive|ln|lane|pl|place|ct|court|ter|terrace|pkwy|parkway|hwy|highway|cir|circle|sq|square)\\b\\.?(?:\\s+(n|s|e|w|ne|nw|se|sw)\\b)?`, 'i');
