import { sql } from 'drizzle-orm';
import type { AuthorizationReason, ChargingLimitSource, ExternalSchedule } from '@csms/contract';
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Tenants. A super provider's users see everything; a common provider's see it and its descendants. */
export const provider = pgTable('provider', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  type: varchar('type', { length: 10 }).$type<'super' | 'common'>().notNull(),
  parentId: integer('parent_id'),
  email: varchar('email', { length: 100 }),
  contact: varchar('contact', { length: 50 }),
  phone: varchar('phone', { length: 30 }),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  authCount: integer('auth_count').notNull().default(0),
  logoPath: varchar('logo_path', { length: 255 }),
  disclaimer: text('disclaimer'),
  privacyAgreement: text('privacy_agreement'),
  /**
   * The unguessable part of the public agreement pages' links (`/disclaimer/{key}`): drivers reach a
   * provider's agreements by it, and nobody can walk the ids to list every provider's name.
   */
  agreementKey: varchar('agreement_key', { length: 32 })
    .notNull()
    .unique()
    .default(sql`replace(gen_random_uuid()::text, '-', '')`),
  mailAccount: varchar('mail_account', { length: 100 }),
  mailAuthCode: varchar('mail_auth_code', { length: 200 }),
  smtpAddress: varchar('smtp_address', { length: 100 }),
  smtpPort: integer('smtp_port'),
  /** Card changes reach the local lists of the provider's online points without an operator (README "Local authorization lists"). */
  autoLocalListSync: boolean('auto_local_list_sync').notNull().default(false),
  createdAt: createdAt(),
});

export const organization = pgTable(
  'organization',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    orgName: varchar('org_name', { length: 50 }).notNull(),
    description: varchar('description', { length: 500 }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('organization_provider_name').on(t.providerId, t.orgName)],
);

export const role = pgTable('role', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id')
    .notNull()
    .references(() => provider.id),
  orgId: integer('org_id').references(() => organization.id),
  parentId: integer('parent_id'),
  roleName: varchar('role_name', { length: 50 }).notNull(),
  roleKey: varchar('role_key', { length: 50 }).notNull().unique(),
  description: varchar('description', { length: 500 }),
  /** Menu paths the role may open (the contract's menu tree). */
  rolePaths: jsonb('role_paths')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  /** Operation permissions `<area>:<resource>:<action>`. */
  permissions: jsonb('permissions')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
});

