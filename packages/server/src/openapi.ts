import { z } from 'zod';
import { API_VERSION } from '@wvr/engine';
import { AnyErrorCodeSchema, ErrorTypeSchema, FieldRuleSchema } from './error-codes.js';
import type { RouteDef } from './route.js';
import { routes as allRoutes } from './routes/index.js';

type JsonSchema = Record<string, unknown>;

export const ErrorResponseSchema = z
  .object({
    error: ErrorTypeSchema.describe('Error type, e.g. validation_error, authentication_error, insufficient_credits'),
    message: z.string().describe('Human-readable explanation'),
    code: AnyErrorCodeSchema.optional().describe('Stable machine-readable code; see docs/errors.md'),
    suggestions: z.array(z.string()).optional().describe('Actions that resolve the error'),
    details: z.record(z.string(), z.unknown()).optional().describe('Extra context, e.g. the failing fields'),
  })
  .meta({ id: 'ErrorResponse' });

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Validation failed',
  '401': 'Missing, malformed, unknown, revoked or expired API token',
  '402': 'Insufficient credits',
  '403': 'The token lacks the scope this route needs',
  '404': 'Not found, or not yours',
  '429': 'Rate limit exceeded; see Retry-After',
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Epoch seconds when the window resets', schema: { type: 'integer' } },
};

/** The API's OpenAPI 3.1 document, built from the same zod schemas the engine validates with. */
export function buildOpenApiDocument(routes: RouteDef[] = allRoutes): JsonSchema {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = `/v1${route.path.replace(/:(\w+)/g, '{$1}')}`;
    const authenticated = route.auth !== 'public';
    const responses: Record<string, unknown> = {
      [String(route.successStatus ?? 200)]: {
        description: route.summary,
        ...(authenticated ? { headers: RATE_LIMIT_HEADERS } : {}),
        content: { 'application/json': { schema: components.add(route.response, 'output') } },
      },
    };
    if (route.dryRun && (route.successStatus ?? 200) !== 200) {
      responses['200'] = {
        description: 'dry_run: the estimate; nothing was created',
        headers: RATE_LIMIT_HEADERS,
        content: { 'application/json': { schema: components.add(route.response, 'output') } },
      };
    }
    for (const [status, description] of Object.entries(ERROR_STATUSES)) {
      if (!authenticated && status !== '400' && status !== '404') continue;
      responses[status] = {
        description,
        ...(status === '429' ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } }, ...RATE_LIMIT_HEADERS } } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
      };
    }
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security: authenticated ? [{ bearerAuth: [] }] : [],
      'x-wvr-scope': route.auth === 'public' || route.auth === 'token' ? null : route.auth,
      parameters: [...parameters(route.params, 'path', components), ...parameters(route.query, 'query', components)],
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: components.add(route.body, 'input') } } } }
        : {}),
      responses,
    };
  }
  components.add(ErrorResponseSchema, 'output');
  components.add(FieldRuleSchema, 'output');
  return components.publish({
    openapi: '3.1.0',
    info: {
      title: 'wvr API',
      version: API_VERSION,
      description:
        'Web monitoring and research for software agents. Every path is also served under /api/v1 (the development layout).',
    },
    // The served document names the server it came from (GET /v1/openapi.json); this is the default address.
    servers: [{ url: 'http://127.0.0.1:8787', description: 'wvr serve (default)' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'wvr_ prefixed JWT' } },
    },
  });
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query', components: Components) {
  if (!schema) return [];
  const json = components.resolve(components.inline(schema, 'input'));
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/**
 * Hoists every schema that carries a `.meta({ id })` into components.schemas and points refs there.
 * A schema reads differently as a request (defaults make fields optional) and as a response
 * (defaults filled in, so required): where the two differ, the request form is published as
 * `<id>Input`, so clients are not told to send what the server fills in.
 */
class Components {
  private readonly output: Record<string, JsonSchema> = {};
  private readonly input: Record<string, JsonSchema> = {};

  add(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    return this.inline(schema, io);
  }

  inline(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    const { $defs: _defs, $schema: _schema, ...root } = json;
    const store = io === 'input' ? this.input : this.output;
    for (const [id, def] of Object.entries(defs)) store[id] ??= clean(def, io);
    return clean(root, io);
  }

  resolve(json: JsonSchema): JsonSchema {
    const ref = typeof json.$ref === 'string' ? json.$ref.replace(/^#\/components\/schemas\/(__in__)?/, '') : null;
    return ref ? (this.input[ref] ?? this.output[ref] ?? json) : json;
  }

  /** The final components, and the document with every request-side ref pointed at its published name. */
  publish(document: JsonSchema): JsonSchema {
    const differs = (id: string) => this.output[id] !== undefined && JSON.stringify(this.output[id]) !== JSON.stringify(this.input[id]);
    const nameOf = (id: string) => (differs(id) ? `${id}Input` : id);
    const schemas: Record<string, JsonSchema> = { ...this.output };
    for (const [id, def] of Object.entries(this.input)) schemas[nameOf(id)] ??= def;
    const text = JSON.stringify({ ...document, components: { ...(document.components as JsonSchema), schemas } });
    return JSON.parse(text.replace(/#\/components\/schemas\/__in__([\w.-]+)/g, (_m, id: string) => `#/components/schemas/${nameOf(id)}`)) as JsonSchema;
  }
}

/** Rewrites refs to components (request-side ones marked until publish) and drops zod's safe-integer bounds. */
function clean(value: JsonSchema, io: 'input' | 'output'): JsonSchema {
  const target = io === 'input' ? '#/components/schemas/__in__' : '#/components/schemas/';
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => {
      if (key === '$ref' && typeof v === 'string') return v.replace('#/$defs/', target);
      if ((key === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && v === Number.MIN_SAFE_INTEGER)) {
        return undefined;
      }
      return v;
    }),
  ) as JsonSchema;
}
