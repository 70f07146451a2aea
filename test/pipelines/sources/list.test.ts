// `reii sources list --json`: against ../shared/data every folder there is present with its documented row
// counts; against an empty folder every source is absent, and nothing crashes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SourceListRow } from '../../../pipelines/sources/list.ts';
import { SOURCES } from '../../../pipelines/sources/registry.ts';
import { REPO_ROOT } from '../../../warehouse/settings.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { reii, type Run } from '../../helpers/cli.ts';

const DATA = SHARED_DATA;

// Row counts documented in ../shared/data/README.md, REFERENCE-DATA.md and each SOURCE.md (null: GeoJSON only).
const DOCUMENTED: Record<string, number | null> = {
  simplemaps: 31_254,
  gazetteer: 32_350 + 3_222 + 33_791 + 935,
  cbsa_delineation: 1_915,
  acs_population: 3_222 + 32_325 + 33_772,
  geonames: 41_490,
  hud_crosswalk: 54_447,
  usps_locale: 44_396,
  zip_reference: 33_771,
  zcta_boundaries: null,
  superfund: 1_808 + 13_167,
  fema_nfhl: null,
  fema_nri: 3_142 + 199,
  king_county: 21_613,
  sacramento: 985,
  nyc: 99_183 + 74_023,
  denver: 23_319 + 23_224,
  philadelphia: 5_336,
  connecticut: 9_999 + 40_946,
  nashville: 5_996,
  chicago: 114_358,
  allegheny: 31_859,
  louisville: 396,
  redfin: 122_848,
};
// `sources list` parses CSV records, so the documented counts match exactly.

const cli = (args: string[]): Promise<Run> => reii(args, process.env, 90_000, REPO_ROOT);

const tmpDirs: string[] = [];
afterAll(() => { for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true }); });

describe('reii sources list --json', () => {
  it('against ../shared/data: every folder there is present, with files and row counts', async () => {
    const { code, stdout, stderr } = await cli(['sources', 'list', '--json', '--sources', DATA]);
    expect(code, stderr).toBe(0);
    const rows = JSON.parse(stdout) as SourceListRow[];
    expect(rows.map((r) => r.id)).toEqual(SOURCES.map((s) => s.id));
    const folders = new Set(fs.readdirSync(DATA).filter((n) => fs.statSync(path.join(DATA, n)).isDirectory()));
    for (const r of rows) {
      const src = SOURCES.find((s) => s.id === r.id)!;
      expect(r.folder).toBe(src.folder);
      expect(r.present, r.id).toBe(folders.has(src.folder));
      expect(r.open_data).toBe(src.open);
      expect(r.licence).toBe(src.licence);
      expect(r.vintage).toBe(src.vintage);
      expect(r.attribution).toBe(src.attribution ?? null);
    }
    // every folder of the shared data belongs to a registered source
    for (const f of folders) expect(rows.some((r) => r.folder === f && r.present), f).toBe(true);

    for (const r of rows.filter((x) => x.present)) {
      expect(r.files, r.id).toBeGreaterThan(0);
      if (r.id in DOCUMENTED) {
        const want = DOCUMENTED[r.id]!;
        if (want === null) expect(r.rows, r.id).toBeNull();
        else expect(r.rows, `${r.id}: ${r.rows} rows, documented ${want}`).toBe(want);
      } else {
        expect(r.rows, r.id).toBeGreaterThan(0);
      }
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get('gazetteer')!.files).toBe(4);
    expect(byId.get('usgeo')!.files).toBe(9);
    expect(byId.get('zcta_boundaries')!.files).toBe(3);
    // the operator's own records are not in the shared data
    expect(byId.get('canonical')).toMatchObject({ present: false, files: 0, rows: null });
  });

  it('against an empty folder: every source absent, exit 0', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-list-empty-'));
    tmpDirs.push(empty);
    const { code, stdout, stderr } = await cli(['sources', 'list', '--json', '--sources', empty]);
    expect(code, stderr).toBe(0);
    const rows = JSON.parse(stdout) as SourceListRow[];
    expect(rows).toHaveLength(SOURCES.length);
    for (const r of rows) expect(r, r.id).toMatchObject({ present: false, files: 0, rows: null });
  });

  it('a sources folder that does not exist is a usage error naming it (h74fuzz: it listed every source absent, exit 0)', async () => {
    const missing = path.join(os.tmpdir(), 'reii-list-missing-' + process.pid);
    const { code, stdout, stderr } = await cli(['sources', 'list', '--sources', missing]);
    expect(code, stderr).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`sources folder ${missing} does not exist (set --sources or REII_SOURCES)`);
  });
});
