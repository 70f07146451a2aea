// Over 300 lines: the engine's one request path (resolve, explain, answer) and its market cache, read top to bottom.
// POST /v1/valuation/estimate: the Valuation estimate object, answered in-process from the files the build wrote
// under <build>/live/valuation/ (live/valuation/build.ts). Rules (warehouse/docs/valuation.md):
//   subject    the property GET /v1/property answers for the address (match.ts), its newest sale, else its parcel
//              row (an address one typo from the zip's one recorded line read as it, with a note: typo-street.ts):
//              its facts ('record'; a sqft, beds or baths sent overrides them: facts[] source 'request'); not
//              found -> the zip's typical property with the request's sqft ('request', at most medium), or its typical
//              sqft too ('typical', low), with a note saying the address matched no record
//   units      an address naming a unit (coverage.ts typedUnit) in a source that records no unit sizes (NYC): 404;
//              elsewhere an unmatched unit is the zip's typical unit, valued from unit sales only
//   condition  the request's, else a matched record's recorded one, else good (the spec's default)
//   estimate   live/valuation/estimate.ts (the estimator the build back-tested), valued at the market's latest sale;
//              no sale of a recorded subject's property is one of its comps, as in the back-test
//   404s       coverage.ts: an apartment building of 5+ units (apartments.json), a unit that cannot be valued, a
//              territory, an unknown zip, a zip outside the sources
//   interval   estimate x exp(+-q), q the conformal quantile of the source, mode and tier; uncalibrated mode -> low
import fs from 'node:fs';
import path from 'node:path';
import { ageCap, monthsOld, staleNote } from '../../warehouse/data-age.ts';
import { minConfidence } from '../../warehouse/confidence.ts';
import { lastBuildOnly, NO_DEADLINE, timeBoxed, unavailable, type BuildKey, type Deadline, type LiveAnswer, type LiveBuild, type LiveInstance, type LiveModule } from '../../warehouse/live.ts';
import { CONDITION_FACTOR, RESIDENTIAL_TYPES, type ApartmentRow, type Condition, type ModelParams, type Subject, type ValuationInput, type ValuationMeta } from './types.ts';
export type { ValuationInput } from './types.ts';
import { dayOf, isoOfDay, roundUsd } from './helpers.ts';
import { CompIndex, type ZipTypical } from './comps.ts';
import { checkFolder, readCompFile } from './comp-arrow.ts';
import { estimate } from './estimate.ts';
import { calibrationFor, type CalibrationRow } from './interval.ts';
import { addressKey, normalizeAddress, splitPlace, streetVariants } from '../../warehouse/address.ts';
import { parcelIdForms } from '../../warehouse/parcel-id.ts';
import { addressPlaceNames } from '../places/address-place.ts';
import { loadResolver } from '../places/endpoint.ts';
import type { PlaceResolver } from '../places/resolver.ts';
import type { PropertyEngine } from '../property/engine.ts';
import { loadEngine as loadPropertyEngine } from '../property/endpoint.ts';
import { matchAddress, outOfScope, recordedSqft, type AddressMatch } from './match.ts';
import { typoNote } from '../property/typo-street.ts';
import { lowerTier, noAreaNote, placeNote, tierNote, treesNote, typeNote, unmatchedNote } from './notes.ts';
import { apartmentMessage, outOfScopeMessage, noCompsMessage, noUnitCompsMessage, ownSalesOnlyMessage, typedUnit, unitSizesMessage, valuesUnits, zipMessage, type ZipCoverage } from './coverage.ts';
export { noCompsMessage } from './coverage.ts';
import { blendBody, compsBody, conditionSource, confidenceBasis, sentFacts, subjectBody, usableSent, timeIndexBody, type Sent, type SubjectMatch, type ValuationBody, type ValuationExplain } from './answer.ts';

export type { ValuationBody, ValuationExplain } from './answer.ts';

interface Market { source: string; comps: CompIndex; subjects: CompIndex; params: ModelParams; asOfDay: number; typical: Map<string, ZipTypical | null> }

