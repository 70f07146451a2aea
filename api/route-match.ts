// Which route a request is for: the route table (api/routes.ts) and the system routes indexed by path,
// `{name}` segments matched as path parameters (404 when no path matches), then the method (405 with the
// path's Allow header; OPTIONS answers with it).
import { HttpError } from './errors.ts';
import { ROUTES } from './routes.ts';
import type { Route } from './route.ts';
import { SYSTEM_ROUTES, type SystemRoute } from './system-routes.ts';

export type AnyRoute = Route | SystemRoute;

/** The routes at one path and its Allow header. */
export interface PathRoutes { routes: AnyRoute[]; allow: string }

const ALL_ROUTES: readonly AnyRoute[] = [...ROUTES, ...SYSTEM_ROUTES];
const BY_PATH = new Map<string, PathRoutes>();
const PATTERNS: { re: RegExp; names: string[]; path: string }[] = [];
for (const r of ALL_ROUTES) {
  const routes = [...(BY_PATH.get(r.path)?.routes ?? []), r];
  BY_PATH.set(r.path, { routes, allow: [...new Set(routes.flatMap((x) => (x.method === 'GET' ? ['GET', 'HEAD'] : [x.method])))].join(', ') });
  if (r.path.includes('{') && !PATTERNS.some((p) => p.path === r.path)) {
    const names: string[] = [];
    const re = new RegExp('^' + r.path.replace(/\{(\w+)\}/g, (_, n: string) => { names.push(n); return '([^/]+)'; }) + '$');
    PATTERNS.push({ re, names, path: r.path });
  }
}

/** Every method some path answers (the Allow of a 405 to CONNECT, which names no path). */
export const SERVER_METHODS = [...new Set(ALL_ROUTES.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]))), 'OPTIONS'].join(', ');

/** A path matched: its routes and path parameters. */
interface PathMatch { at: PathRoutes; params: Readonly<Record<string, string>> }
/** The match of each path as written in the table, made once (no object per request). */
const EXACT = new Map<string, PathMatch>([...BY_PATH].map(([p, at]) => [p, Object.freeze({ at, params: Object.freeze({}) })]));

/** The routes at a path and its path parameters (percent-decoded; validated later), or null; a 400 for a parameter
 *  whose escapes are no UTF-8 text. */
function matchPath(pathname: string): PathMatch | null {
  const exact = EXACT.get(pathname);
  if (exact) return exact;
  for (const p of PATTERNS) {
    const m = p.re.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [i, n] of p.names.entries()) {
      try {
        params[n] = decodeURIComponent(m[i + 1]!);
      } catch {
        // an escape that is no UTF-8 text (/v1/webhooks/%C0%AE): the endpoint exists, its parameter is malformed (a 404
        // "No endpoint" before, review h71's sweep)
        const why = /%(?![0-9A-Fa-f]{2})/.test(m[i + 1]!) ? 'has a % not followed by two hex digits' : 'is not UTF-8 text: its percent-escapes decode to no character';
        throw new HttpError('bad_request', `The path has malformed percent-encoding: ${m[i + 1]!.slice(0, 60)}`,
          { errors: [{ field: n, code: 'format', message: `${n} ${why}; percent-encode the UTF-8 bytes of the text` }] });
      }
    }
    return { at: BY_PATH.get(p.path)!, params };
  }
  return null;
}

/** The routes at a path: 404 when there are none. */
export function findPath(pathname: string): PathMatch {
  const matched = matchPath(pathname);
  if (matched) return matched;
  // the path of an endpoint written with a trailing slash, in capitals or with a doubled slash ("/v1/geo/lookup/",
  // "/V1/GEO/LOOKUP"): still a 404, never read as that endpoint, but naming it (review h68)
  const near = pathname.toLowerCase().replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1');
  const hint = near !== pathname && matchPath(near) ? `: the endpoint's path is ${near} (lower case, no trailing slash)` : '';
  throw new HttpError('not_found', `No endpoint ${pathname}${hint}; see /v1/openapi.json`);
}

/** The route of a method at a path (HEAD is GET): 405 naming the allowed methods when there is none. */
export function routeFor(at: PathRoutes, reqMethod: string | undefined, pathname: string): AnyRoute {
  const method = reqMethod === 'HEAD' ? 'GET' : reqMethod;
  const route = at.routes.find((r) => r.method === method);
  if (!route) throw new HttpError('method_not_allowed', `${reqMethod} is not allowed on ${pathname}; use ${at.allow}`, { headers: { Allow: at.allow } });
  return route;
}

/** The headers of the answer to OPTIONS: Allow, and CORS on a public path. */
export function optionsHeaders(at: PathRoutes): Record<string, string> {
  return { Allow: `${at.allow}, OPTIONS`, ...(at.routes[0]!.group === 'public' ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': at.allow } : {}) };
}
