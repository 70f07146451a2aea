// A cache of the values made most recently: get(key, load) answers a kept value, or makes it with load() and keeps
// it, dropping the oldest made once more than `max` are kept. The live modules' per-build caches (resolved place
// names, parsed research shards, property files) are all this.

export class RecentCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string, load: () => V): V {
    if (this.map.has(key)) return this.map.get(key)!;
    const v = load();
    this.map.set(key, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return v;
  }
}