/** The loaded valuation data of one build; `answer` is the whole request (exported for tests and the bench). */
export class ValuationEngine {
  private readonly markets = new Map<string, Market>();
  /** The build's place resolver (live/places), which reads the place a full address ends with; null: states only. */
  places: PlaceResolver | null = null;
  /** The build's property record (live/property): which property an address is, by its rule; null: the keys alone. */
  property: PropertyEngine | null = null;

  /** `today`: the build's data date (its manifest's as_of), against which a source's age is read; '' reads no age.
   *  `params`: every source's, or a reader of one source's (fromDir: its params file read at a market's first request). */
  constructor(readonly dir: string, readonly meta: ValuationMeta, params: Record<string, ModelParams> | ((source: string) => ModelParams | undefined), readonly calibration: CalibrationRow[], readonly today = '') {
    this.readParams = typeof params === 'function' ? params : (source) => params[source];
  }

  /** A build's valuation folder; one of another format or with a file cut short is refused (checkFolder): a 404 (load). */
  static fromDir(dir: string, today = ''): ValuationEngine {
    const read = <T,>(name: string): T => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as T;
    const meta = checkFolder(dir, read<ValuationMeta>('meta.json'));
    return new ValuationEngine(dir, meta, (source) => { const f = meta.sources[source]?.params_file; return f ? read<ModelParams>(f) : undefined; }, read<CalibrationRow[]>('calibration.json'), today);
  }

  private readonly readParams: (source: string) => ModelParams | undefined;
  private readonly paramsBySource = new Map<string, ModelParams | undefined>();
  /** A source's fitted model (its params-<source>.json), read once. */
  params(source: string): ModelParams | undefined {
    if (!this.paramsBySource.has(source)) this.paramsBySource.set(source, this.readParams(source));
    return this.paramsBySource.get(source);
  }
  /** The sources whose params are in memory (tests). */
  paramsLoaded(): string[] { return [...this.paramsBySource.keys()]; }

  /** A source's comps, loaded on first use. */
  market(source: string): Market {
    let m = this.markets.get(source);
    if (!m) {
      const files = this.meta.sources[source];
      const params = files ? this.params(source) : undefined;
      if (!files || !params) throw new Error(`no valuation files for source ${source}`);
      // the Arrow files' typed arrays are the index's columns (comp-arrow.ts): no parsed object graph for V8 to keep room for
      m = { source, comps: new CompIndex(readCompFile(path.join(this.dir, files.comps_file))), subjects: new CompIndex(readCompFile(path.join(this.dir, files.subjects_file))), params, asOfDay: dayOf(files.as_of), typical: new Map() };
      this.markets.set(source, m);
    }
    return m;
  }

  /** The estimator that answers a subject: a recorded property gets its source's back-test winner (its params file
   *  `model`; 'comps' by default); a request or typical subject is never blended (estimate.ts), so it is 'comps'. */
  modelOf(source: string, mode: Subject['mode']): string {
    return mode === 'record' ? this.params(source)?.model ?? 'comps' : 'comps';
  }

  /** Loads every source now (the bench and a warm server); requests load lazily otherwise. */
  preload(): void {
    for (const s of Object.keys(this.meta.sources)) this.market(s);
  }

  /** A typed address without the place it ends with ("2251 League St, Philadelphia, Pennsylvania 19146", "2251 League
   *  St Philadelphia PA": warehouse/address.ts splitPlace, with the zip's city and the build's place names) and the zip
   *  it names. The last one is kept: a request reads it four times (a third of its time was these state-name checks). */
  placeOf(zip: string, address: string): { line: string; zip: string | null } {
    const last = this.lastPlace, zm = this.meta.zips[zip];
    if (last?.zip === zip && last.address === address && last.places === this.places) return last.placed;
    const placed = splitPlace(address, addressPlaceNames(this.places, zm ? { city: zm.city, state: zm.state } : null));
    this.lastPlace = { zip, address, places: this.places, placed };
    return placed;
  }
  private lastPlace: { zip: string; address: string; places: PlaceResolver | null; placed: { line: string; zip: string | null } } | null = null;

