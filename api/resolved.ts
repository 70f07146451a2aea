// The shard a GET target resolves to, remembered per build: validation and resolution (place names, shard
// paths) are pure functions of the target and the build, so a target asked before answers without them.
// Only shard replies of routes whose resolve reads no caller (at most (values, build)) are remembered;
// errors are never remembered (they are thrown before), so every 400/404/422 is decided afresh.
import type { LoadedBuild } from './builds.ts';
import type { Reply, Route } from './route.ts';
import type { AnyRoute } from './route-match.ts';

const MAX_TARGETS = 10_000; // per build: a stream of distinct targets cannot grow it past this

export class ResolvedShards {
  private byBuild = new WeakMap<LoadedBuild, Map<AnyRoute, Map<string, Reply>>>();

  /** The shard reply this build gave this route's target before, or null. */
  known(build: LoadedBuild | null, route: AnyRoute, target: string): Reply | null {
    return (build && this.byBuild.get(build)?.get(route)?.get(target)) ?? null;
  }

  remember(build: LoadedBuild | null, route: Route, target: string, reply: Reply): void {
    if (!build || reply.kind !== 'shard' || route.method !== 'GET' || route.resolve.length > 2) return;
    let byRoute = this.byBuild.get(build);
    if (!byRoute) this.byBuild.set(build, (byRoute = new Map()));
    let targets = byRoute.get(route);
    if (!targets) byRoute.set(route, (targets = new Map()));
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(target, reply);
  }
}
