// Point-in-polygon of the location oracle (oracle-location.ts), written out independently of turf and the product.
/**
 * Even-odd ray casting over a polygon's rings, edges bucketed by latitude band (the Belmont minimal-X polygon has
 * 41,703 vertices and the zips around it are sampled by the thousand). Points exactly on an edge are not asked.
 */
export class RingIndex {
  private readonly edges: number[] = [];
  private readonly bands: number[][];
  private readonly minY: number;
  private readonly h: number;
  constructor(rings: number[][][]) {
    let minY = Infinity, maxY = -Infinity;
    for (const ring of rings) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const [x1, y1] = ring[i]!, [x2, y2] = ring[i + 1]!;
        this.edges.push(x1!, y1!, x2!, y2!);
        minY = Math.min(minY, y1!, y2!); maxY = Math.max(maxY, y1!, y2!);
      }
    }
    const n = Math.max(1, Math.min(2048, Math.ceil(this.edges.length / 4 / 8)));
    this.minY = minY;
    this.h = (maxY - minY) / n || 1;
    this.bands = Array.from({ length: n }, () => []);
    for (let e = 0; e < this.edges.length; e += 4) {
      const lo = this.band(Math.min(this.edges[e + 1]!, this.edges[e + 3]!)), hi = this.band(Math.max(this.edges[e + 1]!, this.edges[e + 3]!));
      for (let b = lo; b <= hi; b++) this.bands[b]!.push(e);
    }
  }
  private band(y: number): number {
    return Math.min(this.bands.length - 1, Math.max(0, Math.floor((y - this.minY) / this.h)));
  }
  contains(x: number, y: number): boolean {
    let inside = false;
    for (const e of this.bands[this.band(y)]!) {
      const x1 = this.edges[e]!, y1 = this.edges[e + 1]!, x2 = this.edges[e + 2]!, y2 = this.edges[e + 3]!;
      if (y1 > y !== y2 > y && x < ((x2 - x1) * (y - y1)) / (y2 - y1) + x1) inside = !inside;
    }
    return inside;
  }
}