  /** The subject of a request: a recorded sale or parcel of the zip at this address, else the zip's typical property. */
  resolve(m: Market, zip: string, address: string, sqft: number | undefined, sent: Condition | undefined, over: Sent = {}): { subject: Subject | null; address: string; ownRow: number | null; match: SubjectMatch | null; unitsOnly?: boolean; propertyId?: string | null; units?: AddressMatch['units']; typo?: string } {
    const placed = this.placeOf(zip, address);
    const { street, unit } = normalizeAddress(placed.line);
    const typed = typedUnit(placed.line); // a bare unit too ("70 E 10th St 9L")
    const shown = typed.street ? addressKey(typed.street, typed.unit) : address.trim().toUpperCase();
    // the street as typed and with its direction in the other form ("E" / "EAST"), with a bare unit split off, then
    // a parcel id as the address, in each form its source documents (warehouse/parcel-id.ts: King County's 10 digits
    // "0726049190" whose leading zero the file dropped, NYC's 10-digit BBL)
    const keys = [...streetVariants(street, zip).map((v) => `${zip}|${addressKey(v, unit)}`), ...(typed.unit !== unit ? streetVariants(typed.street, zip).map((v) => `${zip}|${addressKey(v, typed.unit)}`) : []),
      ...new Set([address.trim(), ...parcelIdForms(m.source, address)].map((id) => `${zip}|${id}`))];
    // a full address names its zip too ("2251 League St, Philadelphia, PA 19146"): another zip's address is no record here
    const typedZip = placed.zip;
    // the property the property record answers for the address (match.ts), its newest sale, else its parcel row
    const found = typedZip !== null && typedZip !== zip ? null : matchAddress(this.property, m.comps, m.subjects, zip, address, keys);
    const hit = found?.hit ?? null, propertyId = found?.propertyId ?? null;
    if (hit) {
      const { ix, row } = hit;
      const s = ix.subjectOf(row, sent); // not sent: the record's own condition (its source's), else good
      if (sqft !== undefined) s.sqft = sqft;
      if (over.beds !== undefined) s.beds = over.beds;
      if (over.baths !== undefined) s.baths = over.baths;
      return { subject: s, address: shown, ownRow: ix === m.comps ? row : null, match: { on: hit.on, ix, row }, propertyId, ...(found?.typo ? { typo: found.typo } : {}) };
    }
    // an address the records hold as units only, no unit typed: the property record's 404 naming them (unitsMessage)
    if (found?.units) return { subject: null, address: shown, ownRow: null, match: null, propertyId, units: found.units };
    // a unit not found: the zip's typical unit (a sale keyed with a unit), valued from unit sales only
    const units = typed.unit !== null;
    let t = m.typical.get(units ? `${zip}#` : zip);
    if (t === undefined) m.typical.set(units ? `${zip}#` : zip, (t = units ? m.comps.typical(zip, (m.comps.byZip.get(zip) ?? []).filter((i) => m.comps.unit[i] === 1)) : m.comps.typical(zip)));
    // a recorded property out of the scope (5+ units, land, commercial) is a 404 (apartmentMessage), never the typical home
    if (!t || (propertyId !== null && (this.apartment(propertyId) || outOfScope(this.property, propertyId)))) return { subject: null, address: shown, ownRow: null, match: null, propertyId };
    return {
      unitsOnly: units,
      subject: { zip, sqft: sqft ?? t.sqft, beds: over.beds ?? t.beds, baths: over.baths ?? t.baths, year: t.year, features: {}, cond: sent ?? 'good', type: t.type, lat: null, lng: null, mode: sqft === undefined ? 'typical' : 'request' },
      address: shown, ownRow: null, match: null, propertyId,
    };
  }

