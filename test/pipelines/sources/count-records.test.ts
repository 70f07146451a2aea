// The byte counter behind `reii sources list` against csv-parse (the parser it replaced, with the options it
// used) as the oracle: tricky hand-made CSV, then every CSV file of ../shared/data.
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { countCsvRecords } from '../../../pipelines/sources/list.ts';
import { scanSources } from '../../../pipelines/sources/index.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';

const oracle = (text: Buffer | string, delimiter: string): number =>
  (parse(text, { delimiter, bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as unknown[]).length;

describe('countCsvRecords', () => {
  const cases: [string, string, string][] = [
    ['plain lines', 'a,b\n1,2\n3,4\n', ','],
    ['no final newline', 'a,b\n1,2\n3,4', ','],
    ['CRLF line ends', 'a,b\r\n1,2\r\n3,4\r\n', ','],
    ['blank lines are no record', 'a,b\n\n1,2\n\n\n3,4\n\n', ','],
    ['blank CRLF lines are no record', 'a,b\r\n\r\n1,2\r\n\r\n', ','],
    ['a line break inside quotes', 'a,b\n"x\ny",2\n"p\r\nq\n\nr",3\n', ','],
    ['doubled quotes inside quotes', 'a,b\n"say ""hi""\nthere",2\n"""",3\n', ','],
    ['a quote inside an unquoted field is a character', 'a,b\n12" pipe,2\nx"y\nz,3\n', ','],
    ['quoted field after the delimiter', 'a|b\n1|"x\ny"\n2|"z"\n', '|'],
    ['tab delimited, a quote after a tab opens a field', 'a\tb\n1\t"x\ny"\n', '\t'],
    ['byte-order mark', '\ufeffa,b\n1,2\n', ','],
    ['empty', '', ','],
  ];
  for (const [name, text, delim] of cases) {
    it(name, () => {
      expect(countCsvRecords(Buffer.from(text), delim)).toBe(oracle(text, delim));
    });
  }

  it('every CSV file of the shared data: the same count as csv-parse', () => {
    let files = 0;
    for (const { source, files: found } of scanSources(SHARED_DATA)) {
      for (const f of source.files) {
        if (f.format !== 'csv') continue;
        for (const p of found.get(f.key) ?? []) {
          let buf = fs.readFileSync(p);
          if (p.endsWith('.gz')) buf = gunzipSync(buf);
          const delim = f.delim ?? ',';
          expect(countCsvRecords(buf, delim), p).toBe(oracle(buf, delim));
          files++;
        }
      }
    }
    expect(files).toBeGreaterThan(30);
  }, 300_000);
});
