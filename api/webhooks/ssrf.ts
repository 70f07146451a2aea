// Webhook targets are customer-supplied URLs: https only (plain http only with the operator setting below),
// no credentials in the URL, and the host must resolve to public addresses only (no private, loopback,
// link-local, CGNAT, multicast or reserved ranges, also when embedded in IPv6: IPv4-mapped, IPv4-translated
// (::ffff:0:a.b.c.d), IPv4-compatible,
// NAT64 64:ff9b::/96 and 6to4 2002::/16 addresses are judged by the IPv4 address they carry), checked when the
// endpoint is registered and again at every delivery (IP literals before sending, host names at connect
// time: DNS rebinding), unless the operator sets REII_WEBHOOKS_ALLOW_PRIVATE=1 (development and tests on
// 127.0.0.1). That setting is read once, at start (warehouse/settings.ts): every check here is given it.
import dns from 'node:dns';
import net from 'node:net';

const BLOCKED = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates to private networks
  ['100::', 64], ['2001::', 23], // discard; IETF protocol assignments (Teredo 2001::/32 hides its IPv4, ORCHID, benchmarking)
  ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) BLOCKED.addSubnet(addr, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (a dotted IPv4 tail allowed), or null when it is not one. */
function v6Bytes(address: string): number[] | null {
  if (net.isIP(address) !== 6) return null;
  const addr = address.split('%')[0]!; // zone id
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const o = g.split('.').map(Number);
        out.push((o[0]! << 8) | o[1]!, (o[2]! << 8) | o[3]!);
      } else out.push(parseInt(g, 16));
    }
    return out;
  };
  const [head, tail] = addr.split('::') as [string, string | undefined];
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const words = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
  if (words.length !== 8) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const v4At = (b: number[], i: number): string => `${b[i]}.${b[i + 1]}.${b[i + 2]}.${b[i + 3]}`;
const zero = (b: number[], from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);

/** The IPv4 address an IPv6 address carries in a form that routes to it, if any. */
export function embeddedIPv4(address: string): string | null {
  const b = v6Bytes(address);
  if (!b) return null;
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return v4At(b, 12); // IPv4-mapped ::ffff:a.b.c.d
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) return v4At(b, 12); // IPv4-translated ::ffff:0:a.b.c.d (SIIT), e.g. [::ffff:0:7f00:1]
  if (zero(b, 0, 12) && !zero(b, 12, 16)) return v4At(b, 12); // IPv4-compatible ::a.b.c.d (deprecated)
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) return v4At(b, 12); // NAT64 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return v4At(b, 2); // 6to4 2002:aabb:ccdd::/48
  return null;
}

/** True for an address the service must never call. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIPv4(address);
    if (v4) return BLOCKED.check(v4, 'ipv4');
    const b = v6Bytes(address)!;
    const canonical = Array.from({ length: 8 }, (_, i) => ((b[2 * i]! << 8) | b[2 * i + 1]!).toString(16)).join(':');
    return BLOCKED.check(canonical, 'ipv6');
  }
  return true; // not an address at all: refuse
}

/**
 * Checked before every delivery attempt (the setting may have changed since the endpoint was registered, by
 * a restart): plain http, or an IP literal that is private, is refused unless `allowPrivate`. Host names are
 * checked when the connection is made (deliveryLookup). Returns the reason, or null to send.
 */
export function refusedAtSend(raw: string, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'refused: the endpoint url is not a valid URL';
  }
  if (url.protocol !== 'https:') return 'refused: webhook targets must use https (REII_WEBHOOKS_ALLOW_PRIVATE is off)';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && isPrivateAddress(host)) return `refused: ${host} is a private, loopback or link-local address (REII_WEBHOOKS_ALLOW_PRIVATE is off)`;
  return null;
}

export type TargetCheck = { ok: true; url: URL } | { ok: false; code: string; message: string };

/** Validates a target URL and resolves its host; every resolved address must be public (unless `allowPrivate`). */
export async function checkTarget(raw: string, allowPrivate: boolean, lookup: (host: string) => Promise<string[]> = resolveAll): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'format', message: 'url must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, code: 'scheme', message: 'url must use http or https' };
  if (url.username || url.password) return { ok: false, code: 'credentials', message: 'url must not carry credentials; verify the webhook signature instead' };
  if (url.hash) return { ok: false, code: 'fragment', message: 'url must not have a #fragment' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : await lookup(host);
  } catch {
    return { ok: false, code: 'unresolvable', message: `host ${host} does not resolve` };
  }
  if (!addresses.length) return { ok: false, code: 'unresolvable', message: `host ${host} does not resolve` };
  if (!allowPrivate) {
    const bad = addresses.find(isPrivateAddress);
    if (bad) return { ok: false, code: 'private_address', message: `host ${host} resolves to ${bad}, a private, loopback or link-local address; webhook targets must be public` };
    if (url.protocol !== 'https:') return { ok: false, code: 'https_required', message: 'url must use https' };
  }
  return { ok: true, url };
}

async function resolveAll(host: string): Promise<string[]> {
  const rows = await dns.promises.lookup(host, { all: true, verbatim: true });
  return rows.map((r) => r.address);
}

/**
 * The `lookup` of the delivery agent's connections: resolves as usual, then (unless `allowPrivate`) refuses
 * a private address at connect time (a host re-pointed after registration cannot reach the internal network).
 */
export const deliveryLookup = (allowPrivate: boolean): net.LookupFunction => (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) { (callback as (e: Error | null, a: string | dns.LookupAddress[], f?: number) => void)(err, '', 0); return; }
    const list = addresses as dns.LookupAddress[];
    const cb = callback as (e: Error | null, a: string | dns.LookupAddress[], f?: number) => void;
    if (!allowPrivate) {
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad) { cb(Object.assign(new Error(`refused: ${hostname} resolves to private address ${bad.address}`), { code: 'EWEBHOOKPRIVATE' }), '', 0); return; }
    }
    if ((options as dns.LookupOptions).all) cb(null, list);
    else cb(null, list[0]!.address, list[0]!.family);
  });
};
