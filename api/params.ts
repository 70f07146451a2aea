// Parameter and body rules. One ParamSpec drives validation, the OpenAPI document and the docs.
// Missing or malformed -> code required/type/format (400); well-formed but not allowed -> enum/range/... (422).
import type { FieldError } from '../warehouse/live.ts';
import { STATE_NAMES } from '../warehouse/regulations/schema.ts';
import { placeKey, writtenState } from '../live/places/names.ts';

export const STATE_CODES = new Set(['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY']);
// Valid USPS codes the service does not cover: a request for them is 404 (no data), not 422.
export const UNCOVERED_CODES = new Set(['PR', 'GU', 'VI', 'AS', 'MP', 'AA', 'AE', 'AP', 'FM', 'MH', 'PW']);

export const CATEGORIES = ['landlord_tenant', 'eviction', 'creative_finance', 'adverse_possession', 'foreclosure', 'zoning', 'disclosure', 'rent_control', 'tax_deed_lien'] as const;
export const TIERS = ['primary', 'secondary', 'tertiary', 'rural'] as const;
export const CONDITIONS = ['excellent', 'good', 'fair', 'poor'] as const;

export type ParamType = 'zip' | 'state' | 'county_fips' | 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'object' | 'string_array';

export interface ParamSpec {
  name: string;
  type: ParamType;
  required?: boolean;
  description: string;
  enum?: readonly string[]; // for enum, and the allowed items of string_array
  min?: number; // integer/number range, or string minimum length
  max?: number; // integer/number range, or string maximum length
  default?: string | number | boolean;
  /** The default is published but left for the handler to apply: it must know the value was not sent. */
  defaultByHandler?: boolean;
  properties?: readonly ParamSpec[]; // for type object
  /** Text longer than this is cut (not rejected), e.g. research queries; documented in the route. */
  truncateAt?: number;
  /** A further rule on a string that the route enforces itself (published in the OpenAPI document). */
  pattern?: string;
}

type Value = string | number | boolean | Record<string, unknown> | undefined;

const err = (field: string, code: string, message: string): FieldError => ({ field, code, message });

