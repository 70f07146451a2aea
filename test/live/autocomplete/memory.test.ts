// What the autocomplete index of a build keeps in memory (live/autocomplete/index-search.ts fromFile): the columns a
// search reads, not the whole file (31.6 MB of the shared build's, read in whole before); the answered records' street
// lines, points, facts and ids are read from the file (record-reader.ts) and equal the file's bytes read in whole.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { retainedMb } from '../../helpers/retained.ts';
import { AutocompleteIndex } from '../../../live/autocomplete/index-search.ts';

const file = path.join(buildDir(), 'live', 'autocomplete', 'index.bin');

describe('autocomplete index memory', () => {
  it('keeps the search columns only, token ids in 16 bits: under 18 MB of a 31.6 MB file', () => {
    const { value, mb } = retainedMb(() => AutocompleteIndex.fromFile(file));
    expect(value.records).toBeGreaterThan(200_000);
    expect(fs.statSync(file).size).toBeGreaterThan(30 * 2 ** 20);
    expect(mb).toBeLessThan(18);
    expect(AutocompleteIndex.fromFile(file)).toBe(value); // research's address lookups share it
  });

  it('answers every record read from the file as from the whole file\'s bytes', () => {
    const disk = AutocompleteIndex.fromFile(file);
    const whole = AutocompleteIndex.fromBytes(fs.readFileSync(file));
    for (let id = 0; id < disk.records; id += 13) expect(disk.match(id)).toEqual(whole.match(id));
    expect(disk.match(disk.records - 1)).toEqual(whole.match(whole.records - 1));
    // a budget no loaded machine reaches: the two searches compare bytes read, not time (the default 25 ms ran out
    // under CI load and one side answered without its typo tier)
    const opts = { limit: 10, budgetMs: 60_000 };
    const found = disk.search('100 MAIN ST', opts);
    expect(found.mode).toBe('full');
    expect(found).toEqual(whole.search('100 MAIN ST', opts));
  });
});