export const systemUser = pgTable(
  'system_user',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    roleId: integer('role_id')
      .notNull()
      .references(() => role.id),
    username: varchar('username', { length: 64 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    name: varchar('name', { length: 50 }),
    phone: varchar('phone', { length: 30 }),
    email: varchar('email', { length: 100 }),
    avatar: varchar('avatar', { length: 255 }),
    /** 1 enabled, 0 disabled. */
    status: integer('status').notNull().default(1),
    /** Stations the user is bound to; empty means all of the provider's stations. */
    stationIds: jsonb('station_ids')
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** Set as a charging user; the cards area links it to a charge user by phone. */
    isChargeUser: boolean('is_charge_user').notNull().default(false),
    /** A one-time password (an approved application's): the server allows nothing but changing it until it is. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('system_user_username').on(sql`lower(${t.username})`),
    uniqueIndex('system_user_phone').on(t.phone),
    index('system_user_provider').on(t.providerId),
  ],
);

/** Sign-in sessions; only a SHA-256 of the token is stored. */
export const session = pgTable(
  'session',
  {
    id: serial('id').primaryKey(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => systemUser.id, { onDelete: 'cascade' }),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 255 }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('session_user').on(t.userId)],
);

export const systemLog = pgTable(
  'system_log',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id'),
    userId: integer('user_id'),
    operator: varchar('operator', { length: 64 }),
    operation: varchar('operation', { length: 32 }).notNull(),
    /** What was operated on: the resource and, where known, its id or name. */
    operand: varchar('operand', { length: 255 }).notNull(),
    method: varchar('method', { length: 8 }).notNull(),
    path: varchar('path', { length: 255 }).notNull(),
    ip: varchar('ip', { length: 64 }),
    request: jsonb('request'),
    result: integer('result').notNull(),
    msg: varchar('msg', { length: 500 }),
    mode: varchar('mode', { length: 8 }).$type<'web' | 'api' | 'ocpp'>().notNull(),
    durationMs: integer('duration_ms'),
    createdAt: createdAt(),
  },
  (t) => [index('system_log_created').on(t.createdAt), index('system_log_provider').on(t.providerId)],
);

export const captcha = pgTable('captcha', {
  uuid: varchar('uuid', { length: 64 }).primaryKey(),
  answer: varchar('answer', { length: 16 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Failed sign-in counters per account (`user:<name>`) and per IP (`ip:<addr>`). */
export const loginAttempt = pgTable('login_attempt', {
  key: varchar('key', { length: 128 }).primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** Uploaded files; the bytes live under `$CSMS_DATA_DIR/uploads`. */
export const storedFile = pgTable('stored_file', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id'),
  fileName: varchar('file_name', { length: 255 }).notNull().unique(),
  originalName: varchar('original_name', { length: 255 }).notNull(),
  mime: varchar('mime', { length: 100 }),
  sizeBytes: integer('size_bytes').notNull(),
  uploadedBy: integer('uploaded_by'),
  createdAt: createdAt(),
});

/** System messages; `providerId` is the sender's provider. */
export const message = pgTable('message', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id')
    .notNull()
    .references(() => provider.id),
  title: varchar('title', { length: 100 }).notNull(),
  content: text('content').notNull(),
  /** SMS reminder requested. */
  isSend: boolean('is_send').notNull().default(false),
  createUserId: integer('create_user_id'),
  createdAt: createdAt(),
});

/** One row per recipient: read and delete are per user. */
export const messageRecipient = pgTable(
  'message_recipient',
  {
    id: serial('id').primaryKey(),
    messageId: integer('message_id')
      .notNull()
      .references(() => message.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => systemUser.id, { onDelete: 'cascade' }),
    read: integer('read').notNull().default(0),
    readAt: timestamp('read_at', { withTimezone: true }),
    deleted: integer('deleted').notNull().default(0),
  },
  (t) => [
    uniqueIndex('message_recipient_msg_user').on(t.messageId, t.userId),
    index('message_recipient_user').on(t.userId, t.deleted, t.read),
  ],
);

/** Columns an export includes, per provider and export source. */
export const exportConfig = pgTable(
  'export_config',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    exportSource: varchar('export_source', { length: 64 }).notNull(),
    items: jsonb('items').$type<string[]>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('export_config_provider_source').on(t.providerId, t.exportSource)],
);

/** Charge-user groups; members may draw at most `monthlyLimitWh` per calendar month in the station's time zone (DESIGN.md §9). */
export const userGroup = pgTable(
  'user_group',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    name: varchar('name', { length: 50 }).notNull(),
    description: varchar('description', { length: 500 }),
    /** Per member per month; null means no limit. */
    monthlyLimitWh: integer('monthly_limit_wh'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_group_provider_name').on(t.providerId, t.name)],
);

/** Drivers. The card balance lives on each card; `mobileBalanceCents` pays app and platform starts. */
export const chargeUser = pgTable(
  'charge_user',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    account: varchar('account', { length: 64 }).notNull(),
    phone: varchar('phone', { length: 30 }),
    email: varchar('email', { length: 100 }),
    userType: varchar('user_type', { length: 10 }).$type<'card' | 'phone' | 'platform'>().notNull(),
    /** Changes only through the ledger. */
    mobileBalanceCents: integer('mobile_balance_cents').notNull().default(0),
    /** 1 enabled, 0 disabled. */
    status: integer('status').notNull().default(1),
    groupId: integer('group_id').references(() => userGroup.id),
    memberLevel: integer('member_level').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('charge_user_account').on(sql`lower(${t.account})`),
    index('charge_user_provider').on(t.providerId),
    index('charge_user_phone').on(t.phone),
    index('charge_user_group').on(t.groupId),
    // New members today and this month (dashboard).
    index('charge_user_created').on(t.createdAt),
  ],
);

/** RFID cards. `physicalId` is the UID a reader reports and the charger's idTag; `cardNumber` is printed on the card. */
export const card = pgTable(
  'card',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    cardNumber: varchar('card_number', { length: 64 }).notNull(),
    physicalId: varchar('physical_id', { length: 20 }).notNull(),
    chargeUserId: integer('charge_user_id').references(() => chargeUser.id),
    /** Changes only through the ledger. */
    balanceCents: integer('balance_cents').notNull().default(0),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    /** `expired` here is an operator's mark; a card is also expired once `expireAt` has passed. */
    status: varchar('status', { length: 10 }).$type<'valid' | 'lost' | 'expired'>().notNull().default('valid'),
    email: varchar('email', { length: 100 }),
    /**
     * A master pass (OCPP 2.0.1 C16): it stops any session at its provider's chargers and starts none;
     * Authorize answers it with the master pass group (`CSMS_OCPP_MASTER_PASS_GROUP_ID`).
     */
    masterPass: boolean('master_pass').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('card_physical_id').on(sql`lower(${t.physicalId})`),
    uniqueIndex('card_provider_number').on(t.providerId, t.cardNumber),
    index('card_charge_user').on(t.chargeUserId),
  ],
);

/**
 * Append-only money ledger (DESIGN.md §3): one row per balance change of a card or of a charge
 * user's mobile account, written under a row lock on the account so before + amount = after.
 */
export const ledger = pgTable(
  'ledger',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    accountKind: varchar('account_kind', { length: 10 }).$type<'card' | 'mobile'>().notNull(),
    cardId: integer('card_id').references(() => card.id),
    chargeUserId: integer('charge_user_id').references(() => chargeUser.id),
    tradeType: varchar('trade_type', { length: 10 })
      .$type<'recharge' | 'refund' | 'charge' | 'transfer' | 'adjustment' | 'bonus'>()
      .notNull(),
    /** Signed: recharge > 0, refund < 0, charge ≤ 0, adjustment ≠ 0 (a settled bill's correction), bonus > 0 (an activity's, issue 19). */
    amountCents: integer('amount_cents').notNull(),
    balanceBeforeCents: integer('balance_before_cents').notNull(),
    balanceAfterCents: integer('balance_after_cents').notNull(),
    /** The system user who recorded it; none for the OCPP settlement. Kept without a foreign key: the ledger outlives users. */
    operatorUserId: integer('operator_user_id'),
    source: varchar('source', { length: 32 }).notNull(),
    thirdPartyTxnId: varchar('third_party_txn_id', { length: 128 }),
    /** The charging transaction a charge settles; at most one charge per account and reference. */
    transactionRef: varchar('transaction_ref', { length: 64 }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'ledger_account',
      sql`(${t.accountKind} = 'card' and ${t.cardId} is not null) or (${t.accountKind} = 'mobile' and ${t.chargeUserId} is not null and ${t.cardId} is null)`,
    ),
    check('ledger_balance', sql`${t.balanceBeforeCents} + ${t.amountCents} = ${t.balanceAfterCents}`),
    index('ledger_card').on(t.cardId, t.id),
    index('ledger_charge_user').on(t.chargeUserId, t.id),
    index('ledger_provider_created').on(t.providerId, t.createdAt),
    // Recharge records (recharges, their bonuses and refunds among the far more numerous charges), newest first.
    index('ledger_topup')
      .on(t.id, t.providerId, t.createdAt)
      .where(sql`${t.tradeType} in ('recharge', 'refund', 'bonus')`),
    uniqueIndex('ledger_card_charge_ref')
      .on(t.cardId, t.transactionRef)
      .where(sql`${t.tradeType} = 'charge' and ${t.transactionRef} is not null and ${t.accountKind} = 'card'`),
    uniqueIndex('ledger_mobile_charge_ref')
      .on(t.chargeUserId, t.transactionRef)
      .where(sql`${t.tradeType} = 'charge' and ${t.transactionRef} is not null and ${t.accountKind} = 'mobile'`),
    uniqueIndex('ledger_card_adjustment_ref')
      .on(t.cardId, t.transactionRef)
      .where(sql`${t.tradeType} = 'adjustment' and ${t.transactionRef} is not null and ${t.accountKind} = 'card'`),
    uniqueIndex('ledger_mobile_adjustment_ref')
      .on(t.chargeUserId, t.transactionRef)
      .where(sql`${t.tradeType} = 'adjustment' and ${t.transactionRef} is not null and ${t.accountKind} = 'mobile'`),
    // An operator's recharge or refund carries its dialog's request id: sent again, it is not made twice.
    uniqueIndex('ledger_card_console_ref')
      .on(t.cardId, t.tradeType, t.transactionRef)
      .where(sql`${t.tradeType} in ('recharge', 'refund') and ${t.transactionRef} is not null and ${t.accountKind} = 'card'`),
    uniqueIndex('ledger_mobile_console_ref')
      .on(t.chargeUserId, t.tradeType, t.transactionRef)
      .where(sql`${t.tradeType} in ('recharge', 'refund') and ${t.transactionRef} is not null and ${t.accountKind} = 'mobile'`),
  ],
);

/**
 * Version of the local authorization list (SendLocalList): one row, bumped by database triggers
 * whenever a card or a charge user's account changes (see the cards_ledger migration).
 */
export const localListVersion = pgTable('local_list_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull(),
});

/** Cars of charge users; plates are unique within a provider (DESIGN.md §9). */
export const car = pgTable(
  'car',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    plate: varchar('plate', { length: 20 }).notNull(),
    vin: varchar('vin', { length: 17 }).notNull(),
    alias: varchar('alias', { length: 50 }),
    brand: varchar('brand', { length: 50 }),
    model: varchar('model', { length: 50 }),
    /** The charge user (account) who drives it. */
    chargeUserId: integer('charge_user_id').references(() => chargeUser.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('car_provider_plate').on(t.providerId, sql`upper(${t.plate})`),
    index('car_vin').on(t.vin),
    index('car_charge_user').on(t.chargeUserId),
  ],
);

/** Stations (locations). Price slots and the monthly group limit follow `timeZone` (IANA). */
export const station = pgTable(
  'station',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    name: varchar('name', { length: 100 }).notNull(),
    country: varchar('country', { length: 2 }).notNull(),
    address: varchar('address', { length: 255 }).notNull(),
    longitude: doublePrecision('longitude').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    timeZone: varchar('time_zone', { length: 64 }).notNull(),
    /** Local opening hours `HH:mm`; both null means always open. */
    openingStart: varchar('opening_start', { length: 5 }),
    openingEnd: varchar('opening_end', { length: 5 }),
    isPublic: boolean('is_public').notNull().default(true),
    servicePhone: varchar('service_phone', { length: 30 }),
    description: varchar('description', { length: 1000 }),
    /** Amenities: reservation, parking, wifi, food, hotWater, recreation. */
    amenities: jsonb('amenities')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    picture: varchar('picture', { length: 255 }),
    guide: text('guide'),
    status: varchar('status', { length: 16 }).$type<'operating' | 'maintenance' | 'closed'>().notNull().default('operating'),
    /** The "Unassigned" station that auto-registered chargers join, for the operator to place. */
    isUnassigned: boolean('is_unassigned').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('station_provider_name').on(t.providerId, sql`lower(${t.name})`),
    index('station_provider').on(t.providerId),
    // The monitor's points are listed by station name: stations in name order, each one's points by serial number.
    index('station_name').on(t.name, t.id),
  ],
);

