// @vitest-environment node
import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { documentPath, generate, generateRules, rulesPath, schemaPath } from './gen-api.mjs';

test('src/lib/api-schema.ts is generated from the current openapi.json', async () => {
  const want = await generate(await readFile(documentPath, 'utf8'));
  const got = await readFile(schemaPath, 'utf8');
  expect(got === want, 'src/lib/api-schema.ts is stale: run `npm run gen:api`').toBe(true);
});

test('src/lib/api-rules.ts is generated from the current openapi.json', async () => {
  const want = generateRules(await readFile(documentPath, 'utf8'));
  const got = await readFile(rulesPath, 'utf8');
  expect(got === want, 'src/lib/api-rules.ts is stale: run `npm run gen:api`').toBe(true);
});
