// Row contracts (issue 19), the goal over real builds: the market is built twice (until the marts) over the real
// geography (symlinks into ../shared/data) and real Sacramento sales written in the canonical format, with and
// without poisoned rows; every good row lands, each poisoned row has its reject, and the marts of the two builds
// are the same rows. The given-rows tests of the same rules: contracts-format-steps.test.ts, contracts-row-steps.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PINNED_NOW } from '../helpers/clock.ts';
import { HEADER, linkGeography, TODAY } from '../helpers/canonical-sources.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { runBuild } from '../../pipelines/build.ts';
import { type Manifest } from '../../pipelines/manifest.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';

const SHARED = SHARED_DATA;

afterAll(removeTmpDirs);

// ---------------------------------------------------------------------------------------------------------------

/** The goal: a poisoned canonical sales.csv changes nothing a client sees. */
describe('a poisoned canonical sales.csv among real sales', () => {
  // the market steps and the geography they read (as `npm run bench` builds the market): nothing else feeds the market marts
  const FILTER = ['market', 'comps', 'rehab', 'investor', 'canonical', 'geo', 'simplemaps', 'usgeo', 'gazetteer', 'cbsa_delineation', 'acs_population', 'geonames', 'hud_crosswalk', 'usps_locale', 'zip_reference'].join(',');
  const LAST = ['SMITH', 'NGUYEN', 'GARCIA', "O'BRIEN", 'LEE', 'PATEL', 'KOWALSKI', 'JOHNSON'];
  const FIRST = ['JOHN', 'MARIA', 'WEI', 'ANA', 'SAM', 'PRIYA'];
  const csvField = (s: string): string => (/[",]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

  interface Good { line: number; address: string; zip: string; date: string; price: number; buyer: string }
  let good: Good[];
  let poison: { line: number; rule: string; column: string | null; value: (v: string | null) => boolean }[];
  let dirGood: string;
  let dirPoisoned: string;
  let manifestPoisoned: Manifest;

  beforeAll(async () => {
    // Real Sacramento sales (read in place), written in the canonical format with "LAST, FIRST" buyers and sellers.
    const inst = await DuckDBInstance.create(':memory:');
    const db = await inst.connect();
    const raw = (await db.runAndReadAll(`
      select street, city, zip::varchar as zip, state, beds::varchar as beds, baths::varchar as baths, sq__ft::varchar as sqft,
             case type when 'Residential' then 'sfr' when 'Condo' then 'condo' else 'multi' end as type,
             sale_date_iso::varchar as d, price::int as price, latitude::varchar as lat, longitude::varchar as lng
      from read_csv('${SHARED}/sacramento-real-estate-transactions/sacramento_transactions.csv.gz')
      where type in ('Residential', 'Condo', 'Multi-Family') and price >= 30000 and sq__ft > 0 and beds > 0`)).getRowObjectsJson() as Record<string, string>[];
    db.closeSync(); inst.closeSync();
    expect(raw.length).toBeGreaterThan(700);
    // the last 20 sales name their parties without a comma (no quotes): an unclosed quote before them would swallow them all
    const plain = (i: number): boolean => i >= raw.length - 20;
    const buyerOf = (i: number): string => {
      const name = i % 9 === 0 ? 'RIVER CITY HOMES, LLC' : `${LAST[i % LAST.length]}, ${FIRST[i % FIRST.length]}`;
      return plain(i) ? name.replace(',', '') : name;
    };
    const row = (r: Record<string, string>, i: number, o: Partial<Record<string, string>> = {}): string => {
      const v = { address: r['street']!, city: r['city']!, state: r['state']!, zip: r['zip']!, date: r['d']!, price: String(r['price']), ...o };
      const buyer = buyerOf(i);
      const seller = `${LAST[(i + 3) % LAST.length]}${plain(i) ? '' : ','} ${FIRST[(i + 1) % FIRST.length]}`;
      return [v.address, v.city, v.state, v.zip, v.date, v.price, r['type'], r['beds'], r['baths'], r['sqft'], '', '', r['lat'], r['lng'], buyer, seller].map((x) => csvField(String(x))).join(',');
    };
    const goodLines = raw.map((r, i) => row(r, i));
    // Each poisoned row copies a good row of the busiest zip (so, landed, it would move that market) and breaks one rule.
    const perZip = new Map<string, Record<string, string>[]>();
    for (const r of raw) perZip.set(r['zip']!, [...(perZip.get(r['zip']!) ?? []), r]);
    const busiest = [...perZip.values()].sort((a, b) => b.length - a.length)[0]![0]!;
    const quoteLine = row(busiest, 5, { address: '5 ZQXQUOTE ST' }).replace(`,${busiest['city']},`, `,"${busiest['city']},`); // an unclosed quote
    const tailQuoteLine = row(busiest, raw.length - 1, { address: '6 ZQXTAILQUOTE ST' }).replace(`,${busiest['city']},`, `,"${busiest['city']},`);
    const poisonLines: [string, Omit<(typeof poison)[number], 'line'>][] = [
      [row(busiest, 1, { address: '1 ZQXFUTURE ST', date: '2099-06-01' }), { rule: 'date_in_future', column: 'sale_date', value: (v) => v === '2099-06-01' }],
      [row(busiest, 2, { address: '2 ZQXPRICE ST', price: '1e400' }), { rule: 'out_of_range', column: 'sale_price', value: (v) => v === '1e400' }],
      [row(busiest, 3, { address: '3 ZQXSTATE ST', state: 'ZZ' }), { rule: 'unknown_state', column: 'state', value: (v) => v === 'ZZ' }],
      [row(busiest, 4, { address: `4 ZQX${'LONG'.repeat(800)}`.slice(0, 3000) }), { rule: 'too_long', column: 'address', value: (v) => v!.startsWith('4 ZQXLONG') && v!.endsWith('... (3000 characters)') }],
      [quoteLine, { rule: 'unclosed_quote', column: null, value: (v) => v!.startsWith(`5 ZQXQUOTE ST,"${busiest['city']},CA,`) }],
      [tailQuoteLine, { rule: 'unclosed_quote', column: null, value: (v) => v!.startsWith(`6 ZQXTAILQUOTE ST,"${busiest['city']},CA,`) }],
    ];
    // the poison goes in at fixed places among the good rows, the unclosed quote before rows with quoted names
    const at = [10, 200, 400, 600, 50, -20]; // -20: before the last 20 sales
    const poisoned = [...goodLines];
    good = [];
    poison = [];
    for (const [k, [text]] of poisonLines.entries()) poisoned.splice(at[k]!, 0, text);
    for (const [text, expectation] of poisonLines) poison.push({ line: poisoned.indexOf(text) + 2, ...expectation });
    for (const [i, r] of raw.entries()) {
      good.push({ line: poisoned.indexOf(goodLines[i]!) + 2, address: r['street']!, zip: r['zip']!, date: r['d']!, price: Number(r['price']), buyer: buyerOf(i) });
    }
    expect(new Set(goodLines).size).toBe(goodLines.length); // each good line is found once
    expect(poisoned[poisoned.indexOf(quoteLine) + 1]).toContain('"'); // quoted names follow the first unclosed quote
    expect(poisoned.slice(poisoned.indexOf(tailQuoteLine) + 1).join('\n')).not.toContain('"'); // and no quote at all the second

    const sources = (lines: string[]): string => {
      const dir = tmp('reii-contracts-goal-');
      linkGeography(dir);
      fs.mkdirSync(path.join(dir, 'canonical'));
      fs.writeFileSync(path.join(dir, 'canonical', 'sales.csv'), [HEADER, ...lines].join('\n') + '\n');
      return dir;
    };
    const build = async (lines: string[]): Promise<{ dir: string; manifest: Manifest }> => {
      const artifacts = tmp('reii-contracts-art-');
      const r = await runBuild({ settings: loadSettings({ artifacts, sources: sources(lines), stepFilter: FILTER }), log: silentLogger, now: PINNED_NOW, until: 'marts' });
      return { dir: r.dir, manifest: r.manifest };
    };
    dirGood = (await build(goodLines)).dir;
    const p = await build(poisoned);
    dirPoisoned = p.dir;
    manifestPoisoned = p.manifest;
  }, 600_000);

  /** Read-only SQL over both warehouses at once (`good`, `poisoned`). */
  async function both<T>(sql: string): Promise<T[]> {
    const inst = await DuckDBInstance.create(':memory:');
    const db = await inst.connect();
    try {
      await db.run(`attach '${path.join(dirGood, 'warehouse.duckdb')}' as good (read_only); attach '${path.join(dirPoisoned, 'warehouse.duckdb')}' as poisoned (read_only)`);
      return (await db.runAndReadAll(sql)).getRowObjectsJson() as T[];
    } finally { db.closeSync(); inst.closeSync(); }
  }

  test('every good row lands, with its values and its quoted "LAST, FIRST" buyer', async () => {
    const sales = await both<{ line: number; sale_date: string; sale_price: number; zip: string; buyer_name: string }>(
      `select line::int as line, sale_date::varchar as sale_date, sale_price, zip, buyer_name from poisoned.sales where source = 'canonical' order by line`);
    expect(sales).toEqual(good.map((g) => ({ line: g.line, sale_date: g.date, sale_price: g.price, zip: g.zip, buyer_name: g.buyer })).sort((a, b) => a.line - b.line));
  });

  test('each poisoned row has its reject (line, rule, column, value), and no other line of the file does', async () => {
    const got = await both<{ line: number; rule: string; column_name: string | null; value: string | null; breaks_contract: boolean }>(
      `select line::int as line, rule, column_name, value, breaks_contract from poisoned.meta.rejects where source = 'canonical' order by line`);
    const expected = [...poison].sort((a, b) => a.line - b.line);
    expect(got.map((r) => [r.line, r.rule, r.column_name, r.breaks_contract])).toEqual(expected.map((p) => [p.line, p.rule, p.column, true]));
    for (const [i, r] of got.entries()) expect(expected[i]!.value(r.value), `${r.rule}: ${r.value}`).toBe(true);
    // the manifest counts them per source and rule, and gives the file's share
    expect(manifestPoisoned.rejects.by_source.filter((r) => r.source === 'canonical').map((r) => [r.rule, r.rows]).sort())
      .toEqual([['date_in_future', 1], ['out_of_range', 1], ['too_long', 1], ['unclosed_quote', 2], ['unknown_state', 1]]);
    expect(manifestPoisoned.rejects.by_file).toEqual([expect.objectContaining({ source: 'canonical', file: 'canonical/sales.csv', rows: good.length + poison.length, rejected: poison.length })]);
    const report = fs.readFileSync(path.join(dirPoisoned, 'report.html'), 'utf8');
    expect(report).toContain('<td>canonical</td><td>unclosed_quote</td><td>yes</td><td>2</td>');
  });

  test('no poisoned value reaches any table of the warehouse that feeds an answer', async () => {
    const cols = await both<{ t: string; c: string; type: string }>(`
      select table_name as t, column_name as c, data_type as type from duckdb_columns()
      where database_name = 'poisoned' and schema_name = 'main' and data_type in ('VARCHAR', 'DATE', 'DOUBLE')
        and table_name in (select table_name from duckdb_tables() where database_name = 'poisoned' and schema_name = 'main')`);
    const tables = new Set(cols.map((c) => c.t));
    expect([...tables]).toEqual(expect.arrayContaining(['sales', 'parcels', 'zips', 'mart_comps', 'mart_rehab', 'mart_investor', 'int_market_resales']));
    const q = (c: { t: string; c: string; type: string }): string =>
      c.type === 'VARCHAR' ? `select '${c.t}.${c.c}' as col, count(*) as n from poisoned.main."${c.t}" where "${c.c}" ilike '%ZQX%'${c.c === 'state_code' ? ` or "${c.c}" = 'ZZ'` : ''}`
        : c.type === 'DATE' ? `select '${c.t}.${c.c}', count(*) from poisoned.main."${c.t}" where "${c.c}" > date '${TODAY}'`
          : `select '${c.t}.${c.c}', count(*) from poisoned.main."${c.t}" where isinf("${c.c}")`;
    const hits = await both<{ col: string; n: number }>(`select * from (${cols.map(q).join(' union all ')}) where n > 0`);
    expect(hits).toEqual([]);
  });

  test('no market figure and no as_of changes: the market marts of the two builds are the same rows', async () => {
    for (const mart of ['mart_comps', 'mart_rehab', 'mart_investor']) {
      // doubles compared to 9 significant digits: a sum over parallel threads may differ in its last bit between builds
      const cols = await both<{ c: string; type: string }>(`select column_name as c, data_type as type from duckdb_columns()
        where database_name = 'poisoned' and schema_name = 'main' and table_name = '${mart}' order by column_index`);
      const list = cols.map((x) => (x.type === 'DOUBLE' ? `case when "${x.c}" = 0 then 0 else round("${x.c}", 9 - ceil(log10(abs("${x.c}")))::int) end as "${x.c}"` : `"${x.c}"`)).join(', ');
      const [d] = await both<{ only_good: number; only_poisoned: number; rows: number }>(`select
          (select count(*) from (select ${list} from good.${mart} except all select ${list} from poisoned.${mart}))::int as only_good,
          (select count(*) from (select ${list} from poisoned.${mart} except all select ${list} from good.${mart}))::int as only_poisoned,
          (select count(*) from poisoned.${mart})::int as rows`);
      expect(d, mart).toEqual({ only_good: 0, only_poisoned: 0, rows: expect.any(Number) });
      expect(d!.rows, mart).toBeGreaterThan(0);
    }
    // the markets are dated by their latest real sale (read off the file), never by the 2099 row
    const latest = good.map((g) => g.date).sort().at(-1)!;
    expect(await both(`select max(as_of)::varchar as as_of, max(window_end)::varchar as window_end from poisoned.mart_comps`)).toEqual([{ as_of: latest, window_end: latest }]);
  });
});