/** Charge points. `serialNumber` is the OCPP identity (unique system-wide). */
export const chargePoint = pgTable(
  'charge_point',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id),
    serialNumber: varchar('serial_number', { length: 48 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    equipmentType: varchar('equipment_type', { length: 16 }).notNull(),
    ratedPowerW: integer('rated_power_w').notNull(),
    softwareVersion: varchar('software_version', { length: 50 }),
    /** Salted SHA-256 of the OCPP key (DESIGN.md §5): `salt:hex`. Null: no key issued yet. */
    ocppKeyHash: varchar('ocpp_key_hash', { length: 200 }),
    /**
     * While a key sent to the charger (AuthorizationKey / BasicAuthPassword) waits for the charger to connect
     * with it: the key it had before, still accepted. Cleared when it connects with the new one.
     */
    ocppKeyPreviousHash: varchar('ocpp_key_previous_hash', { length: 200 }),
    /** When that key was sent; null when none waits. */
    ocppKeySentAt: timestamp('ocpp_key_sent_at', { withTimezone: true }),
    /** Auto-registered and still to be placed by an operator. */
    needsPlacement: boolean('needs_placement').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    /** From BootNotification. */
    vendor: varchar('vendor', { length: 20 }),
    model: varchar('model', { length: 20 }),
    firmwareVersion: varchar('firmware_version', { length: 50 }),
    chargeBoxSerial: varchar('charge_box_serial', { length: 25 }),
    iccid: varchar('iccid', { length: 20 }),
    imsi: varchar('imsi', { length: 20 }),
    meterType: varchar('meter_type', { length: 25 }),
    meterSerial: varchar('meter_serial', { length: 25 }),
    /** Status of connector 0 (the point itself) and its error code. */
    status: varchar('status', { length: 16 }),
    errorCode: varchar('error_code', { length: 32 }),
    lastBootAt: timestamp('last_boot_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    /** Whether a socket to it is open on some node; false while offline. */
    online: boolean('online').notNull().default(false),
    /** The node (`CSMS_NODE_ID`) holding its socket while online: only that node marks it offline. */
    connectedNode: varchar('connected_node', { length: 128 }),
    /** The OCPP version its last connection negotiated (`1.6` or `2.0.1`); null: never connected. */
    ocppVersion: varchar('ocpp_version', { length: 8 }),
    firmwareStatus: varchar('firmware_status', { length: 32 }),
    diagnosticsStatus: varchar('diagnostics_status', { length: 32 }),
    /** The local list version the point last Accepted from us; null: it never did. Its content is `point_local_list`. */
    localListVersion: integer('local_list_version'),
    /** Whether the point's list is known to be ours: false after VersionMismatch or Failed, or a GetLocalListVersion answer that differs. */
    localListInStep: boolean('local_list_in_step').notNull().default(false),
    /** The charger's answer to the last SendLocalList (Accepted, Failed, NotSupported, VersionMismatch). */
    localListStatus: varchar('local_list_status', { length: 20 }),
    /** The charger's last answer to GetLocalListVersion (-1: not supported). */
    localListChargerVersion: integer('local_list_charger_version'),
    /** `local_list_version.version` when the point's list was last brought up to date: a larger counter means cards may have changed. */
    localListSeen: integer('local_list_seen').notNull().default(0),
    /** When a SendLocalList last went to it (automatic sync backs off from points that refuse). */
    localListSentAt: timestamp('local_list_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('charge_point_serial').on(t.serialNumber),
    index('charge_point_station').on(t.stationId),
    index('charge_point_provider').on(t.providerId),
  ],
);

/**
 * What each point's local authorization list holds, as far as we know: the entries of the last
 * list it Accepted (OCPP 1.6 SendLocalList). A Differential update is the difference between this
 * and the cards' list now.
 */
export const pointLocalList = pgTable(
  'point_local_list',
  {
    pointId: integer('point_id')
      .notNull()
      .references(() => chargePoint.id, { onDelete: 'cascade' }),
    idTag: varchar('id_tag', { length: 20 }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    expiryDate: timestamp('expiry_date', { withTimezone: true }),
    parentIdTag: varchar('parent_id_tag', { length: 64 }),
  },
  (t) => [primaryKey({ columns: [t.pointId, t.idTag] })],
);

/** Connectors of a point, numbered from 1 as in OCPP. */
export const connector = pgTable(
  'connector',
  {
    id: serial('id').primaryKey(),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id, { onDelete: 'cascade' }),
    connectorNo: integer('connector_no').notNull(),
    name: varchar('name', { length: 50 }),
    standard: varchar('standard', { length: 8 }).$type<'ac' | 'dc' | 'combo'>().notNull(),
    type: varchar('type', { length: 16 }).notNull(),
    /** OCPP ChargePointStatus as last notified; null until the charger says. */
    status: varchar('status', { length: 16 }),
    errorCode: varchar('error_code', { length: 32 }),
    info: varchar('info', { length: 50 }),
    vendorErrorCode: varchar('vendor_error_code', { length: 50 }),
    statusAt: timestamp('status_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('connector_point_no').on(t.chargePointId, t.connectorNo)],
);

/**
 * Limits an outside system (the site's energy manager, the grid operator) put on a charger, as the
 * charger reported them (OCPP 2.0.1 NotifyChargingLimit, K12): one row per EVSE (0: the whole
 * charger) and source, replaced by the next report, removed by ClearedChargingLimit. The monitoring
 * screens show them and the load balancer gives a session no more than its limit.
 */
export const chargingLimit = pgTable(
  'charging_limit',
  {
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id, { onDelete: 'cascade' }),
    evseId: integer('evse_id').notNull(),
    /** ChargingLimitSourceEnumType: EMS, Other, SO (system operator), CSO. */
    source: varchar('source', { length: 8 }).$type<ChargingLimitSource>().notNull(),
    gridCritical: boolean('grid_critical').notNull().default(false),
    /** The schedules the charger sent with the limit, as sent; null when it sent none. */
    schedules: jsonb('schedules').$type<ExternalSchedule[]>(),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chargePointId, t.evseId, t.source] })],
);

