// Session 26's permits by place and their date word, over the shared real build on the suite's pinned day.
// (1) A county's permits are counted where each permit is: Nashville's file is Metro Nashville and Davidson County's
// (its staging view declares county 47037), so every permit of it is Davidson County's, whatever mailing city it gives;
// before, a permit counted in the county of its city, so Davidson County's 2023 missed the permits mailed to Brentwood,
// Nolensville, Pegram, Ashland City, La Vergne and Mount Juliet, and Williamson County, TN got 21 of them.
// (2) Nashville's file is applications by the day entered (SOURCE.md: Date_Issued empty), so its permits "were applied
// for"; Chicago's are issued (issue_date). (3) Periods compared outside the file ("Nashville permits 2017 vs 2018")
// are both said, and why no change is given; a time counted from today ("year to date") says where the figures' data
// ends, not "the sources end years before today" (Chicago's permits end 4 months before the pinned day).
// Expected figures re-counted from the raw files in ../shared/data (test/helpers/oracle-raw-permits.ts), never the
// code's output.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { CHICAGO, CHICAGO_KIND, NASHVILLE, NASHVILLE_KIND, permitCounts, permitKindList } from '../../helpers/oracle-raw-permits.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
const n = (x: number): string => x.toLocaleString('en-US');

describe('session 26 #1: a county counts the permits that are in it, not those mailed to its cities', () => {
  it('"permits in Davidson County TN in 2023": every Nashville permit of 2023, the mailing cities of other counties included', async () => {
    const c = await permitCounts(NASHVILLE, NASHVILLE_KIND, 'year(d) = 2023');
    // the raw file's 2023 permits mailed to cities of other counties (HUD-USPS: 37027 Brentwood and 37135 Nolensville
    // mostly Williamson, 37143 Pegram Cheatham): all of them Metro Nashville-Davidson's permits
    const [away] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${NASHVILLE} where year(d) = 2023 and upper(city) in ('BRENTWOOD', 'NOLENSVILLE', 'PEGRAM')`);
    expect(away!.n).toBeGreaterThan(0);
    const a = await ask('permits in Davidson County TN in 2023');
    expect(a).toContain(`In Davidson County, TN, ${n(c.all)} building permits were applied for in 2023 (${permitKindList(c)}), each permit counted in the county it is in (Nashville building permit applications is Davidson County, TN's own permit file: every permit of it is counted here, whatever mailing city it gives`);
    expect(a).not.toMatch(/by the city each permit gives|the sum of the \d+ places/);
  });

  it('"permits in Williamson County TN in 2023": none of the Nashville file\'s permits, though 2023 has some mailed to Brentwood and Nolensville', async () => {
    const [mailed] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${NASHVILLE} where year(d) = 2023 and upper(city) in ('BRENTWOOD', 'NOLENSVILLE')`);
    expect(mailed!.n).toBeGreaterThan(0); // 21: before, Williamson County's count
    const a = await ask('permits in Williamson County TN in 2023');
    expect(a).toContain('We have no building permits in 2023 for Williamson County, TN: no permit of this build\'s permit files');
    expect(a).toContain('Nashville building permit applications is another county\'s permit file, whatever mailing city its permits give');
    expect(a).not.toContain(`${mailed!.n} building permits`);
  });

  it('"permits in Cook County in 2023": Chicago\'s 2023 permits, each in its zip\'s county, said, and worded issued', async () => {
    const c = await permitCounts(CHICAGO, CHICAGO_KIND, 'year(d) = 2023');
    const a = await ask('permits in Cook County in 2023');
    expect(a).toContain(`In Cook County, IL, ${n(c.all)} building permits were issued in 2023 (${permitKindList(c)}), each permit counted in the county it is in (Chicago building permits: each permit in the county of its zip, the one holding most of the zip's addresses by the HUD-USPS ZIP-county crosswalk)`);
  });
});

describe('session 26 #2: each permit file\'s date word', () => {
  it('Nashville\'s applications "were applied for" (a year, a window, a zip ranking), Chicago\'s "were issued"', async () => {
    const [h] = await rawQuery<{ issued: number }>(`select count(*)::int as issued from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true) where nullif(trim("Date_Issued"), '') is not null`);
    expect(h!.issued).toBe(0); // SOURCE.md: an applications snapshot, Date_Issued empty
    const y = await permitCounts(NASHVILLE, NASHVILLE_KIND, "year(d) = 2023 and upper(city) = 'NASHVILLE'");
    expect(await ask('how many permits in Nashville in 2023')).toContain(`In Nashville, TN, ${n(y.all)} building permits were applied for in 2023 (${permitKindList(y)})`);
    expect(await ask('How many renovation permits were issued in 37206 over the last 12 months?')).toMatch(/^In zip 37206 \(Nashville, TN\), [\d,]+ renovation\/alteration permits were applied for in the 12 months to 2024-09-19/);
    expect(await ask('which zips in Nashville had the most permits in 2023')).toMatch(/\(each zip's permits applied for in 2023 alone, from the permit records of Nashville building permit applications\)/);
    const c = await permitCounts(CHICAGO, CHICAGO_KIND, 'year(d) = 2024');
    expect(await ask('how many permits in Chicago in 2024')).toContain(`In Chicago, IL, ${n(c.all)} building permits were issued in 2024`);
  });
});

describe('session 26 #3: periods compared outside the file, and a time counted from today', () => {
  it('"Nashville permits 2017 vs 2018": both years said outside the file, no change given', async () => {
    const c = await permitCounts(NASHVILLE, NASHVILLE_KIND, 'true');
    expect(c.first.slice(0, 4)).toBe('2021');
    expect(await ask('Nashville permits 2017 vs 2018')).toBe(`We have no building permits in 2017 or 2018 for Nashville, TN: Nashville building permit applications covers ${c.first} to ${c.last} (its permit records), none of 2017 or 2018, so no change from 2017 to 2018 is given.`);
  });

  it('"permits in Nashville in 2017 vs 2023": 2023 counted, 2017 said outside, and why no change is given', async () => {
    const y = await permitCounts(NASHVILLE, NASHVILLE_KIND, "year(d) = 2023 and upper(city) = 'NASHVILLE'");
    const a = await ask('permits in Nashville in 2017 vs 2023');
    expect(a).toContain(`In Nashville, TN, ${n(y.all)} building permits were applied for in 2023`);
    expect(a).toContain('; no change from 2017 to 2023 is given (2017 outside the file\'s months)');
    expect(a).toContain('We have no building permits in 2017 for Nashville, TN');
  });

  it('"Chicago permits year to date": where the figures\' data ends, said with its date, not "years before today"', async () => {
    const c = await permitCounts(CHICAGO, CHICAGO_KIND, 'true');
    const a = await ask('Chicago permits year to date');
    const months = (Number(PINNED_TODAY.slice(0, 4)) - Number(c.last.slice(0, 4))) * 12 + Number(PINNED_TODAY.slice(5, 7)) - Number(c.last.slice(5, 7));
    expect(a).toContain(`I could not read "year to date" as a period (a time counted from today is not read: the data of the figures here ends ${c.last}, ${months} months before ${PINNED_TODAY}), so no figure here is for it`);
    expect(a).not.toContain('years before today');
  });
});
