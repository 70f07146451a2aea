// Each raw row's line (_row + 1) is its line in the file when the file holds empty lines, which DuckDB's CSV reader
// skips without a reject (pipelines/sources/csv-bytes.ts blankLines, csv-load.ts numberRows). Before: Philadelphia's
// OPA sample has a lone CR on a line, and every row after it cited the line before its own (h68audit's lineage audit:
// parcel 011000021 cited at the line that holds 381230400).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { makeContext } from '../../helpers/context.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { loadCsv } from '../../../pipelines/sources/csv-load.ts';
import { blankLines } from '../../../pipelines/sources/csv-bytes.ts';
import { SOURCES } from '../../../pipelines/sources/registry.ts';

const philadelphia = SOURCES.find((s) => s.id === 'philadelphia')!;

describe('a row keeps its line in the file across the empty lines the reader skips', () => {
  test('blankLines finds empty and lone-CR lines, not an empty line inside a quoted value', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-blank-'));
    const f = path.join(dir, 'x.csv');
    fs.writeFileSync(f, 'a,b\n1,2\n\n3,4\r\n\r\n"x\n\ny",5\n6,7\n');
    try {
      // lines as DuckDB counts them: 1 header, 2 "1,2", 3 empty, 4 "3,4", 5 lone CR, 6 the quoted value over three lines, 7 "6,7"
      expect(await blankLines(f)).toEqual([3, 5]);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });

  test("Philadelphia's OPA sample: every loaded row's line holds that row's parcel in the raw file", async () => {
    const file = philadelphia.files[0]!;
    const folder = path.join(SHARED_DATA, philadelphia.folder);
    const name = fs.readdirSync(folder).find((n) => n.endsWith('.csv.gz') || n.endsWith('.csv'))!;
    const full = path.join(folder, name);
    const text = (name.endsWith('.gz') ? gunzipSync(fs.readFileSync(full)) : fs.readFileSync(full)).toString('utf8');
    const lines = text.split('\n');
    const header = (parse(lines[0]!) as string[][])[0]!;
    const parcelAt = header.indexOf('parcel_number');
    expect(parcelAt).toBeGreaterThanOrEqual(0);
    // the raw file itself holds at least one empty line (else this test would show nothing)
    expect(lines.some((l, i) => i > 0 && i < lines.length - 1 && l.replace(/\r$/, '') === '')).toBe(true);
    const ctx = await makeContext({ sources: SHARED_DATA });
    try {
      await loadCsv(ctx, philadelphia, file, [full]);
      const rows = await ctx.rows<{ parcel: string; line: number }>(`select parcel_number as parcel, (_row + 1)::int as line from raw."philadelphia__${file.key}" order by _row`);
      expect(rows.length).toBeGreaterThan(1000);
      const wrong = rows.filter((r) => {
        const raw = lines[r.line - 1];
        return raw === undefined || (parse(raw, { relax_column_count: true, relax_quotes: true }) as string[][])[0]?.[parcelAt] !== r.parcel;
      });
      expect(wrong.slice(0, 3)).toEqual([]);
    } finally { ctx.close(); }
  });
});