/**
 * Charging transactions; `id` is the OCPP transactionId. A repeated StartTransaction (same point,
 * connector and start time) finds the same row. Money fields come with billing.
 */
export const chargingTransaction = pgTable(
  'charging_transaction',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id),
    connectorNo: integer('connector_no').notNull(),
    /** OCPP 1.6 idTag (20 characters) or OCPP 2.0.1 idToken (36). */
    idTag: varchar('id_tag', { length: 36 }).notNull(),
    cardId: integer('card_id').references(() => card.id),
    chargeUserId: integer('charge_user_id').references(() => chargeUser.id),
    /** OCPP 2.0.1: the charger's own transactionId (a string), unique per point; null for 1.6 sessions. */
    ocppTxId: varchar('ocpp_tx_id', { length: 36 }),
    startType: varchar('start_type', { length: 8 }).$type<'card' | 'remote'>().notNull(),
    /** The authorization answer given at start and why (DESIGN.md §9). */
    authStatus: varchar('auth_status', { length: 16 }).notNull(),
    authReason: varchar('auth_reason', { length: 32 }),
    reservationId: integer('reservation_id'),
    meterStartWh: bigint('meter_start_wh', { mode: 'number' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    meterStopWh: bigint('meter_stop_wh', { mode: 'number' }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    stopReason: varchar('stop_reason', { length: 20 }),
    stopIdTag: varchar('stop_id_tag', { length: 36 }),
    /** Energy delivered; never negative, never a lifetime register (DESIGN.md §6). */
    energyWh: bigint('energy_wh', { mode: 'number' }).notNull().default(0),
    /** Latest live sample, for monitoring. */
    lastMeterWh: bigint('last_meter_wh', { mode: 'number' }),
    lastPowerW: integer('last_power_w'),
    lastSoc: integer('last_soc'),
    lastSampleAt: timestamp('last_sample_at', { withTimezone: true }),
    /** false when the meter data failed the sanity checks; kept and not billed until confirmed. */
    valid: boolean('valid').notNull().default(true),
    invalidReason: varchar('invalid_reason', { length: 64 }),
    /** Received after the charger had been offline (its timestamps are older than the connection). */
    late: boolean('late').notNull().default(false),
    /** Billing (DESIGN.md §3, §9): set once, when the bill is computed and charged. Cents. */
    elecFeeCents: integer('elec_fee_cents'),
    serviceFeeCents: integer('service_fee_cents'),
    reserveFeeCents: integer('reserve_fee_cents'),
    totalCents: integer('total_cents'),
    billedAt: timestamp('billed_at', { withTimezone: true }),
    /** Which balance paid: the card's or the charge user's mobile account; null when nobody could be charged. */
    paidFrom: varchar('paid_from', { length: 8 }).$type<'card' | 'mobile'>(),
    /** Why it was not billed (no price, unknown idTag…), when it was not. */
    billingNote: varchar('billing_note', { length: 64 }),
    /** An operator confirmed an invalid record so that it is billed. */
    confirmedBy: integer('confirmed_by'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** When the charger's own Stop replaced the end guessed for a session closed as `notStopped` (closed late). */
    lateStopAt: timestamp('late_stop_at', { withTimezone: true }),
    /** The late Stop came after the bill was settled: the bill is corrected by an adjustment (billing does it). */
    adjustmentDue: boolean('adjustment_due').notNull().default(false),
    /** The correction of a settled bill, in cents (more to pay > 0); its ledger row and bill lines carry it. */
    adjustmentCents: integer('adjustment_cents'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('charging_transaction_start').on(t.chargePointId, t.connectorNo, t.startedAt),
    uniqueIndex('charging_transaction_ocpp_tx')
      .on(t.chargePointId, t.ocppTxId)
      .where(sql`${t.ocppTxId} is not null`),
    index('charging_transaction_provider_started').on(t.providerId, t.startedAt),
    index('charging_transaction_active')
      .on(t.chargePointId)
      .where(sql`${t.stoppedAt} is null`),
    index('charging_transaction_id_tag').on(t.idTag),
    // Charging records, newest first (the list and the dashboard's days). The trailing columns are
    // the list's own conditions (finished, provider, station): the scan skips other rows without
    // reading the table, and counts stay in the index. Migration 0011_console_indexes.
    index('charging_transaction_started').on(t.startedAt, t.id, t.stoppedAt, t.providerId, t.stationId),
    index('charging_transaction_station_started').on(t.stationId, t.startedAt, t.id, t.stoppedAt, t.providerId),
    // Sessions that ended after an instant (today's charging time counts those that began before midnight).
    index('charging_transaction_stopped').on(t.stoppedAt),
    // Searches by card and account, and "is this card or user still referred to".
    index('charging_transaction_card').on(t.cardId),
    index('charging_transaction_charge_user').on(t.chargeUserId),
    // The rare records an operator looks for: invalid ones to confirm, unauthorised ones.
    index('charging_transaction_invalid')
      .on(t.startedAt, t.id, t.providerId, t.stationId)
      .where(sql`${t.valid} = false`),
    index('charging_transaction_unauthorized')
      .on(t.startedAt, t.id, t.providerId, t.stationId)
      .where(sql`${t.authStatus} <> 'Accepted'`),
  ],
);

/**
 * OCPP 2.0.1 transactions whose EVSE is not known yet (README "Transactions"): the Started of a driver
 * who authorized before choosing an EVSE, held until the first event that names one records the session
 * from it. Written before the Started is answered, so a restart or a reconnect to another node loses
 * nothing; at most 16 per point (the oldest goes first).
 */
export const unplacedTransaction = pgTable(
  'unplaced_transaction',
  {
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id, { onDelete: 'cascade' }),
    ocppTxId: varchar('ocpp_tx_id', { length: 36 }).notNull(),
    /** The first TransactionEvent heard of (with the idToken of a later one when it had none), as received. */
    event: jsonb('event').$type<Record<string, unknown>>().notNull(),
    heldAt: timestamp('held_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chargePointId, t.ocppTxId] })],
);

/** Meter samples, one row per sampled timestamp of a MeterValues or transaction data entry. */
export const meterValue = pgTable(
  'meter_value',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id),
    connectorNo: integer('connector_no').notNull(),
    transactionId: integer('transaction_id').references(() => chargingTransaction.id),
    sampledAt: timestamp('sampled_at', { withTimezone: true }).notNull(),
    /** Energy.Active.Import.Register. */
    energyWh: bigint('energy_wh', { mode: 'number' }),
    powerW: integer('power_w'),
    /** Current.Import (A), what the car draws. */
    currentImportA: real('current_import_a'),
    /** Current.Offered (A), what the charger outputs at most. */
    currentOfferedA: real('current_offered_a'),
    voltageV: real('voltage_v'),
    soc: integer('soc'),
    temperatureC: real('temperature_c'),
    /** The sampledValue array as received. */
    raw: jsonb('raw'),
  },
  (t) => [
    index('meter_value_transaction').on(t.transactionId, t.sampledAt),
    index('meter_value_point').on(t.chargePointId, t.sampledAt),
    // The dashboard's last 24 hours of power. Samples arrive in time order, so a BRIN index (a few
    // pages per million rows, next to nothing per insert) finds the recent ones.
    index('meter_value_sampled').using('brin', t.sampledAt),
  ],
);

/** Every OCPP frame in and out, and refused connection attempts (DESIGN.md §6). */
export const ocppLog = pgTable(
  'ocpp_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    providerId: integer('provider_id'),
    chargePointId: integer('charge_point_id'),
    serialNumber: varchar('serial_number', { length: 64 }).notNull(),
    /** in: charger → CSMS; out: CSMS → charger; refused: a connection attempt turned away. */
    direction: varchar('direction', { length: 8 }).$type<'in' | 'out' | 'refused'>().notNull(),
    /** 2 CALL, 3 CALLRESULT, 4 CALLERROR; null for refused connections. */
    messageType: integer('message_type'),
    action: varchar('action', { length: 48 }),
    messageId: varchar('message_id', { length: 64 }),
    payload: jsonb('payload'),
    /** On a response, or a request stored with its answer: milliseconds from the request to the answer. */
    latencyMs: integer('latency_ms'),
    /** On a reply that refused an idTag (or a request stored with it): why (`authorizationReasons`; the OCPP status alone does not say). */
    reason: varchar('reason', { length: 32 }).$type<AuthorizationReason>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A charger's CALL stored with the central system's answer, one row for the exchange (the request's
     * columns above, the answer's here): 3 CALLRESULT, 4 CALLERROR. Null on a row stored alone; its answer,
     * if any, is a row of its own that the log pairs by message id.
     */
    responseType: integer('response_type'),
    responsePayload: jsonb('response_payload'),
    responseAt: timestamp('response_at', { withTimezone: true }),
  },
  (t) => [
    index('ocpp_log_point_created').on(t.serialNumber, t.createdAt),
    index('ocpp_log_created').on(t.createdAt),
    // Pairs a response with its request (both columns compared for equality) and finds a message id
    // typed alone, which the former (serial_number, message_id) could not.
    index('ocpp_log_message_serial').on(t.messageId, t.serialNumber),
    // Refused connection attempts: a small part of the log that the list filters on.
    index('ocpp_log_refused')
      .on(t.id)
      .where(sql`${t.direction} = 'refused'`),
  ],
);

/**
 * Every identity (`serial_number`) the OCPP log holds, one row each, kept by a statement trigger on
 * the log (migration 0011_console_indexes): the log's serial-number search matches the text against
 * these few thousand names and then reads those identities' rows by index, instead of testing every
 * row of the log.
 */
export const ocppLogIdentity = pgTable('ocpp_log_identity', {
  serialNumber: varchar('serial_number', { length: 64 }).primaryKey(),
});

/** Faults from status notifications: serious when a connector goes Faulted, common otherwise. */
export const alarm = pgTable(
  'alarm',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id),
    chargePointId: integer('charge_point_id')
      .notNull()
      .references(() => chargePoint.id),
    connectorNo: integer('connector_no').notNull(),
    level: varchar('level', { length: 8 }).$type<'serious' | 'common'>().notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    errorCode: varchar('error_code', { length: 32 }).notNull(),
    info: varchar('info', { length: 50 }),
    vendorErrorCode: varchar('vendor_error_code', { length: 50 }),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** Set when the connector reports NoError again. */
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
  },
  (t) => [
    index('alarm_provider_occurred').on(t.providerId, t.occurredAt),
    // Alarm records newest first, of all, of a station, of a point (trailing columns as for charging records).
    index('alarm_occurred').on(t.occurredAt, t.id, t.providerId, t.stationId),
    index('alarm_station_occurred').on(t.stationId, t.occurredAt, t.id, t.providerId),
    index('alarm_point_occurred').on(t.chargePointId, t.occurredAt, t.id),
    // The error-code search walks the few distinct codes on this index, then reads the matching codes' rows.
    index('alarm_error_code').on(t.errorCode),
    index('alarm_point_open')
      .on(t.chargePointId, t.connectorNo)
      .where(sql`${t.clearedAt} is null`),
  ],
);

