// Unit tests of the parameter rules (api/params.ts), the same rules every endpoint's query and body go through.
// The oracle is the contract: interface-v1.md's validation rules (missing/malformed -> required/type/format, 400;
// well-formed but not allowed -> enum/range/min_length/..., 422), checked value by value at the edges.
import { describe, expect, test } from 'vitest';
import { checkAll, checkValue, STATE_CODES, UNCOVERED_CODES, type ParamSpec } from '../../api/params.ts';

const spec = (s: Partial<ParamSpec> & Pick<ParamSpec, 'type'>): ParamSpec => ({ name: 'f', description: 'test field', ...s });
const code = (s: ParamSpec, raw: unknown, fromQuery = true): string | undefined => checkValue(s, raw, s.name, fromQuery).error?.code;
const value = (s: ParamSpec, raw: unknown, fromQuery = true): unknown => {
  const r = checkValue(s, raw, s.name, fromQuery);
  expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  return r.value;
};

describe('missing values', () => {
  test('undefined and null are missing: required -> required, optional -> the default; the empty string too in a JSON body', () => {
    const req = spec({ type: 'string', required: true });
    const opt = spec({ type: 'integer', default: 6 });
    for (const raw of [undefined, null, '']) {
      const r = checkValue(req, raw);
      expect(r.error).toEqual({ field: 'f', code: 'required', message: 'f is required' });
      expect(value(opt, raw, false)).toBe(6);
      if (raw !== '') expect(value(opt, raw)).toBe(6);
    }
    expect(value(spec({ type: 'enum', enum: ['a'] }), undefined)).toBeUndefined();
  });

  test('a query parameter sent empty or blank is malformed (400 format, naming it), never taken as not sent (review 10 #10)', () => {
    const kinds: ParamSpec[] = [
      spec({ name: 'city', type: 'string', min: 1, max: 100 }), spec({ name: 'note', type: 'string' }), spec({ name: 'months', type: 'integer', default: 6 }),
      spec({ name: 'category', type: 'enum', enum: ['a'] }), spec({ name: 'zip', type: 'zip' }), spec({ name: 'flag', type: 'boolean' }),
    ];
    for (const s of kinds) {
      for (const raw of ['', ' ', ' \t ']) {
        expect(checkValue(s, raw).error, `${s.name}=${JSON.stringify(raw)}`).toEqual({ field: s.name, code: 'format', message: `${s.name} is empty: give a value or leave ${s.name} out` });
      }
      expect(checkValue(s, undefined).error).toBeUndefined();
    }
    // a required one sent blank is missing, as before
    expect(checkValue(spec({ name: 'state', type: 'state', required: true }), ' ').error).toEqual({ field: 'state', code: 'required', message: 'state is required' });
  });

  test('a default the handler applies (defaultByHandler) is published but not filled in: the handler sees it was not sent', () => {
    const spec: ParamSpec = { name: 'condition', type: 'enum', enum: ['good', 'fair'], default: 'good', defaultByHandler: true, description: 'c' };
    expect(checkValue(spec, undefined)).toEqual({ value: undefined });
    expect(checkValue({ ...spec, defaultByHandler: undefined }, undefined)).toEqual({ value: 'good' });
    expect(checkValue(spec, 'fair', 'condition', false)).toEqual({ value: 'fair' });
  });

  test('the field name given (a dotted body path) is the one reported', () => {
    expect(checkValue(spec({ type: 'zip', required: true }), undefined, 'context.zip').error?.field).toBe('context.zip');
    expect(checkValue(spec({ type: 'zip' }), '123', 'context.zip').error).toMatchObject({ field: 'context.zip', code: 'format' });
  });
});

