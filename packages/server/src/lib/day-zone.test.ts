import { allMenuPaths, allPermissions, type DayZoneDto } from '@csms/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createUser } from '../../test/fixtures.js';
import { startServer, type TestServer } from '../../test/harness.js';
import { insertAlarm, insertOcppLog, insertPoint, insertStation, insertTransaction } from '../modules/monitor/monitor.fixtures.js';

/**
 * Record lists take their time filter's days on the wall clock of the list's station (one chosen,
 * or the user's only one), else in CSMS_TIME_ZONE (UTC here). The day is 10 January 2026:
 * Shanghai 2026-01-09T16:00Z–01-10T16:00Z, New York 01-10T05:00Z–01-11T05:00Z, UTC 01-10T00:00Z–01-11T00:00Z.
 */
let s: TestServer;
let admin: string;
const DAY = 'startTime=2026-01-10&endTime=2026-01-10';
const at = (iso: string) => new Date(iso);
/** A finished session that started at `iso`. */
const started = (iso: string) => ({ startedAt: at(iso), stoppedAt: new Date(at(iso).getTime() + 600_000), meterStopWh: 2000 });

let shanghai: { id: number; name: string };
let newYork: { id: number; name: string };
let nyPoint: { serialNumber: string };
const ids: Record<string, number> = {};

const records = async (token: string, q: string) =>
  (await s.call<{ list: { id: number }[] }>('GET', `/web/chargeRecord/list?page=1&limit=50&${DAY}${q}`, { token })).data.list
    .map((r) => r.id)
    .sort((a, b) => a - b);

beforeAll(async () => {
  s = await startServer({ timeZone: 'UTC' });
  admin = await s.login();
  const db = s.database.db;
  shanghai = await insertStation(db, 1, { timeZone: 'Asia/Shanghai' });
  newYork = await insertStation(db, 1, { timeZone: 'America/New_York' });
  const sh = await insertPoint(db, 1, { stationId: shanghai.id });
  const ny = await insertPoint(db, 1, { stationId: newYork.id });
  nyPoint = ny;
  // 01:00 on 10 January in Shanghai (still the 9th in UTC), and 01:00 on the 11th there (the 10th in UTC).
  ids.shEarly = (await insertTransaction(db, sh, started('2026-01-09T17:00:00Z'))).id;
  ids.shLate = (await insertTransaction(db, sh, started('2026-01-10T17:00:00Z'))).id;
  // 22:00 on 10 January in New York (the 11th in UTC).
  ids.nyLate = (await insertTransaction(db, ny, started('2026-01-11T03:00:00Z'))).id;
  ids.alarm = (await insertAlarm(db, sh, { occurredAt: at('2026-01-09T17:00:00Z') })).id;
  await insertOcppLog(db, {
    serialNumber: ny.serialNumber,
    direction: 'in',
    messageType: 2,
    action: 'Heartbeat',
    messageId: 'm1',
    payload: {},
    createdAt: at('2026-01-11T03:00:00Z'),
  } as never);
});
afterAll(() => s.close());

describe("record lists' days", () => {
  it("take the chosen station's days", async () => {
    expect(await records(admin, `&stationId=${shanghai.id}`)).toEqual([ids.shEarly]);
    expect(await records(admin, `&stationId=${newYork.id}`)).toEqual([ids.nyLate]);
    const alarms = await s.call<{ list: { id: number }[] }>(
      'GET',
      `/web/alarmRecord/list?page=1&limit=10&${DAY}&stationId=${shanghai.id}`,
      {
        token: admin,
      },
    );
    expect(alarms.data.list.map((a) => a.id)).toEqual([ids.alarm]);
  });

  it('take the days of CSMS_TIME_ZONE over several stations, and instants as they are', async () => {
    expect(await records(admin, '')).toEqual([ids.shLate]);
    const instants = `&startTime=2026-01-09T16:00:00.000Z&endTime=2026-01-10T15:59:59.999Z`;
    const r = await s.call<{ list: { id: number }[] }>('GET', `/web/chargeRecord/list?page=1&limit=50${instants}&stationId=${newYork.id}`, {
      token: admin,
    });
    expect(r.data.list).toEqual([]);
  });

  it("take the point's station for a whole serial number (OCPP log), the default zone for part of one", async () => {
    const log = (q: string) =>
      s.call<{ list: unknown[] }>('GET', `/web/ocppLog/list?page=1&limit=10&${DAY}&serialNumber=${q}`, { token: admin });
    expect((await log(nyPoint.serialNumber.toLowerCase())).data.list).toHaveLength(1);
    expect((await log(nyPoint.serialNumber.slice(0, -1))).data.list).toHaveLength(0);
  });

  it('take the station of a user bound to one station', async () => {
    const op = await createOperator(s.database.db, { permissions: allPermissions, rolePaths: allMenuPaths, providerId: 1 });
    const bound = await createUser(s.database.db, { providerId: 1, roleId: op.role.id, stationIds: [shanghai.id] });
    const token = await s.login(bound.username, bound.password);
    expect(await records(token, '')).toEqual([ids.shEarly]);
    const zone = await s.call<DayZoneDto>('GET', '/web/common/dayZone', { token });
    expect(zone.data).toEqual({ timeZone: 'Asia/Shanghai', stationId: shanghai.id, stationName: shanghai.name });
  });

  it('name their zone: the station, or the default, and 404 for a station out of scope', async () => {
    const zone = (q: string, token = admin) => s.call<DayZoneDto>('GET', `/web/common/dayZone${q}`, { token });
    expect((await zone(`?stationId=${newYork.id}`)).data).toEqual({
      timeZone: 'America/New_York',
      stationId: newYork.id,
      stationName: newYork.name,
    });
    expect((await zone(`?serialNumber=${nyPoint.serialNumber}`)).data.timeZone).toBe('America/New_York');
    expect((await zone('')).data).toEqual({ timeZone: 'UTC', stationId: null, stationName: null });
    const other = await createOperator(s.database.db, { permissions: allPermissions, rolePaths: allMenuPaths });
    const token = await s.login(other.user.username, other.user.password);
    expect((await zone(`?stationId=${newYork.id}`, token)).code).toBe(404);
  });
});
