import { applyReferenceOf, type ApplyDto, type ApplyStatus } from '@csms/contract';
import { and, asc, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { application, provider, role, systemUser } from '../../db/schema.js';
import type { Principal } from '../../http/context.js';
import { API_PREFIX } from '../../http/mount.js';
import { pageTotal } from '../../lib/bounded-count.js';
import { contains, lowerLike } from '../../lib/text-search.js';

export interface ApplyFilter {
  referenceNo?: string | undefined;
  text?: string | undefined;
  status?: ApplyStatus | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

export type ApplicationRow = typeof application.$inferSelect;
export type NewApplication = typeof application.$inferInsert;

/** `AP00000012` or the bare number → 12; anything else → undefined. */
const idOfReference = (text: string): number | undefined => {
  const m = /^(?:AP)?(\d{1,12})$/i.exec(text.trim());
  const n = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Applications are the platform's: only users who see every provider (the super provider's) see
 * them; anyone else finds none, as with another provider's rows.
 */
export function createApplyRepo({ db }: { db: Db }) {
  const visible = (p: Principal, ...more: (SQL | undefined)[]) => and(p.providerIds === 'all' ? undefined : sql`false`, ...more);
  const filterSql = (f: ApplyFilter) => {
    const id = f.referenceNo ? idOfReference(f.referenceNo) : undefined;
    const like = f.text ? contains(f.text) : undefined;
    return and(
      f.referenceNo ? (id === undefined ? sql`false` : eq(application.id, id)) : undefined,
      like
        ? or(
            lowerLike(application.companyName, like),
            lowerLike(application.contact, like),
            lowerLike(application.phone, like),
            lowerLike(application.email, like),
          )
        : undefined,
      f.status ? eq(application.status, f.status) : undefined,
      f.startTime ? gte(application.createdAt, f.startTime) : undefined,
      f.endTime ? lte(application.createdAt, f.endTime) : undefined,
    );
  };
  const head = () =>
    db
      .select({
        a: application,
        providerName: provider.name,
        expiresAt: provider.expiresAt,
        reviewerName: sql<string | null>`coalesce(nullif(${systemUser.name}, ''), ${systemUser.username})`,
      })
      .from(application)
      .leftJoin(provider, eq(provider.id, application.providerId))
      .leftJoin(systemUser, eq(systemUser.id, application.reviewerId));
  type Head = Awaited<ReturnType<ReturnType<typeof head>['where']>>[number];

  const dto = ({ a, providerName, expiresAt, reviewerName }: Head): ApplyDto => ({
    id: a.id,
    referenceNo: applyReferenceOf(a.id),
    companyName: a.companyName,
    contact: a.contact,
    phone: a.phone,
    email: a.email,
    licenseNumber: a.licenseNumber,
    licenseImageUrl: `${API_PREFIX}/common/download/resource?resource=${encodeURIComponent(a.licenseImage)}`,
    address: a.address,
    expectedPoints: a.expectedPoints,
    expectedStations: a.expectedStations,
    remark: a.remark,
    status: a.status,
    ip: a.ip,
    reviewerName: a.reviewerId ? reviewerName : null,
    rejectReason: a.rejectReason,
    providerId: a.providerId,
    providerName,
    username: a.username,
    validity: a.validity,
    authCount: a.authCount,
    expirationTime: iso(expiresAt),
    reviewTime: iso(a.reviewedAt),
    createTime: a.createdAt.toISOString(),
  });

  return {
    async list(p: Principal, f: ApplyFilter, page: number, limit: number) {
      const cond = visible(p, filterSql(f));
      const offset = (page - 1) * limit;
      const rows = await head().where(cond).orderBy(desc(application.id)).limit(limit).offset(offset);
      const counted = db.select({ id: application.id }).from(application).where(cond);
      return { list: rows.map(dto), ...(await pageTotal(db, { offset, size: limit, rows: rows.length }, counted)) };
    },
    async get(p: Principal, id: number): Promise<ApplyDto | undefined> {
      const [row] = await head()
        .where(visible(p, eq(application.id, id)))
        .limit(1);
      return row && dto(row);
    },
    async row(p: Principal, id: number): Promise<ApplicationRow | undefined> {
      const [row] = await db
        .select()
        .from(application)
        .where(visible(p, eq(application.id, id)))
        .limit(1);
      return row;
    },
    /** The application's row, locked until the caller's transaction ends: one review at a time. */
    async lock(id: number): Promise<ApplicationRow | undefined> {
      const [row] = await db.select().from(application).where(eq(application.id, id)).for('update');
      return row;
    },
    /** Unscoped: the application a public request just made. */
    async byId(id: number): Promise<ApplicationRow | undefined> {
      const [row] = await db.select().from(application).where(eq(application.id, id)).limit(1);
      return row;
    },
    async insert(values: NewApplication): Promise<number> {
      const [row] = await db.insert(application).values(values).returning({ id: application.id });
      return row!.id;
    },
    /** Decides a pending application; undefined when it is no longer pending (someone decided first): nothing changes then. */
    async decide(id: number, set: Partial<NewApplication> & { status: 'approved' | 'rejected'; reviewerId: number }) {
      const [row] = await db
        .update(application)
        .set({ ...set, reviewedAt: sql`now()` })
        .where(and(eq(application.id, id), eq(application.status, 'pending')))
        .returning();
      return row;
    },
    /** The platform: the super provider, whose mail settings send the applicants' mail and whose privacy agreement they accept. */
    async platform() {
      const [row] = await db.select().from(provider).where(eq(provider.type, 'super')).orderBy(asc(provider.id)).limit(1);
      return row;
    },
    async usernameTaken(username: string) {
      const [row] = await db
        .select({ id: systemUser.id })
        .from(systemUser)
        .where(sql`lower(${systemUser.username}) = lower(${username})`)
        .limit(1);
      return row !== undefined;
    },
    async phoneTaken(phone: string) {
      const [row] = await db.select({ id: systemUser.id }).from(systemUser).where(eq(systemUser.phone, phone)).limit(1);
      return row !== undefined;
    },
    /** The new provider, its administrator role and first user, in the caller's transaction. */
    async createOperator(v: {
      provider: typeof provider.$inferInsert;
      roleName: string;
      rolePaths: string[];
      permissions: string[];
      user: Omit<typeof systemUser.$inferInsert, 'providerId' | 'roleId'>;
    }) {
      const [p] = await db.insert(provider).values(v.provider).returning({ id: provider.id });
      const [r] = await db
        .insert(role)
        .values({
          providerId: p!.id,
          roleName: v.roleName,
          roleKey: `provider_${p!.id}_admin`,
          rolePaths: v.rolePaths,
          permissions: v.permissions,
        })
        .returning({ id: role.id });
      const [u] = await db
        .insert(systemUser)
        .values({ ...v.user, providerId: p!.id, roleId: r!.id })
        .returning({ id: systemUser.id });
      return { providerId: p!.id, roleId: r!.id, userId: u!.id };
    },
  };
}

export type ApplyRepo = ReturnType<typeof createApplyRepo>;