describe('zip and county_fips: five digits', () => {
  for (const type of ['zip', 'county_fips'] as const) {
    test(type, () => {
      const s = spec({ type });
      expect(value(s, '02139')).toBe('02139');
      for (const bad of ['0213', '021390', '0213a', 'x02139', '02139x', '2.139', '0213 9']) expect(code(s, bad), bad).toBe('format');
      expect(checkValue(s, '1234').error?.message).toBe(type === 'zip' ? 'f must be a 5-digit ZIP code or a ZIP+4 (12345-6789)' : 'f must be a 5-digit county FIPS code');
      // in a JSON body a number is not a zip (leading zeros would be lost): a zip says so, naming the text to send
      if (type === 'zip') {
        expect(checkValue(s, 2139, 'zip', false).error).toMatchObject({ code: 'type', message: 'zip must be a string of 5 digits, e.g. "02139", not a number' });
        expect(checkValue(s, 98103, 'zip', false).error?.message).toBe('zip must be a string of 5 digits, e.g. "98103", not a number');
        expect(checkValue(s, ['98103'], 'zip', false).error).toEqual({ field: 'zip', code: 'type', message: 'zip must be a string of 5 digits, not an array' });
      } else expect(code(s, 2139, false)).toBe('format');
    });
  }
  test('a zip as people write it (review h67): a ZIP+4 with a hyphen or a blank, and blanks around it, read as its 5 digits', () => {
    const s = spec({ type: 'zip' });
    for (const [raw, want] of [['98103-1234', '98103'], ['98103 1234', '98103'], [' 02139', '02139'], ['02139 ', '02139'], ['\t02139-0001 ', '02139']] as const) {
      expect(value(s, raw), raw).toBe(want);
      expect(value(s, raw, false), raw).toBe(want);
    }
    for (const bad of ['98103-123', '98103-12345', '98103--1234', '981031234', '98103_1234', '98103-abcd']) expect(code(s, bad), bad).toBe('format');
    // county FIPS codes are not zips: no +4, no blanks
    for (const bad of ['53033-0001', ' 53033']) expect(code(spec({ type: 'county_fips' }), bad), bad).toBe('format');
  });
});

describe('state codes', () => {
  const s = spec({ type: 'state' });
  test('the 50 states and DC are accepted, as are the uncovered USPS codes (their 404 is the route\'s)', () => {
    expect(STATE_CODES.size).toBe(51);
    for (const c of [...STATE_CODES, ...UNCOVERED_CODES]) expect(value(s, c)).toBe(c);
  });
  test('not two letters -> format; lower or mixed case -> pattern naming the upper-case form; unknown -> enum', () => {
    for (const bad of ['C', 'CAL', 'C4', '1A', ' CA', 'CA ', 'xCA', 'CAx']) expect(code(s, bad), bad).toBe('format');
    expect(checkValue(s, 'ca').error).toEqual({ field: 'f', code: 'pattern', message: 'f must be uppercase, e.g. CA' });
    expect(code(s, 'Ca')).toBe('pattern');
    expect(code(s, 'cA')).toBe('pattern');
    expect(checkValue(s, 'ZZ').error).toEqual({ field: 'f', code: 'enum', message: 'f ZZ is not a US state code' });
    expect(checkValue(s, 'CA', 'state', false).value).toBe('CA');
    expect(code(s, 12, false)).toBe('format');
  });
  test('a state written otherwise than as its code (review h67): still 400 format, naming the code to send', () => {
    for (const [raw, tail] of [
      ['Washington', ': Washington is WA, send WA'], ['WASHINGTON', ': Washington is WA, send WA'], ['new york', ': New York is NY, send NY'],
      ['Washingon', ': "Washingon" reads as Washington, WA; send WA'], ['Pensylvania', ': "Pensylvania" reads as Pennsylvania, PA; send PA'],
      ['Conneticut', ': "Conneticut" reads as Connecticut, CT; send CT'], ['Calif.', ': "Calif." reads as California, CA; send CA'],
      ['D.C.', ': "D.C." reads as District of Columbia, DC; send DC'], [' WA ', ' with no blanks around it: send WA'], ['CA ', ' with no blanks around it: send CA'],
    ] as const) expect(checkValue(s, raw).error, raw).toEqual({ field: 'f', code: 'format', message: `f must be a 2-letter state code${tail}` });
    // no state: the message as before, naming none
    for (const raw of ['Zzzz', 'C4', 'Nowhere']) expect(checkValue(s, raw).error?.message, raw).toBe('f must be a 2-letter state code');
  });
});