/** Validates one raw value (query text, or a JSON value for bodies). */
export function checkValue(spec: ParamSpec, raw: unknown, field = spec.name, fromQuery = true): { value?: Value; error?: FieldError } {
  const blank = typeof raw === 'string' && raw.trim() === '';
  // A query parameter sent empty or blank (`city=`, `city=%20`, `months=`) is malformed (400 naming it), never read as
  // not sent: `regulations/lookup?state=IL&city=` answered the whole state as if no city had been asked (review 10
  // #10). One rule for every query parameter of every route. In a JSON body an optional property given as "", like a
  // null one, stays absent (a client's form may send "" for a field it leaves empty).
  if (blank && fromQuery && !spec.required) return { error: err(field, 'format', `${field} is empty: give a value or leave ${field} out`) };
  if (raw === undefined || raw === null || raw === '' || (blank && fromQuery)) {
    if (spec.required) return { error: err(field, 'required', `${field} is required`) };
    return { value: spec.defaultByHandler ? undefined : spec.default };
  }
  if (spec.type === 'string_array') {
    if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'string')) return { error: err(field, 'type', `${field} must be an array of strings`) };
    const odd = (raw as string[]).map((x, i) => unreadable(x, `${field}[${i}]`)).find((e) => e);
    if (odd) return { error: odd };
    if ((spec.min !== undefined && raw.length < spec.min) || (spec.max !== undefined && raw.length > spec.max)) return { error: err(field, 'range', `${field} must have ${spec.min ?? 0} to ${spec.max ?? 'any number of'} items`) };
    const bad = spec.enum ? (raw as string[]).filter((x) => !spec.enum!.includes(x)) : [];
    if (bad.length) return { error: err(field, 'enum', `${field} has unknown item(s) ${bad.join(', ')}; allowed: ${spec.enum!.join(', ')}`) };
    return { value: [...new Set(raw as string[])] as unknown as Value };
  }
  if (spec.type === 'object') {
    if (typeof raw !== 'object' || Array.isArray(raw)) return { error: err(field, 'object', `${field} must be an object`) };
    return { value: raw as Record<string, unknown> };
  }
  // a query parameter sent twice (`zip=98103&zip=98103`) is refused as a JSON key sent twice is (api/request.ts)
  if (fromQuery && Array.isArray(raw)) return { error: err(field, 'duplicate', `${field} is sent twice; send it once`) };
  if (fromQuery && typeof raw !== 'string') return { error: err(field, 'type', `${field} must be a string`) };
  switch (spec.type) {
    case 'zip': {
      // a JSON number loses a zip's leading zeros (02138 is 2138): a zip is text
      if (typeof raw === 'number') return { error: err(field, 'type', `${field} must be a string of 5 digits, e.g. "${String(raw).padStart(5, '0').slice(0, 5)}", not a number`) };
      if (typeof raw !== 'string') return { error: err(field, 'type', `${field} must be a string of 5 digits, not ${Array.isArray(raw) ? 'an array' : typeof raw === 'object' ? 'an object' : `a ${typeof raw}`}`) };
      // a ZIP+4 ("98103-1234", "98103 1234") and blanks around it are how people write a zip: read as its 5 digits,
      // the one zip rule of every route (review h67: trends and comps refused 98103-1234 that research took)
      const zip = ZIP_RE.exec(raw)?.[1];
      if (zip === undefined) return { error: err(field, 'format', `${field} must be a 5-digit ZIP code or a ZIP+4 (12345-6789)`) };
      return { value: zip };
    }
    case 'county_fips': {
      if (typeof raw !== 'string' || !/^\d{5}$/.test(raw)) return { error: err(field, 'format', `${field} must be a 5-digit county FIPS code`) };
      return { value: raw };
    }
    case 'state': {
      if (typeof raw !== 'string' || !/^[A-Za-z]{2}$/.test(raw)) return { error: err(field, 'format', `${field} must be a 2-letter state code${typeof raw === 'string' ? stateCodeHint(raw) : ''}`) };
      if (raw !== raw.toUpperCase()) return { error: err(field, 'pattern', `${field} must be uppercase, e.g. ${raw.toUpperCase()}`) };
      if (!STATE_CODES.has(raw) && !UNCOVERED_CODES.has(raw)) return { error: err(field, 'enum', `${field} ${raw} is not a US state code`) };
      return { value: raw };
    }
    case 'integer':
    case 'number': {
      // a JSON body's number is a JSON number: "1500" is text, a type error like a number sent as a zip (review 6 #16)
      if (!fromQuery && typeof raw !== 'number') return { error: err(field, 'type', `${field} must be a number, not ${Array.isArray(raw) ? 'an array' : typeof raw === 'object' ? 'an object' : `a ${typeof raw}`}`) };
      // an integer in a query is written one way, in digits: "1e1", "0x10", "10.0", " 10" and "+10" are no spelling of
      // 10 a client means to send (a review's leftover: months=1e1 read as 10); a minus sign stays, read as out of range
      if (spec.type === 'integer' && typeof raw === 'string' && !/^-?\d+$/.test(raw)) {
        return { error: err(field, 'type', `${field} must be a whole number written in digits (no plus sign, decimal point, exponent, hex or blanks), e.g. ${field}=${spec.default ?? spec.min ?? 1}`) };
      }
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      // a JSON number past the doubles (1e400, 400 digits) parses as Infinity: out of range, said so
      const numeral = typeof raw === 'number' || (typeof raw === 'string' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw.trim()));
      if (numeral && (n === Infinity || n === -Infinity)) return { error: err(field, 'type', `${field} must be a finite number: ${typeof raw === 'string' ? raw.slice(0, 20) : 'the number sent'} is ${n > 0 ? 'too large' : 'too far below zero'}${spec.min !== undefined && spec.max !== undefined ? `; it must be from ${spec.min} to ${spec.max}` : ''}`) };
      if (!Number.isFinite(n) || !numeral) {
        return { error: err(field, 'type', `${field} must be a number`) };
      }
      if (spec.type === 'integer' && !Number.isInteger(n)) return { error: err(field, 'type', `${field} must be a whole number`) };
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        return { error: err(field, 'range', `${field} must be from ${spec.min} to ${spec.max}`) };
      }
      return { value: n };
    }
    case 'boolean': {
      if (raw === true || raw === 'true' || raw === '1') return { value: true };
      if (raw === false || raw === 'false' || raw === '0') return { value: false };
      return { error: err(field, 'type', `${field} must be true or false`) };
    }
    case 'enum': {
      if (typeof raw !== 'string') return { error: err(field, 'type', `${field} must be a string`) };
      // the one control-character check of every string parameter covers a listed value too: `category=%00` or
      // `format=%7F` was a 422 "must be one of" where `city=%00` is this 400 (h74fuzz)
      const odd = unreadable(raw, field);
      if (odd) return { error: odd };
      if (!spec.enum!.includes(raw)) return { error: err(field, 'enum', `${field} must be one of ${spec.enum!.join(', ')}`) };
      return { value: raw };
    }
    case 'string': {
      if (typeof raw !== 'string') return { error: err(field, 'type', `${field} must be a string`) };
      // a NUL or another control character is no text a caller types (review 5B: an address "\u0000" was valued);
      // nor is an invisible format or bidi control (review 23: autocomplete echoed q="\u202E123" as typed)
      const odd = unreadable(raw, field);
      if (odd) return { error: odd };
      let s = raw.trim();
      if (s === '' && spec.required) return { error: err(field, 'required', `${field} is required`) };
      if (spec.truncateAt !== undefined && s.length > spec.truncateAt) s = s.slice(0, spec.truncateAt);
      if (spec.min !== undefined && s.length < spec.min) return { error: err(field, 'min_length', `${field} must have at least ${spec.min} characters`) };
      if (spec.max !== undefined && s.length > spec.max) return { error: err(field, 'max_length', `${field} must have at most ${spec.max} characters`) };
      return { value: s };
    }
  }
}

