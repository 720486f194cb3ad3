import type pg from 'pg';

/**
 * Runs `fn` in one transaction on one pooled connection: COMMIT when it returns, ROLLBACK when it
 * throws. READ COMMITTED (PostgreSQL's default): the statements inside take the row locks they need.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      // The connection itself failed: the pool must not hand it out again.
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
