import type { voucher, voucherTemplate } from '../../db/schema.js';

const DAY_MS = 86_400_000;

type Template = Pick<
  typeof voucherTemplate.$inferSelect,
  'id' | 'providerId' | 'name' | 'kind' | 'value' | 'minBillCents' | 'stationIds' | 'validDays' | 'validFrom' | 'validTo'
>;

/**
 * A voucher of a template issued at `now`: the template's terms copied (a later edit of the template
 * changes no voucher held), valid for its days from now or between its fixed dates. Shared by issuing
 * by hand and an activity's grant.
 */
export function voucherOf(
  t: Template,
  now: Date,
  extra: Pick<typeof voucher.$inferInsert, 'chargeUserId'> & Partial<typeof voucher.$inferInsert>,
): typeof voucher.$inferInsert {
  return {
    providerId: t.providerId,
    templateId: t.id,
    name: t.name,
    kind: t.kind,
    value: t.value,
    minBillCents: t.minBillCents,
    stationIds: t.stationIds,
    validFrom: t.validDays ? now : (t.validFrom ?? now),
    validUntil: t.validDays ? new Date(now.getTime() + t.validDays * DAY_MS) : (t.validTo ?? now),
    ...extra,
  };
}
