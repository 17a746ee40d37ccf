// Generates src/lib/api-schema.ts (TypeScript types of the whole HTTP API)
// from openapi.json, the committed copy of /api/openapi.json. `npm run gen:api`
// refreshes openapi.json from the Go fragments first; scripts/gen-api.test.mjs
// fails when either file is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = new URL('../', import.meta.url);
export const documentPath = fileURLToPath(new URL('openapi.json', root));
export const schemaPath = fileURLToPath(new URL('src/lib/api-schema.ts', root));

const header = `// Generated from openapi.json (the API description, /api/openapi.json) by
// scripts/gen-api.mjs. Do not edit: change the openapi*.yaml fragments next to the
// Go handlers, then run \`npm run gen:api\`.

`;

/** The contents of api-schema.ts for the given OpenAPI document (JSON text). */
export async function generate(documentJSON) {
  const ast = await openapiTS(JSON.parse(documentJSON), { alphabetize: true });
  return header + astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await generate(await readFile(documentPath, 'utf8'));
  await writeFile(schemaPath, out);
  console.log(`wrote ${schemaPath}`);
}