describe('integers and numbers', () => {
  const months = spec({ type: 'integer', min: 3, max: 24, default: 6 });
  test('range edges are inclusive; outside -> range with the bounds in the message', () => {
    expect(value(months, '3')).toBe(3);
    expect(value(months, '24')).toBe(24);
    expect(checkValue(months, '2').error).toEqual({ field: 'f', code: 'range', message: 'f must be from 3 to 24' });
    expect(code(months, '25')).toBe('range');
    expect(code(months, '-4')).toBe('range');
  });
  test('only a min or only a max bounds one side', () => {
    const atLeast = spec({ type: 'number', min: 100 });
    expect(value(atLeast, '1e9')).toBe(1e9);
    expect(code(atLeast, '99.5')).toBe('range');
    const atMost = spec({ type: 'number', max: 10 });
    expect(value(atMost, '-1e9')).toBe(-1e9);
    expect(code(atMost, '10.01')).toBe('range');
  });
  test('numeric text forms: signs, decimals, exponents, surrounding blanks', () => {
    const n = spec({ type: 'number' });
    expect(value(n, '42')).toBe(42);
    expect(value(n, '-71.1')).toBe(-71.1);
    expect(value(n, '+3')).toBe(3);
    expect(value(n, '.5')).toBe(0.5);
    expect(value(n, '5.')).toBe(5);
    expect(value(n, '1.5e3')).toBe(1500);
    expect(value(n, '2E-2')).toBe(0.02);
    expect(value(n, ' 7 ')).toBe(7);
    expect(value(n, 12.5, false)).toBe(12.5);
  });
  test('what Number() would accept but the rule does not: hex, binary, Infinity, commas, units (blanks: "missing values")', () => {
    const n = spec({ type: 'number' });
    for (const bad of ['0x10', '0b11', 'Infinity', '-Infinity', 'NaN', '1,000', '12px', 'six', '1e', 'e5', '--1', '1.2.3', '.']) {
      expect(checkValue(n, bad).error, bad).toEqual({ field: 'f', code: 'type', message: 'f must be a number' });
    }
    expect(code(n, Infinity, false)).toBe('type');
    // a numeral past the doubles (a JSON 1e400 parses as Infinity) says it is too large, with the range (review h67)
    const lat = spec({ name: 'lat', type: 'number', min: -90, max: 90 });
    expect(checkValue(lat, '1e400').error).toEqual({ field: 'lat', code: 'type', message: 'lat must be a finite number: 1e400 is too large; it must be from -90 to 90' });
    expect(checkValue(lat, -Infinity, 'lat', false).error).toEqual({ field: 'lat', code: 'type', message: 'lat must be a finite number: the number sent is too far below zero; it must be from -90 to 90' });
    expect(code(n, NaN, false)).toBe('type');
    expect(code(n, true, false)).toBe('type');
    // a JSON body's number must be a JSON number, as its zip must be a string (review 6 #16: "sqft": "1500" was valued)
    expect(checkValue(n, '12', 'f', false).error).toEqual({ field: 'f', code: 'type', message: 'f must be a number, not a string' });
    expect(code(spec({ type: 'integer' }), '3', false)).toBe('type');
    expect(code(n, [12], false)).toBe('type');
  });
  test('integer in a query: digits only; a fraction, or a whole number spelt another way ("1e1", "6.0", "+6", " 6"), is a type error', () => {
    const i = spec({ type: 'integer', default: 6 });
    const digitsOnly = { field: 'f', code: 'type', message: 'f must be a whole number written in digits (no plus sign, decimal point, exponent, hex or blanks), e.g. f=6' };
    for (const bad of ['6.5', '6.0', '1e1', '0x10', '+6', ' 6', '6 ', '6.', '0b11', 'six']) expect(checkValue(i, bad).error, bad).toEqual(digitsOnly);
    expect(value(i, '6')).toBe(6);
    expect(value(i, '06')).toBe(6);
    // a JSON body's integer is a JSON number (6.0 and 1e1 are the number 6 and 10 once parsed); a fraction is no integer
    expect(value(i, 10, false)).toBe(10);
    expect(checkValue(i, 6.5, 'f', false).error).toEqual({ field: 'f', code: 'type', message: 'f must be a whole number' });
    expect(value(spec({ type: 'number' }), '6.5')).toBe(6.5);
  });
  test('a query parameter given twice is refused for every scalar type', () => {
    for (const type of ['zip', 'state', 'county_fips', 'string', 'integer', 'number', 'boolean', 'enum'] as const) {
      const r = checkValue(spec({ type, enum: ['a'] }), ['1', '2']);
      expect(r.error, type).toEqual({ field: 'f', code: 'duplicate', message: 'f is sent twice; send it once' });
    }
  });
});

describe('booleans', () => {
  const b = spec({ type: 'boolean' });
  test('true/1 and false/0, as text or JSON; anything else -> type', () => {
    expect(value(b, 'true')).toBe(true);
    expect(value(b, '1')).toBe(true);
    expect(value(b, true, false)).toBe(true);
    expect(value(b, 'false')).toBe(false);
    expect(value(b, '0')).toBe(false);
    expect(value(b, false, false)).toBe(false);
    for (const bad of ['yes', 'no', 'TRUE', 'False', '2', 'maybe']) expect(checkValue(b, bad).error, bad).toEqual({ field: 'f', code: 'type', message: 'f must be true or false' });
    expect(code(b, 1, false)).toBe('type');
  });
});

