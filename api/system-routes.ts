// Endpoints about the service itself (not data): the OpenAPI document, health and a key's usage.
import type { Group } from './plans.ts';
import type { ParamSpec } from './params.ts';

export interface SystemRoute {
  method: 'GET';
  path: string;
  group: Group;
  summary: string;
  query?: readonly ParamSpec[];
  body?: undefined;
  cacheControl: string;
  response: string; // a schema of api/schemas.ts, or OpenApiDocument (declared in api/openapi.ts)
  /** Free calls do not count toward the monthly quota. */
  free: true;
}

export const SYSTEM_ROUTES: readonly SystemRoute[] = [
  { method: 'GET', path: '/v1/openapi.json', group: 'public', summary: 'This OpenAPI 3.1 document', cacheControl: 'public, max-age=3600', response: 'OpenApiDocument', free: true },
  { method: 'GET', path: '/v1/health', group: 'public', summary: 'Liveness and the build being served', cacheControl: 'no-store', response: 'Health', free: true },
  { method: 'GET', path: '/v1/usage', group: 'account', summary: "This key's plan, monthly usage and limits (free: not counted)", cacheControl: 'no-store', response: 'Usage', free: true },
];