/**
 * Time-of-use price versions (DESIGN.md §9). A station's price, or a user group's price at that
 * station (`groupId`), effective from `effectiveFrom`; the newest version not after an instant
 * applies at that instant. A version a bill used is never changed again: edits make a new version.
 * Unit prices in 1/10,000 of the currency per kWh; the reservation fee in cents per reservation.
 */
export const price = pgTable(
  'price',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => provider.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => station.id),
    /** Null: the station's price; else the group electricity price for that group's members. */
    groupId: integer('group_id').references(() => userGroup.id),
    effectiveFrom: timestamp('effective_from', { withTimezone: true }).notNull(),
    sharpElec: integer('sharp_elec').notNull(),
    sharpService: integer('sharp_service').notNull(),
    peakElec: integer('peak_elec').notNull(),
    peakService: integer('peak_service').notNull(),
    flatElec: integer('flat_elec').notNull(),
    flatService: integer('flat_service').notNull(),
    valleyElec: integer('valley_elec').notNull(),
    valleyService: integer('valley_service').notNull(),
    reserveFeeCents: integer('reserve_fee_cents').notNull().default(0),
    /** 48 tier names, one per local half hour from 00:00. */
    slots: jsonb('slots').$type<('sharp' | 'peak' | 'flat' | 'valley')[]>().notNull(),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    check('price_slots', sql`jsonb_typeof(${t.slots}) = 'array' and jsonb_array_length(${t.slots}) = 48`),
    index('price_station_effective').on(t.stationId, t.groupId, t.effectiveFrom),
  ],
);