describe('enums', () => {
  const e = spec({ type: 'enum', enum: ['sfr', 'condo'] });
  test('a listed value passes; another -> enum listing the allowed ones; a non-string body value -> type', () => {
    expect(value(e, 'condo')).toBe('condo');
    expect(checkValue(e, 'castle').error).toEqual({ field: 'f', code: 'enum', message: 'f must be one of sfr, condo' });
    expect(code(e, 'SFR')).toBe('enum');
    expect(code(e, 'sfr ')).toBe('enum');
    expect(checkValue(e, 3, 'f', false).error).toEqual({ field: 'f', code: 'type', message: 'f must be a string' });
  });
});

describe('strings', () => {
  test('trimmed; min and max length after trimming; a required blank string is missing', () => {
    const s = spec({ type: 'string', min: 3, max: 5, required: true });
    expect(value(s, '  abc  ')).toBe('abc');
    expect(value(s, 'abcde')).toBe('abcde');
    expect(checkValue(s, 'ab').error).toEqual({ field: 'f', code: 'min_length', message: 'f must have at least 3 characters' });
    expect(code(s, ' ab ')).toBe('min_length');
    expect(checkValue(s, 'abcdef').error).toEqual({ field: 'f', code: 'max_length', message: 'f must have at most 5 characters' });
    expect(checkValue(s, '    ').error).toEqual({ field: 'f', code: 'required', message: 'f is required' });
    expect(checkValue(s, 5, 'f', false).error).toEqual({ field: 'f', code: 'type', message: 'f must be a string' });
    // control characters are refused (review 5B: an address "\u0000" was valued); tab and line breaks are text
    for (const bad of ['\u0000', 'ab\u0000c', 'abc\u001b[31m', 'abc\u007f']) {
      expect(checkValue(s, bad).error, JSON.stringify(bad)).toEqual({ field: 'f', code: 'format', message: 'f must not contain control characters' });
    }
    expect(value(s, 'ab\tc')).toBe('ab\tc');
    expect(value({ ...s, max: 20 }, 'line one\r\nline')).toBe('line one\r\nline');

    // a lone UTF-16 surrogate (a JSON body's "\ud800") is no character (review h67: an address of one was valued and
    // echoed); a pair is one character (an emoji) and stays text
    for (const bad of ['\ud800', 'ab\udfffc', 'abc\ud83d']) {
      expect(checkValue(s, bad, 'f', false).error, JSON.stringify(bad)).toEqual({ field: 'f', code: 'format', message: 'f holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair), which is no character: send the text as UTF-8' });
    }
    expect(value(s, 'ab\ud83d\ude00', false)).toBe('ab\ud83d\ude00');
  });
  test('in a JSON body an optional blank string is the empty string, not an error', () => {
    expect(value(spec({ type: 'string' }), '   ', false)).toBe('');
  });
  test('truncateAt cuts long text instead of refusing it, before the length rules', () => {
    const q = spec({ type: 'string', min: 1, max: 4, truncateAt: 4 });
    expect(value(q, 'abcdefgh')).toBe('abcd');
    expect(value(q, 'abcd')).toBe('abcd');
    expect(value(spec({ type: 'string', truncateAt: 10 }), 'short')).toBe('short');
  });
});

describe('string arrays', () => {
  const a = spec({ type: 'string_array', enum: ['x', 'y', 'z'], min: 1, max: 2 });
  test('items from the list, count within bounds, duplicates removed in first-seen order', () => {
    expect(value(a, ['y', 'x'], false)).toEqual(['y', 'x']);
    expect(value(a, ['y', 'y'], false)).toEqual(['y']);
    expect(value(a, ['z'], false)).toEqual(['z']);
  });
  test('not an array of strings -> type; count out of bounds -> range; unknown items -> enum naming them', () => {
    for (const bad of ['x', { x: 1 }, ['x', 1], [null]]) expect(checkValue(a, bad, 'f', false).error, JSON.stringify(bad)).toEqual({ field: 'f', code: 'type', message: 'f must be an array of strings' });
    expect(checkValue(a, [], 'f', false).error).toEqual({ field: 'f', code: 'range', message: 'f must have 1 to 2 items' });
    expect(code(a, ['x', 'y', 'z'], false)).toBe('range');
    expect(checkValue(a, ['x', 'w'], 'f', false).error).toEqual({ field: 'f', code: 'enum', message: 'f has unknown item(s) w; allowed: x, y, z' });
    expect(checkValue(spec({ type: 'string_array', enum: ['x'] }), ['q', 'r'], 'f', false).error?.message).toBe('f has unknown item(s) q, r; allowed: x');
  });
  test('without bounds or a list any strings pass; the range message names open bounds', () => {
    const free = spec({ type: 'string_array' });
    expect(value(free, [], false)).toEqual([]);
    expect(value(free, ['a', 'b', 'c'], false)).toEqual(['a', 'b', 'c']);
    expect(checkValue(spec({ type: 'string_array', min: 2 }), ['a'], 'f', false).error?.message).toBe('f must have 2 to any number of items');
    expect(checkValue(spec({ type: 'string_array', max: 1 }), ['a', 'b'], 'f', false).error?.message).toBe('f must have 0 to 1 items');
  });
});