  /** The subject, estimate and calibration row behind an answer; null when the zip has no usable comps. */
  explain(input: ValuationInput, detail = true, deadline: Deadline = NO_DEADLINE): (ValuationExplain & { address: string; zip: string; sqft: number | undefined; condition: Condition }) | null {
    const zip = String(input.zip);
    const zm = this.meta.zips[zip];
    if (!zm) return null;
    const sent = input.condition !== undefined && input.condition in CONDITION_FACTOR ? (input.condition as Condition) : undefined;
    const sqft = typeof input.sqft === 'number' && Number.isFinite(input.sqft) && input.sqft > 0 ? input.sqft : undefined;
    // a unit where the source records no unit sizes: no comp is a unit, so no estimate (never the building's value)
    if (typedUnit(this.placeOf(zip, String(input.address)).line).unit !== null && !valuesUnits(this.meta, zm.source)) return null;
    const m = this.market(zm.source); // a market is loaded and cached whole before the first check
    deadline.check();
    const over = usableSent(m.comps, sentFacts(input), zm.source); // beds or baths the market's comps record none of: a note, not a fact
    const { subject, address, ownRow, match, unitsOnly, propertyId, typo } = this.resolve(m, zip, String(input.address), sqft, sent, over.used);
    deadline.check(); // before the comps search and the trees
    // a known property is valued from other properties' sales: none of its own sales is a comp, as in the back-test
    // (a parcel with a property_id: that property's sales; another property's sale at its address is a comp)
    const pid = match ? match.ix.data.pid?.at(match.row) : null;
    const own = match && ownRow === null ? m.comps.propertyRows(pid, pid ? null : `${zip}|${match.ix.data.key.at(match.row)}`) : [];
    const e = subject ? estimate(m.comps, m.params, subject, { valuationDay: m.asOfDay, beforeDay: m.asOfDay + 1, detail, excludeRows: own, unitsOnly, ...(ownRow !== null ? { excludeRow: ownRow } : {}) }) : null;
    if (!subject || !e) return null;
    deadline.check();
    // the confidence the answer says: the estimate's tier, capped by the source's age (warehouse/data-age.ts), one step
    // lower when its comps are mostly of another property type (notes.ts); the interval stays the estimate's own tier's,
    // the one the back-test calibrated to cover 80% (notes.ts tierNote says so)
    const notes: string[] = [];
    const key = match ? match.ix.data.key.at(match.row) : null;
    const placed = this.placeOf(zip, String(input.address));
    const unit = key?.includes(' #') ? key.slice(key.indexOf(' #') + 2) : typedUnit(placed.line).unit;
    // an address the property record finds but the valuation has no row of (no living area): found, said so below
    const foundOnly = !match && propertyId ? propertyId : null;
    if (!match && !foundOnly) notes.push(unmatchedNote(address, zip, subject.mode === 'request', unitsOnly === true, placed.zip));
    const typed = typeNote(m.comps, e.rows, subject.type, unit);
    const place = placeNote({ address: String(input.address), line: placed.line, typedZip: placed.zip, zip, zm, comps: m.comps, resolver: this.places });
    const typoRead = typo && match ? typoNote(String(input.address), zip, typo, match.ix.data.pid?.at(match.row) ?? '') : null;
    for (const n of [typoRead, typed, place, over.note, treesNote(m.params, subject, e.gbmLog, e.stackedLog)]) if (n) notes.push(n);
    const aged = minConfidence(e.tier, ageCap(monthsOld(isoOfDay(m.asOfDay), this.today)));
    const tier = typed ? lowerTier(aged) : aged;
    const calibration = calibrationFor(this.calibration, zm.source, subject.mode, e.tier);
    const why = tierNote(e.tier, tier, aged !== e.tier, typed !== null, calibration.calibrated);
    if (why) notes.push(why);
    if (foundOnly) notes.unshift(noAreaNote(address, zip, foundOnly, recordedSqft(this.property, foundOnly), subject.sqft, subject.mode === 'request', calibration.calibrated ? tier : 'low'));
    return { source: zm.source, subject, ownRow, match, propertyId: foundOnly, estimate: e, tier, notes, calibration, comps: m.comps, valuationDay: m.asOfDay, address, zip, sqft, condition: subject.cond };
  }

