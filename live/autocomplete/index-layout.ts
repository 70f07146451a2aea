// From the records the builder collected (live/autocomplete/index-builder.ts, input order, token ids in first-seen
// order) to the columns of the index file (live/autocomplete/index-format.ts): records in static rank order (more
// property facts first, ties in input order), the vocabulary sorted, postings per token, and the records sorted by
// their street-line tokens. Rules: warehouse/docs/address.md.
import type { IndexColumns, Place } from './index-format.ts';

/** The builder's records in input order; `fwd` holds token ids that index `tokens` (first-seen order). */
export interface CollectedRecords {
  records: number;
  tokens: string[];
  places: Place[];
  addrOff: Uint32Array; addr: Uint8Array;
  place: Uint32Array; lat: Int32Array; lng: Int32Array; pointSource: Uint8Array;
  beds: Float32Array; baths: Float32Array; sqft: Float32Array;
  /** 8 bytes per record: its property_id (16 hex digits as bytes), all zero when it has none */
  pid: Uint8Array;
  fwdOff: Uint32Array; fwd: Uint32Array; streetLen: Uint8Array;
  /** how many of beds, baths, sqft each record knows (0-3) */
  facts: Uint8Array;
}

const enc = new TextEncoder();

/** The index columns of the collected records. */
export function layOut(src: CollectedRecords): IndexColumns {
  const N = src.records;
  const V = src.tokens.length;
  const order = staticRankOrder(src.facts, N);
  // vocabulary sorted (code unit order = byte order for A-Z0-9), temp id -> final id
  const sortedTokens = src.tokens.map((t, i) => [t, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const remap = new Uint32Array(V);
  sortedTokens.forEach(([, tmp], fin) => { remap[tmp] = fin; });

  const srcAddr = src.addr; const srcAddrOff = src.addrOff;
  const srcFwd = src.fwd; const srcFwdOff = src.fwdOff;
  const addr = new Uint8Array(srcAddr.length); const addrOff = new Uint32Array(N + 1);
  const fwd = new Uint32Array(srcFwd.length); const fwdOff = new Uint32Array(N + 1);
  const place = new Uint32Array(N); const lat = new Int32Array(N); const lng = new Int32Array(N); const pointSource = new Uint8Array(N);
  const beds = new Float32Array(N); const baths = new Float32Array(N); const sqft = new Float32Array(N);
  const streetLen = new Uint8Array(N); const pid = new Uint8Array(N * 8); const sPid = src.pid;
  const sPlace = src.place; const sLat = src.lat; const sLng = src.lng; const sPoint = src.pointSource;
  const sBeds = src.beds; const sBaths = src.baths; const sSqft = src.sqft; const sStreet = src.streetLen;
  let ap = 0; let fp = 0;
  for (let i = 0; i < N; i++) {
    const o = order[i]!;
    const a0 = srcAddrOff[o]!; const a1 = srcAddrOff[o + 1]!;
    for (let k = a0; k < a1; k++) addr[ap++] = srcAddr[k]!;
    addrOff[i + 1] = ap;
    const f0 = srcFwdOff[o]!; const f1 = srcFwdOff[o + 1]!;
    for (let k = f0; k < f1; k++) fwd[fp++] = remap[srcFwd[k]!]!;
    fwdOff[i + 1] = fp;
    place[i] = sPlace[o]!; lat[i] = sLat[o]!; lng[i] = sLng[o]!; pointSource[i] = sPoint[o]!;
    beds[i] = sBeds[o]!; baths[i] = sBaths[o]!; sqft[i] = sSqft[o]!; streetLen[i] = sStreet[o]!;
    pid.set(sPid.subarray(o * 8, o * 8 + 8), i * 8);
  }
  const { postOff, post } = postingsOf(fwd, fwdOff, N, V);
  const byKey = byStreetKey(fwd, fwdOff, streetLen, N, V);

  const vocabParts = sortedTokens.map(([t]) => enc.encode(t));
  const vocabOff = new Uint32Array(V + 1);
  for (let t = 0; t < V; t++) vocabOff[t + 1] = vocabOff[t]! + vocabParts[t]!.length;
  const vocab = new Uint8Array(vocabOff[V]!);
  vocabParts.forEach((p, t) => vocab.set(p, vocabOff[t]!));

  return { records: N, tokens: V, places: src.places, addrOff, addr, place, lat, lng, pointSource, beds, baths, sqft, pid, fwdOff, fwd, streetLen, vocabOff, vocab, postOff, post, byKey };
}

/** Static rank: more facts first (stable counting sort), ties keep input order. New position -> input id. */
function staticRankOrder(facts: Uint8Array, N: number): Uint32Array {
  const order = new Uint32Array(N);
  const counts = new Uint32Array(5);
  for (let i = 0; i < N; i++) counts[3 - facts[i]!]!++;
  const start = new Uint32Array(5);
  for (let k = 1; k < 5; k++) start[k] = start[k - 1]! + counts[k - 1]!;
  for (let i = 0; i < N; i++) order[start[3 - facts[i]!]!++] = i;
  return order;
}

/** Postings: counting pass (a token repeated within one record counts once), then fill in record order. */
function postingsOf(fwd: Uint32Array, fwdOff: Uint32Array, N: number, V: number): { postOff: Uint32Array; post: Uint32Array } {
  const postOff = new Uint32Array(V + 1);
  const dup = (i: number, k: number): boolean => {
    for (let j = fwdOff[i]!; j < k; j++) if (fwd[j] === fwd[k]) return true;
    return false;
  };
  for (let i = 0; i < N; i++) for (let k = fwdOff[i]!; k < fwdOff[i + 1]!; k++) if (!dup(i, k)) postOff[fwd[k]! + 1]!++;
  for (let t = 0; t < V; t++) postOff[t + 1]! += postOff[t]!;
  const post = new Uint32Array(postOff[V]!);
  const cursor = postOff.slice(0, V);
  for (let i = 0; i < N; i++) for (let k = fwdOff[i]!; k < fwdOff[i + 1]!; k++) if (!dup(i, k)) post[cursor[fwd[k]!]!++] = i;
  return { postOff, post };
}

/** by_key: LSD radix sort of record ids by street-line token sequence (a shorter sequence sorts first). */
function byStreetKey(fwd: Uint32Array, fwdOff: Uint32Array, streetLen: Uint8Array, N: number, V: number): Uint32Array {
  let maxLen = 0;
  for (let i = 0; i < N; i++) if (streetLen[i]! > maxLen) maxLen = streetLen[i]!;
  let byKey = new Uint32Array(N);
  for (let i = 0; i < N; i++) byKey[i] = i;
  let tmp = new Uint32Array(N);
  const counts = new Uint32Array(V + 2);
  const keys = new Uint32Array(N); // each pass's key of byKey[i], read once from the records (random access)
  for (let pos = maxLen - 1; pos >= 0; pos--) {
    counts.fill(0);
    for (let i = 0; i < N; i++) {
      const r = byKey[i]!;
      const k = pos < streetLen[r]! ? fwd[fwdOff[r]! + pos]! + 1 : 0;
      keys[i] = k;
      counts[k + 1]!++;
    }
    for (let k = 1; k < V + 2; k++) counts[k]! += counts[k - 1]!;
    for (let i = 0; i < N; i++) tmp[counts[keys[i]!]!++] = byKey[i]!;
    [byKey, tmp] = [tmp, byKey];
  }
  return byKey;
}