/** The lines of a bill: energy and money per price version, tier and fee kind, each rounded once. */
export const billLine = pgTable(
  'bill_line',
  {
    id: serial('id').primaryKey(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => chargingTransaction.id),
    /** The price version of a tariff line; null on a discount line. */
    priceId: integer('price_id').references(() => price.id),
    tier: varchar('tier', { length: 8 }).$type<'sharp' | 'peak' | 'flat' | 'valley'>(),
    /** A tariff line (`elec`, `service`) or a discount line (`member`, `activity`, `voucher`, amount ≤ 0; issue 19). */
    kind: varchar('kind', { length: 8 }).$type<'elec' | 'service' | 'member' | 'activity' | 'voucher'>().notNull(),
    energyWh: bigint('energy_wh', { mode: 'number' }).notNull(),
    unitPrice: integer('unit_price').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** A line of the correction made after settlement (a late Stop): the difference, never an edit of the settled line. */
    adjustment: boolean('adjustment').notNull().default(false),
    /** A discount line's source (member level, activity or voucher id) and its name when settled, as printed. */
    refId: integer('ref_id'),
    label: varchar('label', { length: 100 }),
  },
  (t) => [
    uniqueIndex('bill_line_unique').on(t.transactionId, t.adjustment, t.priceId, t.tier, t.kind),
    // One discount of each kind per session (price and tier are null there, so the index above does not hold them).
    uniqueIndex('bill_line_discount')
      .on(t.transactionId, t.kind)
      .where(sql`${t.priceId} is null`),
  ],
);

