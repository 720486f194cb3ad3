/**
 * Writes the API contract the SDK is built from: openapi.json from the server's routes, and
 * the TypeScript types generated from it. With --check it writes nothing and fails when
 * either committed file is stale, so CI catches a contract that moved without the SDK.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument } from '@wvr/server';

const root = fileURLToPath(new URL('..', import.meta.url));
const jsonPath = `${root}openapi.json`;
const typesPath = `${root}src/generated/openapi.ts`;
const referencePath = `${root}../../docs/api.md`;

const document = buildOpenApiDocument();
const json = `${JSON.stringify(document, null, 2)}\n`;
const types = COMMENT_HEADER + astToString(await openapiTS(document as unknown as OpenAPI3, { defaultNonNullable: false }));

const reference = apiReference(document as unknown as OpenAPI3);

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

if (process.argv.includes('--check')) {
  const stale = [
    [jsonPath, json],
    [typesPath, types],
    [referencePath, reference],
  ].filter(([path, expected]) => read(path!) !== expected);
  if (stale.length > 0) {
    console.error(`The API contract is stale: ${stale.map(([p]) => p).join(', ')}.\nRun \`pnpm contract\` and commit the result.`);
    process.exit(1);
  }
  console.log('API contract is up to date.');
} else {
  writeFileSync(jsonPath, json);
  writeFileSync(typesPath, types);
  writeFileSync(referencePath, reference);
  console.log(`Wrote ${jsonPath}, ${typesPath} and ${referencePath}.`);
}

/** docs/api.md: every operation with its method, path, scope and summary. */
function apiReference(doc: OpenAPI3): string {
  type Operation = { operationId?: string; summary?: string; 'x-wvr-scope'?: string | null; security?: unknown[] };
  const rows = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => {
      const auth = op.security?.length === 0 ? 'none' : (op['x-wvr-scope'] ?? 'any token');
      return `| ${method.toUpperCase()} | \`${path}\` | \`${op.operationId}\` | ${auth} | ${op.summary ?? ''} |`;
    }),
  );
  return [
    '# API reference',
    '',
    `Generated from \`packages/sdk/openapi.json\` (OpenAPI ${doc.openapi}, API version ${doc.info.version}) by \`pnpm contract\`.`,
    'Every path is also served under `/api/v1`. Request and response schemas are in the OpenAPI document,',
    'served at `GET /v1/openapi.json` and browsable at `/docs` on a running server. Errors use the body in [errors.md](errors.md).',
    '',
    '| method | path | operation | scope | summary |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
