import { bigint, customType, jsonb } from 'drizzle-orm/pg-core';

/**
 * Column shapes shared by the PostgreSQL tables, chosen to return what the SQLite columns return:
 * ms-since-epoch instants as JS numbers (bigint: they outgrow int4), JSON as parsed values.
 * ISO timestamps stay `text`, as in SQLite, so a row reads back byte for byte on both drivers.
 */
export const epochMs = (name: string) => bigint(name, { mode: 'number' });
export const json = <T>(name: string) => jsonb(name).$type<T>();

/** A full-text document: PostgreSQL's weighted lexeme vector (no drizzle builtin). */
export const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});