/**
 * Uncaught errors of production consoles (spec §9), one row per fingerprint (build, message, top of
 * the stack) with a count; route, user and browser are the latest occurrence's.
 */
export const clientError = pgTable(
  'client_error',
  {
    id: serial('id').primaryKey(),
    fingerprint: varchar('fingerprint', { length: 64 }).notNull().unique(),
    message: varchar('message', { length: 1000 }).notNull(),
    stack: text('stack'),
    source: varchar('source', { length: 20 }).$type<'error' | 'unhandledrejection' | 'boundary'>().notNull(),
    route: varchar('route', { length: 500 }).notNull(),
    buildId: varchar('build_id', { length: 64 }).notNull(),
    userId: integer('user_id'),
    username: varchar('username', { length: 64 }),
    /** The reporting user's provider; null for a console nobody was signed in to (seen by the super provider only). */
    providerId: integer('provider_id'),
    userAgent: varchar('user_agent', { length: 300 }),
    count: integer('count').notNull().default(1),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull().defaultNow(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('client_error_last_seen').on(t.lastSeen)],
);

/** Error reports per session (`session:<id>`) or address (`ip:<addr>`) in the current window. */
export const clientErrorQuota = pgTable('client_error_quota', {
  key: varchar('key', { length: 128 }).primaryKey(),
  reports: integer('reports').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});

/** Second-wave modules, one file each (DESIGN.md §10). */
export * from './schema/smart-charging.js';
export * from './schema/maintenance.js';
export * from './schema/statistics.js';
export * from './schema/work-order.js';
export * from './schema/material.js';
export * from './schema/warn.js';
export * from './schema/finance.js';
export * from './schema/apply.js';
export * from './schema/operations.js';
