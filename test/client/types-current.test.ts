// client/types.ts is what openapi-typescript makes of the served OpenAPI document today: regenerated here and
// compared, so a route or schema change without `npm run client:types` fails CI.
import fs from 'node:fs';
import { expect, test } from 'vitest';
import { clientTypes, TYPES_FILE } from '../../scripts/gen-client.ts';
import { openApiDocument } from '../../api/openapi.ts';

test('client/types.ts is current with GET /v1/openapi.json (run `npm run client:types` when this fails)', async () => {
  const want = await clientTypes();
  const have = fs.readFileSync(TYPES_FILE, 'utf8');
  expect(have === want, 'client/types.ts is stale: run `npm run client:types`').toBe(true);
  // and it covers every path of the document
  for (const p of Object.keys(openApiDocument().paths as Record<string, unknown>)) expect(have, p).toContain(`"${p}": {`);
}, 120_000);
