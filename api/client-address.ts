// The client address that per-address limits (public calls, failed keys) are kept against. Behind a load
// balancer every peer is the balancer: only when the peer is a trusted proxy (REII_TRUSTED_PROXIES) is
// X-Forwarded-For read, from the right: the right-most entry that is not itself a trusted proxy is the
// client (entries to its left were sent by the client and can be anything).
import net from 'node:net';
import type http from 'node:http';

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) -> `1.2.3.4`. */
function plain(addr: string): string {
  return addr.startsWith('::ffff:') && net.isIPv4(addr.slice(7)) ? addr.slice(7) : addr;
}

export class TrustedProxies {
  private readonly list = new net.BlockList();
  readonly size: number;

  /** `spec`: comma-separated IPs and CIDRs, as validated by warehouse/settings.ts. */
  constructor(spec: string) {
    const entries = spec.split(',').map((x) => x.trim()).filter((x) => x !== '');
    for (const e of entries) {
      const [addr = '', bits] = e.split('/');
      const type = net.isIPv4(addr) ? 'ipv4' : 'ipv6';
      if (bits === undefined) this.list.addAddress(addr, type);
      else this.list.addSubnet(addr, Number(bits), type);
    }
    this.size = entries.length;
  }

  has(addr: string): boolean {
    const a = plain(addr);
    const family = net.isIP(a);
    return family !== 0 && this.list.check(a, family === 4 ? 'ipv4' : 'ipv6');
  }

  /** The peer address, or for a trusted peer the right-most X-Forwarded-For entry that is not a trusted proxy. */
  clientOf(req: http.IncomingMessage): string {
    const peer = plain(req.socket.remoteAddress ?? 'unknown');
    if (this.size === 0 || !this.has(peer)) return peer;
    const header = req.headers['x-forwarded-for']; // several headers arrive joined with ", "
    if (typeof header !== 'string' || header === '') return peer;
    const hops = header.split(',');
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(hops[i]!.trim());
      if (hop === '') continue;
      client = hop;
      if (!this.has(hop)) break; // not a proxy of ours (or not an address at all): this is the client
    }
    return client;
  }
}