describe('objects and checkAll', () => {
  const CONTEXT: ParamSpec = {
    name: 'context', type: 'object', description: 'ctx',
    properties: [
      { name: 'zip', type: 'zip', description: 'z' },
      { name: 'city', type: 'string', min: 1, max: 100, description: 'c' },
      { name: 'state', type: 'state', description: 's' },
    ],
  };
  const BODY: ParamSpec[] = [{ name: 'query', type: 'string', required: true, min: 1, description: 'q' }, CONTEXT, { name: 'depth', type: 'enum', enum: ['quick', 'deep'], default: 'quick', description: 'd' }];

  test('an object must be a JSON object', () => {
    for (const bad of ['x', 3, ['a']]) expect(checkValue(CONTEXT, bad, 'context', false).error, JSON.stringify(bad)).toEqual({ field: 'context', code: 'object', message: 'context must be an object' });
    expect(value(CONTEXT, { zip: '02139' }, false)).toEqual({ zip: '02139' });
  });

  test('valid values come back with defaults filled in and nested values validated', () => {
    const r = checkAll(BODY, { query: ' rent control? ', context: { zip: '02139', state: 'MA', city: ' Cambridge ' } }, false);
    expect(r.errors).toEqual([]);
    expect(r.values).toEqual({ query: 'rent control?', context: { zip: '02139', city: 'Cambridge', state: 'MA' }, depth: 'quick' });
  });

  test('nested failures carry dotted names; inside an object format failures become invalid (422), a wrong type stays a type failure (400, README)', () => {
    const r = checkAll(BODY, { query: 'q', context: { zip: '0213', state: 'ma', city: '' } }, false);
    expect(r.errors).toEqual([
      { field: 'context.zip', code: 'invalid', message: 'context.zip must be a 5-digit ZIP code or a ZIP+4 (12345-6789)' },
      { field: 'context.state', code: 'pattern', message: 'context.state must be uppercase, e.g. MA' },
    ]);
    const t = checkAll(BODY, { query: 'q', context: { city: 7, state: 'ZZ' } }, false);
    expect(t.errors).toEqual([
      { field: 'context.city', code: 'type', message: 'context.city must be a string' },
      { field: 'context.state', code: 'enum', message: 'context.state ZZ is not a US state code' },
    ]);
  });

  test('every failing field is reported, in spec order, and a failing field has no value', () => {
    const r = checkAll(BODY, { context: 'Boston', depth: 'forever' }, false);
    expect(r.errors.map((e) => `${e.field}:${e.code}`)).toEqual(['query:required', 'context:object', 'depth:enum']);
    expect(r.values).toEqual({});
  });

  test('an absent optional object stays absent; names not in the specs are ignored', () => {
    const r = checkAll(BODY, { query: 'q', extra: 1 }, false);
    expect(r.errors).toEqual([]);
    expect(r.values).toEqual({ query: 'q', context: undefined, depth: 'quick' });
  });

  test('query values (fromQuery) must be single strings; body values may be JSON numbers and booleans', () => {
    const specs: ParamSpec[] = [{ name: 'n', type: 'integer', description: 'n' }, { name: 'b', type: 'boolean', description: 'b' }];
    expect(checkAll(specs, { n: 5, b: true }, false)).toEqual({ values: { n: 5, b: true }, errors: [] });
    expect(checkAll(specs, { n: 5, b: true }, true).errors.map((e) => e.code)).toEqual(['type', 'type']);
    expect(checkAll(specs, { n: '5', b: 'true' }, true)).toEqual({ values: { n: 5, b: true }, errors: [] });
  });
});
