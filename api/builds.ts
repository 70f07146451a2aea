// The build the server answers from. Watches artifacts/current; a newly published build is loaded
// beside the old one and swapped in; requests already running keep the build they started with.
import fs from 'node:fs';
import path from 'node:path';
import { currentBuildDir } from '../warehouse/build-folder.ts';
import { FORMAT_VERSION } from '../warehouse/layout.ts';
import { ShardStore } from './shards.ts';
import type { Settings } from '../warehouse/settings.ts';
import type { LiveInstance, LiveModule } from '../warehouse/live.ts';

export interface LoadedBuild {
  dir: string;
  buildId: string;
  asOf: string;
  builtAt: string;
  lastModified: string; // builtAt as an HTTP date (the load time when a manifest has none), for Last-Modified
  shards: ShardStore;
  /** Each live module's instance for this build (api/routes.ts LIVE_MODULES). */
  live: Map<LiveModule<never>, LiveInstance<never>>;
}

export type LiveRegistry = readonly LiveModule<never>[];

export interface BuildHolderOptions {
  /** artifacts (where `current` is), shardCacheMb, and what the live modules read. */
  settings: Readonly<Settings>;
  live: LiveRegistry;
  log: (msg: string, fields?: Record<string, unknown>) => void;
  pollMs?: number;
}

export class BuildHolder {
  private current: LoadedBuild | null = null;
  private timer: NodeJS.Timeout | null = null;
  private loading: Promise<void> | null = null;
  private readonly opts: BuildHolderOptions;

  constructor(opts: BuildHolderOptions) {
    this.opts = opts;
  }

  /** The settings the server runs with (the request pipeline reads corsOrigins from them). */
  get settings(): Readonly<Settings> {
    return this.opts.settings;
  }

  get(): LoadedBuild | null {
    return this.current;
  }

  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => { this.check().catch((err: unknown) => this.opts.log('build check failed', { error: (err as Error).message })); }, this.opts.pollMs ?? 1000);
    this.timer.unref();
  }

  /** Loads the build `current` points at when it differs from the one being served. */
  check(): Promise<void> {
    this.loading ??= this.load().finally(() => { this.loading = null; });
    return this.loading;
  }

  private async load(): Promise<void> {
    const dir = currentBuildDir(this.opts.settings.artifacts);
    if (!dir || dir === this.current?.dir) return;
    let manifest: { format_version?: number; build_id?: string; as_of?: string; built_at?: string };
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as typeof manifest;
    } catch (err) {
      this.opts.log('build not loaded: unreadable manifest', { dir, error: (err as Error).message });
      return;
    }
    if (manifest.format_version !== FORMAT_VERSION) {
      this.opts.log('build not loaded: shard format version mismatch', { dir, found: manifest.format_version, expected: FORMAT_VERSION });
      return;
    }
    const build: LoadedBuild = {
      dir, buildId: manifest.build_id ?? path.basename(dir), asOf: manifest.as_of ?? '', builtAt: manifest.built_at ?? '',
      lastModified: new Date(manifest.built_at || Date.now()).toUTCString(),
      shards: new ShardStore(path.join(dir, 'shards'), this.opts.settings.shardCacheMb * 1024 * 1024), live: new Map(),
    };
    for (const mod of this.opts.live) {
      try {
        build.live.set(mod, await mod.load({ dir, buildId: build.buildId, asOf: build.asOf, settings: this.opts.settings, shards: build.shards }));
      } catch (err) {
        this.opts.log(`live endpoint ${mod.name} unavailable for this build`, { error: (err as Error).message });
      }
    }
    const old = this.current;
    this.current = build;
    this.opts.log('serving build', { build: build.buildId, as_of: build.asOf });
    if (old) {
      // Requests that started on the old build finish on it; free its resources a little later.
      setTimeout(() => { for (const inst of old.live.values()) Promise.resolve().then(() => inst.close?.()).catch(() => { /* the old build's engine: nothing left to do */ }); }, 30_000).unref();
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.current) for (const inst of this.current.live.values()) await inst.close?.();
  }
}