  /** The answer; `comps` false leaves out the subject and comps blocks (the bench's baseline: the estimate alone). */
  answer(input: ValuationInput, comps = true, deadline: Deadline = NO_DEADLINE): LiveAnswer {
    const x = this.explain(input, comps, deadline);
    // a zip may have sales but none a comp can be made of (Connecticut's files record no living area): not "no sales"
    if (!x) return { ok: false, code: 'no_data', message: this.unitsMessage(input) ?? this.apartmentMessage(input) ?? this.ownSalesOnly(input) ?? this.noAnswerMessage(String(input.zip), String(input.address)) };
    const { estimate: e, calibration, address, zip, sqft, subject, match, condition } = x;
    const valuationDay = isoOfDay(x.valuationDay); // the source's latest sale: the day the estimate values the house at
    const zm = this.meta.zips[zip]!;
    const q = calibration.q;
    const value = roundUsd(e.value);
    const body: ValuationBody = {
      address,
      zip,
      city: zm.city,
      state: zm.state,
      estimated_value: value,
      value_low: Math.min(value, roundUsd(e.value * Math.exp(-q))),
      value_high: Math.max(value, roundUsd(e.value * Math.exp(q))),
      price_per_sqft: sqft !== undefined ? Number((value / sqft).toFixed(2)) : null,
      // an interval not calibrated for this subject mode says nothing about 80%: never more than low confidence; else
      // the tier of explain (age cap, comps of another kind; the interval stays the estimate's tier's, notes say why)
      confidence: calibration.calibrated ? x.tier : 'low',
      comp_count: e.compCount,
      as_of: isoOfDay(e.asOfDay),
      data_age_note: staleNote(valuationDay, this.today, ageWhat(valuationDay, isoOfDay(e.asOfDay))),
      notes: x.notes,
      subject: subjectBody(subject, match, { sqft: sqft !== undefined, ...Object.fromEntries(Object.keys(usableSent(x.comps, sentFacts(input), x.source).used).map((k) => [k, true])) }, condition, conditionSource(input.condition !== undefined, match), x.propertyId ?? null),
      model: this.modelOf(x.source, subject.mode),
      blend: blendBody(this.market(x.source).params.blend, subject.mode, e, roundUsd),
      comps: compsBody(x.comps, e.comps ?? []),
      confidence_basis: confidenceBasis(e, x.valuationDay),
      time_index: timeIndexBody(this.market(x.source).params, x.source, x.valuationDay, x.comps, e.comps ?? []),
    };
    if (!comps) return { ok: true, body: { ...body, subject: undefined, comps: undefined, time_index: undefined } };
    return { ok: true, body };
  }

  private apartments: Record<string, ApartmentRow> | undefined;
  /** An apartment building of five or more units (apartments.json; a build without it: none), outside the scope. */
  apartment = (pid: string): ApartmentRow | null => (this.apartments ??= this.optional<Record<string, ApartmentRow>>('apartments.json') ?? {})[pid] ?? null;

  /** The 404 of an address the property record answers as a building of 5+ units, or (unmatched) land or commercial. */
  private apartmentMessage(input: ValuationInput): string | null {
    const zip = String(input.zip), zm = this.meta.zips[zip];
    if (!zm) return null;
    const { address, propertyId, match } = this.resolve(this.market(zm.source), zip, String(input.address), undefined, undefined);
    const row = propertyId ? this.apartment(propertyId) : null, other = propertyId && !match ? outOfScope(this.property, propertyId) : null;
    return row ? apartmentMessage(zip, address, propertyId!, row) : other ? outOfScopeMessage(zip, address, propertyId!, other) : null;
  }

  /** The 404 of an address the records hold as units only, sent without a unit: GET /v1/property's, naming them. */
  private unitsMessage(input: ValuationInput): string | null {
    const zip = String(input.zip), zm = this.meta.zips[zip];
    const u = zm && this.property ? this.resolve(this.market(zm.source), zip, String(input.address), undefined, undefined).units : null;
    return u ? `${this.property!.notFoundMessage(String(input.address), zip, u)}. The records hold this address as ${u.units} units and no whole property: send the address with one of its units to value it` : null;
  }

