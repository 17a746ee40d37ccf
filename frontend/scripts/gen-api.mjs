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
export const rulesPath = fileURLToPath(new URL('src/lib/api-rules.ts', root));

const header = `// Generated from openapi.json (the API description, /api/openapi.json) by
// scripts/gen-api.mjs. Do not edit: change the openapi*.yaml fragments next to the
// Go handlers, then run \`npm run gen:api\`.

`;

/** The contents of api-schema.ts for the given OpenAPI document (JSON text). */
export async function generate(documentJSON) {
  const ast = await openapiTS(JSON.parse(documentJSON), { alphabetize: true });
  return header + astToString(ast);
}

function required(value, what) {
  if (value === undefined) throw new Error(`openapi.json states no ${what}`);
  return value;
}

/**
 * The contents of api-rules.ts: the checks the server states in the document (patterns,
 * lengths, refused values) for the inputs the forms check as the server does, so both
 * sides read one list.
 */
export function generateRules(documentJSON) {
  const schemas = JSON.parse(documentJSON).components.schemas;
  const c = schemas.CredentialName;
  const [reserved, prefixes] = c.not.anyOf;
  const h = schemas.Hsts;
  const rules = {
    credentialName: {
      maxLength: c.maxLength,
      pattern: c.pattern,
      reservedNames: reserved.enum,
      reservedPattern: prefixes.pattern,
    },
    hsts: {
      maxAge: required(h.properties.maxAge.maximum, 'Hsts maxAge maximum'),
      preloadMinAge: required(h.then?.properties?.maxAge?.minimum, 'Hsts preload maxAge minimum'),
    },
  };
  return `${header}/** Server-side input rules, from openapi.json. */\nexport const apiRules = ${JSON.stringify(rules, null, 2)} as const;\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = await readFile(documentPath, 'utf8');
  await writeFile(schemaPath, await generate(doc));
  await writeFile(rulesPath, generateRules(doc));
  console.log(`wrote ${schemaPath} and ${rulesPath}`);
}
