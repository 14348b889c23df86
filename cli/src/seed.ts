import type { System } from './system.js';

/** Demo data for a fresh install. Filled out as features land. */
export async function seed(system: System, _args: string[]): Promise<void> {
  const { rows } = await system.pool.query<{ n: number }>('select count(*)::int as n from rm.users');
  process.stdout.write(`users: ${rows[0]?.n ?? 0}\n`);
}