/** A control character, or a lone UTF-16 surrogate ("\ud800" in a JSON body: no character, text of it would be valued
 *  and echoed), in a string value: the 400 `format` error naming the field, else null. */
function unreadable(raw: string, field: string): FieldError | null {
  if (CONTROL_CHARS.test(raw)) return err(field, 'format', `${field} must not contain control characters`);
  if (LONE_SURROGATE.test(raw)) return err(field, 'format', `${field} holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair), which is no character: send the text as UTF-8`);
  return null;
}

/** A zip as the zip rule takes it, its 5 digits in group 1: 5 digits, or a ZIP+4 with a hyphen or a blank, blanks
 *  around either (published as the zip parameters' pattern: api/openapi.ts). */
export const ZIP_RE = /^\s*(\d{5})(?:[- ]\d{4})?\s*$/;
export const ZIP_PATTERN = ZIP_RE.source.replace('(\\d{5})', '\\d{5}');

/** What a state written otherwise than as its code reads as, for the format error: a name, a misspelled name or a
 *  short form ("Washington", "Pensylvania", "Calif."), or a code with blanks around it, names the code to send (the
 *  `state` parameter stays a 2-letter code: review h67, "state must be a 2-letter state code" for state=Washington
 *  said nothing of WA). '' when it reads as no state. */
function stateCodeHint(raw: string): string {
  const code = writtenState(raw);
  if (code === null) return '';
  const t = raw.trim();
  if (/^[A-Za-z]{2}$/.test(t)) return ` with no blanks around it: send ${code}`;
  const name = STATE_NAMES[code as keyof typeof STATE_NAMES];
  return placeKey(t) === placeKey(name) ? `: ${name} is ${code}, send ${code}` : `: "${t.slice(0, 40)}" reads as ${name}, ${code}; send ${code}`;
}

/** C0 controls but tab, line feed and carriage return (a question may span lines), DEL, C1 controls, and Unicode's
 *  format characters (category Cf): the bidi marks, embeddings, overrides and isolates (U+200E/F, U+202A-202E,
 *  U+2066-2069) that reorder how an echoed value reads, zero-width spaces and joiners, the BOM, soft hyphens. The one
 *  check of every string parameter, query and body alike. */
/** An unpaired surrogate: a JSON body's "\ud800" parses to one (a query's %ED%A0%80 is refused as no UTF-8 before). */
const LONE_SURROGATE = /\p{Cs}/u;
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cf}]/u;

/** Validates a set of values against specs; nested object properties are validated with dotted names. */
export function checkAll(specs: readonly ParamSpec[], input: Record<string, unknown>, fromQuery: boolean, prefix = ''): { values: Record<string, Value>; errors: FieldError[] } {
  const values: Record<string, Value> = {};
  const errors: FieldError[] = [];
  for (const spec of specs) {
    const field = prefix + spec.name;
    const r = checkValue(spec, input[spec.name], field, fromQuery);
    if (r.error) { errors.push(r.error); continue; }
    if (spec.type === 'object' && spec.properties && r.value !== undefined) {
      const nested = checkAll(spec.properties, r.value as Record<string, unknown>, false, `${field}.`);
      // Inside an optional object a malformed string is a disallowed value (422), per the research rules
      // (warehouse/docs/research.md); a value of the wrong type (a zip sent as a number) stays 400, as in every body (README "Errors").
      errors.push(...nested.errors.map((e) => (e.code === 'format' ? { ...e, code: 'invalid' } : e)));
      values[spec.name] = nested.values as Record<string, unknown>;
    } else {
      values[spec.name] = r.value;
    }
  }
  return { values, errors };
}
