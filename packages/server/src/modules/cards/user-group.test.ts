import type { ChargeUserDto, UserGroupDto } from '@csms/contract';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness.js';
import { price, station, userGroup } from '../../db/schema.js';
import { cardsApi, ok, twoProviders, uniq, type CardsApi, type Operator } from './cards.fixtures.js';

let s: TestServer, a: Operator, b: Operator, A: CardsApi, B: CardsApi;
beforeAll(async () => {
  ({ s, a, b, A, B } = await twoProviders());
});
afterAll(() => s.close());

type Page<T> = { list: T[]; total: number };

describe('user groups', () => {
  it('adds with a monthly limit in Wh, lists, gets, edits and clears the limit', async () => {
    const name = uniq('Fleet');
    const g = await ok(
      A.post<UserGroupDto>('/web/userGroup/add', { name, description: 'taxis', providerId: a.providerId, monthlyLimitWh: 150_500 }),
    );
    expect(g).toMatchObject({ name, description: 'taxis', providerId: a.providerId, memberCount: 0, monthlyLimitWh: 150_500 });
    expect(
      (await ok(A.get<Page<UserGroupDto>>(`/web/userGroup/list?page=1&limit=10&name=${name.slice(0, 6)}`))).list.map((x) => x.id),
    ).toEqual([g.id]);
    expect(await ok(A.get(`/web/userGroup/get?id=${g.id}`))).toEqual(g);
    const edited = await ok(A.post<UserGroupDto>('/web/userGroup/edit', { id: g.id, name: `${name}2`, description: '' }));
    expect(edited).toMatchObject({ name: `${name}2`, description: null, monthlyLimitWh: null });
    expect((await ok(A.get<{ id: number; name: string }[]>('/web/userGroup/options'))).map((o) => o.id)).toContain(g.id);
    expect((await ok(B.get<{ id: number }[]>('/web/userGroup/options'))).map((o) => o.id)).not.toContain(g.id);
  });

  it('keeps names unique per provider and validates in both languages', async () => {
    const g = await A.addGroup({ providerId: a.providerId });
    expect(await A.post('/web/userGroup/add', { name: g.name, providerId: a.providerId })).toEqual({
      code: 409,
      msg: `Group name "${g.name}" already exists for this provider`,
      data: { field: 'name' },
    });
    expect((await B.post('/web/userGroup/add', { name: g.name, providerId: b.providerId })).code).toBe(200);
    const before = (await s.database.db.select({ n: count() }).from(userGroup))[0]!.n;
    expect(await A.post('/web/userGroup/add', { name: 'x', providerId: a.providerId, monthlyLimitWh: 0 }, 'zh')).toEqual({
      code: 400,
      msg: '每人每月电量上限（kWh）不能小于 1',
      data: { field: 'monthlyLimitWh' },
    });
    expect(await A.post('/web/userGroup/add', { providerId: a.providerId }, 'en')).toEqual({
      code: 400,
      msg: 'Group name is required',
      data: { field: 'name' },
    });
    expect((await s.database.db.select({ n: count() }).from(userGroup))[0]!.n).toBe(before);
  });

  it('puts charge users in and takes them out; moves them from another group', async () => {
    const g1 = await A.addGroup({ providerId: a.providerId });
    const g2 = await A.addGroup({ providerId: a.providerId });
    const u1 = await A.addUser({ providerId: a.providerId });
    const u2 = await A.addUser({ providerId: a.providerId });
    expect(await ok(A.post<UserGroupDto>('/web/userGroup/addMembers', { id: g1.id, chargeUserIds: [u1.id, u2.id] }))).toMatchObject({
      memberCount: 2,
    });
    const members = await ok(A.get<Page<ChargeUserDto>>(`/web/userGroup/members?id=${g1.id}&page=1&limit=10`));
    expect(members.list.map((m) => m.id).sort()).toEqual([u1.id, u2.id].sort());
    expect(members.list.every((m) => m.groupName === g1.name)).toBe(true);

    expect(await ok(A.post<UserGroupDto>('/web/userGroup/addMembers', { id: g2.id, chargeUserIds: [u2.id] }))).toMatchObject({
      memberCount: 1,
    });
    expect(await A.user(u2.id)).toMatchObject({ groupId: g2.id });
    expect(await ok(A.get<UserGroupDto>(`/web/userGroup/get?id=${g1.id}`))).toMatchObject({ memberCount: 1 });

    // Taking out of a group a user is not in changes nothing.
    expect(await ok(A.post<UserGroupDto>('/web/userGroup/removeMembers', { id: g1.id, chargeUserIds: [u2.id] }))).toMatchObject({
      memberCount: 1,
    });
    expect(await A.user(u2.id)).toMatchObject({ groupId: g2.id });
    expect(await ok(A.post<UserGroupDto>('/web/userGroup/removeMembers', { id: g1.id, chargeUserIds: [u1.id] }))).toMatchObject({
      memberCount: 0,
    });
    expect(await A.user(u1.id)).toMatchObject({ groupId: null });
  });

  it("refuses members of another provider: 404 when invisible, 400 when of a provider the caller sees but not the group's", async () => {
    const g = await A.addGroup({ providerId: a.providerId });
    const gB = await B.addGroup({ providerId: b.providerId });
    const uB = await B.addUser({ providerId: b.providerId });
    const uA = await A.addUser({ providerId: a.providerId });
    expect((await A.post('/web/userGroup/addMembers', { id: g.id, chargeUserIds: [uB.id] })).code).toBe(404);
    expect((await B.post('/web/userGroup/addMembers', { id: g.id, chargeUserIds: [uB.id] })).code).toBe(404);
    expect((await B.get(`/web/userGroup/members?id=${g.id}&page=1&limit=10`)).code).toBe(404);
    const admin = cardsApi(s, await s.login());
    expect(await admin.post('/web/userGroup/addMembers', { id: gB.id, chargeUserIds: [uA.id] })).toEqual({
      code: 400,
      msg: `Charge user "${uA.account}" does not belong to the group's provider`,
      data: { field: 'chargeUserIds' },
    });
    expect(await A.user(uA.id)).toMatchObject({ groupId: null });
  });

  it('refuses to remove a group with members (409 with the reason) and removes an empty one', async () => {
    const g = await A.addGroup({ providerId: a.providerId });
    const u = await A.addUser({ providerId: a.providerId, groupId: g.id });
    expect(await A.post('/web/userGroup/remove', { ids: [g.id] })).toEqual({
      code: 409,
      msg: `Group "${g.name}" still has 1 members and cannot be deleted`,
      data: null,
    });
    expect((await A.post('/web/userGroup/remove', { ids: [g.id] }, 'zh')).msg).toBe(`分组“${g.name}”还有 1 个成员，不能删除`);
    expect((await B.post('/web/userGroup/remove', { ids: [g.id] })).code).toBe(404);
    await ok(A.post('/web/userGroup/removeMembers', { id: g.id, chargeUserIds: [u.id] }));
    expect(await ok(A.post('/web/userGroup/remove', { ids: [g.id] }))).toEqual({ removed: 1 });
    expect((await A.get(`/web/userGroup/get?id=${g.id}`)).code).toBe(404);
  });

  it('refuses to remove a group that a group electricity price refers to', async () => {
    const g = await A.addGroup({ providerId: a.providerId });
    const db = s.database.db;
    const [st] = await db
      .insert(station)
      .values({
        providerId: a.providerId,
        name: uniq('st'),
        country: 'CN',
        address: 'x',
        longitude: 121,
        latitude: 31,
        timeZone: 'Asia/Shanghai',
      })
      .returning();
    const fee = {
      sharpElec: 1,
      sharpService: 1,
      peakElec: 1,
      peakService: 1,
      flatElec: 1,
      flatService: 1,
      valleyElec: 1,
      valleyService: 1,
    };
    await db.insert(price).values({
      providerId: a.providerId,
      stationId: st!.id,
      groupId: g.id,
      effectiveFrom: new Date(),
      ...fee,
      slots: Array(48).fill('flat'),
    });
    expect(await A.post('/web/userGroup/remove', { ids: [g.id] })).toEqual({
      code: 409,
      msg: `Group "${g.name}" has group electricity prices and cannot be deleted`,
      data: null,
    });
    expect(await ok(A.get(`/web/userGroup/get?id=${g.id}`))).toMatchObject({ id: g.id });
  });

  it('exports the limit in kWh', async () => {
    const g = await A.addGroup({ providerId: a.providerId, monthlyLimitWh: 12_345 });
    const res = await fetch(`${s.url}/prod-api/web/userGroup/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-language': 'en' },
      body: JSON.stringify({ name: g.name, format: 'csv' }),
    });
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toContain('Monthly limit per member (kWh)');
    expect(lines[1]).toContain('12.345');
    expect(lines).toHaveLength(2);
  });
});
