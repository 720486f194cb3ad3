/** Malformed request cases derived from the OpenAPI document, for the contract test. */

type Schema = Record<string, unknown>;

export interface FieldCase {
  /** Dotted path of the field at fault, as details.fields names it. */
  path: string;
  payload: Record<string, unknown>;
}

export function resolve(doc: Schema, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  while (typeof current.$ref === 'string') {
    const name = current.$ref.split('/').pop()!;
    current = ((doc.components as Schema).schemas as Record<string, Schema>)[name] ?? {};
  }
  return current;
}

/** Top-level properties of a body schema, across union branches. */
export function propertiesOf(doc: Schema, schema: Schema | undefined): Record<string, Schema> {
  const resolved = resolve(doc, schema);
  const branches = [...((resolved.anyOf ?? resolved.oneOf ?? resolved.allOf ?? []) as Schema[])];
  const own = (resolved.properties ?? {}) as Record<string, Schema>;
  return Object.assign({}, ...branches.map((b) => propertiesOf(doc, b)), own);
}

function typesOf(doc: Schema, schema: Schema): string[] {
  const resolved = resolve(doc, schema);
  if (typeof resolved.type === 'string') return [resolved.type];
  if (Array.isArray(resolved.type)) return resolved.type as string[];
  if (resolved.enum) return ['string'];
  const branches = (resolved.anyOf ?? resolved.oneOf ?? []) as Schema[];
  return branches.flatMap((b) => typesOf(doc, b));
}

const NESTED = { nested: { deeper: [1, { x: null }] } };

/**
 * Values of the wrong type for a field, and values just past its declared bounds; for an
 * object field (or an array of objects) the same for each of its own fields, one level down.
 */
export function fieldCases(doc: Schema, field: string, schema: Schema, nested = true): FieldCase[] {
  const types = typesOf(doc, schema);
  const resolved = resolve(doc, schema);
  const cases: FieldCase[] = [];
  const wrong = (value: unknown) => cases.push({ path: field, payload: { [field]: value } });
  if (!types.includes('null')) wrong(null);
  if (!types.includes('string')) wrong('not-a-number-or-object');
  if (!types.includes('number') && !types.includes('integer')) wrong(12345);
  if (!types.includes('object')) wrong(NESTED);
  if (!types.includes('array')) wrong(['x']);
  if (!types.includes('boolean')) wrong(true);
  if (typeof resolved.maxLength === 'number') wrong('a'.repeat(resolved.maxLength + 1));
  if (typeof resolved.maximum === 'number') wrong(resolved.maximum + 1);
  if (typeof resolved.minimum === 'number') wrong(resolved.minimum - 1);
  if (types.includes('integer') && !types.includes('number')) wrong(1.5);
  if (!nested) return cases;
  const items = resolve(doc, resolved.items as Schema | undefined);
  const inArray = types.includes('array') && Object.keys(propertiesOf(doc, items)).length > 0;
  const parent = inArray ? items : resolved;
  // In a tagged union the missing tag is the fault zod reports, not the wrong child.
  if (parent.oneOf || parent.anyOf) return cases;
  const children = propertiesOf(doc, parent);
  for (const [child, childSchema] of Object.entries(children)) {
    for (const inner of fieldCases(doc, child, childSchema, false)) {
      const value = inner.payload[child];
      cases.push(
        inArray
          ? { path: `${field}.0.${child}`, payload: { [field]: [{ [child]: value }] } }
          : { path: `${field}.${child}`, payload: { [field]: { [child]: value } } },
      );
    }
  }
  return cases;
}
