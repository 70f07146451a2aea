// Webhook targets are customer-supplied URLs: only http/https, no credentials in the URL, and the host must
// resolve to public addresses only (no private, loopback, link-local, CGNAT, multicast or reserved ranges),
// checked when the endpoint is registered and again on every connection (DNS rebinding), unless the operator
// sets REII_WEBHOOKS_ALLOW_PRIVATE=1 (development and tests on 127.0.0.1).
import dns from 'node:dns';
import net from 'node:net';

export function privateAllowed(): boolean {
  return process.env['REII_WEBHOOKS_ALLOW_PRIVATE'] === '1';
}

const BLOCKED = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96], ['100::', 64],
] as const) BLOCKED.addSubnet(addr, prefix, 'ipv6');

/** True for an address the service must never call (IPv4-mapped IPv6 addresses are checked as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
    return BLOCKED.check(address, 'ipv6');
  }
  return true; // not an address at all: refuse
}

export type TargetCheck = { ok: true; url: URL } | { ok: false; code: string; message: string };

/** Validates a target URL and resolves its host; every resolved address must be public (unless allowed). */
export async function checkTarget(raw: string, lookup: (host: string) => Promise<string[]> = resolveAll): Promise<TargetCheck> {
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
  if (!privateAllowed()) {
    const bad = addresses.find(isPrivateAddress);
    if (bad) return { ok: false, code: 'private_address', message: `host ${host} resolves to ${bad}, a private, loopback or link-local address; webhook targets must be public` };
  }
  return { ok: true, url };
}

async function resolveAll(host: string): Promise<string[]> {
  const rows = await dns.promises.lookup(host, { all: true, verbatim: true });
  return rows.map((r) => r.address);
}

/**
 * A `lookup` for the delivery agent's connections: resolves as usual, then refuses a private address at
 * connect time (a host re-pointed after registration cannot reach the internal network).
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) { (callback as (e: Error | null, a: string | dns.LookupAddress[], f?: number) => void)(err, '', 0); return; }
    const list = addresses as dns.LookupAddress[];
    const cb = callback as (e: Error | null, a: string | dns.LookupAddress[], f?: number) => void;
    if (!privateAllowed()) {
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad) { cb(Object.assign(new Error(`refused: ${hostname} resolves to private address ${bad.address}`), { code: 'EWEBHOOKPRIVATE' }), '', 0); return; }
    }
    if ((options as dns.LookupOptions).all) cb(null, list);
    else cb(null, list[0]!.address, list[0]!.family);
  });
};