  /** The 404 of a recorded subject whose zip's residential comps are all its own property's sales; else null. */
  private ownSalesOnly(input: ValuationInput): string | null {
    const zip = String(input.zip);
    const zm = this.meta.zips[zip];
    if (!zm || typedUnit(this.placeOf(zip, String(input.address)).line).unit !== null) return null;
    const m = this.market(zm.source);
    const { address, ownRow, match } = this.resolve(m, zip, String(input.address), undefined, undefined);
    if (!match) return null;
    const pid = match.ix.data.pid?.at(match.row);
    const own = new Set(ownRow !== null ? m.comps.sameProperty(ownRow) : m.comps.propertyRows(pid, pid ? null : `${zip}|${match.ix.data.key.at(match.row)}`));
    const rows = (m.comps.byZip.get(zip) ?? []).filter((i) => RESIDENTIAL_TYPES.has(m.comps.data.type[i]!));
    if (rows.length === 0 || rows.some((i) => !own.has(i))) return null;
    return ownSalesOnlyMessage(zip, address, rows.map((i) => ({ date: isoOfDay(m.comps.day[i]!), price: m.comps.data.price[i]! })));
  }

  /** A file of the build's valuation folder that older builds lack (null then). */
  private optional<T>(name: string): T | null {
    const file = path.join(this.dir, name);
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : null;
  }

  private coverage: ZipCoverage | null | undefined;
  /** Why a request has no answer: a unit the source or zip cannot value, else the zip's coverage (coverage.ts). */
  noAnswerMessage(zip: string, address: string): string {
    const zm = this.meta.zips[zip];
    const { street, unit } = typedUnit(this.placeOf(zip, address).line);
    const shown = addressKey(street, unit);
    if (zm && unit !== null) return valuesUnits(this.meta, zm.source) ? noUnitCompsMessage(zip, shown, unit) : unitSizesMessage(this.meta, zm.source, zip, shown, unit);
    if (zm) return noCompsMessage(zip);
    if (this.coverage === undefined) this.coverage = this.optional<ZipCoverage>('zips.json');
    return zipMessage(zip, this.coverage, Object.keys(this.meta.sources).sort());
  }
}

/** The engine over a build folder, or why there is none. The last one made is given again for the same build
 *  (lastBuildOnly): the endpoint and research's value answers (live/research/value-estimate.ts) share one engine, so
 *  its comps indexes and fitted models are read and kept once, as GET /v1/property and the valuation share the
 *  property record. */
export const loadValuationEngine: (build: BuildKey) => ValuationEngine | string = lastBuildOnly((build) => makeEngine(build));

function makeEngine(build: BuildKey): ValuationEngine | string {
  const dir = path.join(build.dir, 'live', 'valuation');
  if (!fs.existsSync(path.join(dir, 'meta.json'))) return 'valuation data is not available in this build';
  try {
    const engine = ValuationEngine.fromDir(dir, build.asOf);
    engine.places = loadResolver(build.dir);
    engine.property = loadPropertyEngine(build);
    return engine;
  } catch (err) {
    return `valuation data is not available in this build (unreadable: ${(err as Error).message})`;
  }
}

const valuation: LiveModule<ValuationInput> = {
  name: 'valuation',
  async load(build: LiveBuild): Promise<LiveInstance<ValuationInput>> {
    const engine = loadValuationEngine(build);
    if (typeof engine === 'string') return unavailable(engine);
    // An exception here is a defect, not missing data: it reaches the server's error handler (logged, 500).
    // time-boxed (liveTimeoutMs): past it, at a check between stages, a 504 upstream_timeout (warehouse/live.ts)
    return { handle: (input: ValuationInput) => timeBoxed(build.settings.liveTimeoutMs, (deadline) => engine.answer(input, true, deadline)) };
  },
};

export default valuation;

/** What the data-age note says the estimate is: a value at the source's latest sale (the day the comps' prices are
 *  time-adjusted to), which is not `as_of` (the newest comp kept) unless that comp sold that day: both named, so the
 *  answer never reads as two "as of" dates (valuation.md "The answer"; Philadelphia 19115: as_of 2022-11-18, the roll's
 *  latest sale 2022-12-12). */
export function ageWhat(valuationDay: string, asOf: string): string {
  const newest = asOf === valuationDay ? 'the newest comp used, the answer\'s as_of, sold that day too' : `the newest comp used, the answer's as_of, sold ${asOf}`;
  return `the estimate is a value as of ${valuationDay} (the source's latest sale, the day the comps' prices are adjusted to; ${newest}), not today's`;
}

