import { createOperator } from '../../../test/fixtures.js';
import type { TestServer } from '../../../test/harness.js';
import type { Db } from '../../db/client.js';
import { insertStation } from '../monitor/monitor.fixtures.js';

/** Test helpers shared by the station and point tests. */

/** Every permission of the station and point screens. */
export const stationPermissions = [
  ...['list', 'query', 'add', 'edit', 'remove', 'export'].map((a) => `config:station:${a}`),
  ...['list', 'query', 'add', 'edit', 'remove', 'export', 'move', 'key'].map((a) => `config:point:${a}`),
];

/** An operator of a new provider holding `stationPermissions`, with its session token. */
export async function stationOperator(s: TestServer) {
  const op = await createOperator(s.database.db, { permissions: stationPermissions });
  return { ...op, token: await s.login(op.user.username, op.user.password) };
}

/** The super provider's station for auto-registered chargers, written to the database. */
export const insertUnassignedStation = (db: Db) =>
  insertStation(db, 1, { name: 'Unassigned', address: '-', longitude: 0, latitude: 0, timeZone: 'UTC', isUnassigned: true });
