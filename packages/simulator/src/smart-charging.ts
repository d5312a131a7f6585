import { advance, type ElectricalSpec } from './meter.js';
import { OcppError, type Payload } from './ocpp.js';
import { dateTime, field, isShape, oneOf } from './payload.js';
import type { Task } from './scheduler.js';
import type { Connector, PointInternals, Transaction } from './types.js';

/**
 * OCPP 1.6 smart charging (§3.13; ClearChargingProfile §5.5, GetCompositeSchedule §5.7,
 * SetChargingProfile §5.16; the ChargingProfile types of §7): the charging profiles a point
 * holds, the composite schedule they make, and the limit they put on what the connectors draw.
 *
 * The composite schedule at an instant: per purpose, the valid and active profile with the
 * highest stackLevel wins (a profile on the connector itself before one on connector 0 at the
 * same level); an active TxProfile overrides the TxDefaultProfile; the ChargePointMaxProfile and
 * the connector's hardware cap both, the lowest limit applies. `compositeSchedule` is pure so
 * that a central system can plan with the very same rules.
 */

export const CHARGING_PROFILE_PURPOSES = ['ChargePointMaxProfile', 'TxDefaultProfile', 'TxProfile'] as const;
export type ChargingProfilePurpose = (typeof CHARGING_PROFILE_PURPOSES)[number];
export const CHARGING_PROFILE_KINDS = ['Absolute', 'Recurring', 'Relative'] as const;
export type ChargingProfileKind = (typeof CHARGING_PROFILE_KINDS)[number];
export const RECURRENCY_KINDS = ['Daily', 'Weekly'] as const;
export type RecurrencyKind = (typeof RECURRENCY_KINDS)[number];
export const CHARGING_RATE_UNITS = ['A', 'W'] as const;
export type ChargingRateUnit = (typeof CHARGING_RATE_UNITS)[number];

export interface ChargingSchedulePeriod {
  /** Seconds from the start of the schedule. */
  startPeriod: number;
  /** A per phase, or W. */
  limit: number;
  numberPhases?: number;
}

export interface ChargingSchedule {
  /** Seconds; without it the last period lasts (until the next recurrence of a Recurring profile). */
  duration?: number;
  startSchedule?: string;
  chargingRateUnit: ChargingRateUnit;
  chargingSchedulePeriod: ChargingSchedulePeriod[];
  minChargingRate?: number;
}

export interface ChargingProfile {
  chargingProfileId: number;
  transactionId?: number;
  stackLevel: number;
  chargingProfilePurpose: ChargingProfilePurpose;
  chargingProfileKind: ChargingProfileKind;
  recurrencyKind?: RecurrencyKind;
  validFrom?: string;
  validTo?: string;
  chargingSchedule: ChargingSchedule;
}

/** A profile and the connector it was set on (0: the whole point). */
export interface InstalledProfile {
  connectorId: number;
  profile: ChargingProfile;
}

/** What converting between A and W needs to know of a connector. */
export type Electrical = Pick<ElectricalSpec, 'current' | 'phases' | 'voltageV'>;

export interface ScheduleConnector {
  connectorId: number;
  /** Default: AC, 3 phases of 230 V. */
  electrical?: Electrical;
  /** The hardware's own limit, W: what the connector offers when no profile limits it. */
  maxPowerW: number;
  /** The transaction in progress: Relative schedules start with it, and only its TxProfiles apply. */
  transaction?: { transactionId?: number; startedAt: number };
}

export interface CompositeRequest {
  /** Every profile installed on the point. */
  profiles: readonly InstalledProfile[];
  /** The point's connectors (1…n). */
  connectors: readonly ScheduleConnector[];
  /**
   * 0: the point as a whole (its connectors' limits added up, then capped by the
   * ChargePointMaxProfile), converted between A and W with the first connector's figures, as
   * the ChargePointMaxProfile always is.
   */
  connectorId: number;
  /** Epoch ms; taken down to the whole second. */
  start: number;
  /** Seconds. */
  duration: number;
  /** Default W. */
  unit?: ChargingRateUnit;
}

export interface CompositeSchedule {
  scheduleStart: string;
  chargingSchedule: {
    duration: number;
    startSchedule: string;
    chargingRateUnit: ChargingRateUnit;
    chargingSchedulePeriod: ChargingSchedulePeriod[];
  };
}

const DEFAULT_ELECTRICAL: Electrical = { current: 'AC', phases: 3, voltageV: 230 };
const RECURRENCE_MS: Record<RecurrencyKind, number> = { Daily: 86_400_000, Weekly: 604_800_000 };

const compact = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
// OCPP's limits have at most one decimal (multipleOf 0.1); rounding down never offers more than allowed.
const tenthsDown = (x: number) => Math.floor(x * 10 + 1e-6) / 10;
const isTenths = (x: number) => Math.abs(Math.round(x * 10) - x * 10) < 1e-6;

/**
 * A csChargingProfiles / chargingProfile object as OCA's schema describes it, or the CALLERROR
 * its first violation deserves. What the schema allows but a charger refuses (periods out of
 * order, a Recurring profile without recurrencyKind…) is `chargingProfileProblem`'s business.
 */
export function parseChargingProfile(raw: Payload): ChargingProfile {
  const stackLevel = field<number>(raw, 'stackLevel', 'integer', true);
  if (stackLevel < 0) throw new OcppError('PropertyConstraintViolation', 'stackLevel must be 0 or more');
  for (const key of ['validFrom', 'validTo']) dateTime(raw, key);
  const schedule = field<Payload>(raw, 'chargingSchedule', 'object', true);
  dateTime(schedule, 'startSchedule');
  const periods = field<unknown[]>(schedule, 'chargingSchedulePeriod', 'array', true).map((entry) => {
    if (!isShape(entry, 'object')) throw new OcppError('FormationViolation', 'chargingSchedulePeriod entries must be objects');
    const period = entry as Payload;
    const limit = field<number>(period, 'limit', 'number', true);
    if (!isTenths(limit)) throw new OcppError('PropertyConstraintViolation', 'limit has at most one decimal');
    return compact({
      startPeriod: field<number>(period, 'startPeriod', 'integer', true),
      limit,
      numberPhases: field<number>(period, 'numberPhases', 'integer'),
    });
  });
  const minChargingRate = field<number>(schedule, 'minChargingRate', 'number');
  return compact({
    chargingProfileId: field<number>(raw, 'chargingProfileId', 'integer', true),
    transactionId: field<number>(raw, 'transactionId', 'integer'),
    stackLevel,
    chargingProfilePurpose: oneOf(raw, 'chargingProfilePurpose', CHARGING_PROFILE_PURPOSES),
    chargingProfileKind: oneOf(raw, 'chargingProfileKind', CHARGING_PROFILE_KINDS),
    recurrencyKind: oneOf(raw, 'recurrencyKind', RECURRENCY_KINDS, false),
    validFrom: raw.validFrom as string | undefined,
    validTo: raw.validTo as string | undefined,
    chargingSchedule: compact({
      duration: field<number>(schedule, 'duration', 'integer'),
      startSchedule: schedule.startSchedule as string | undefined,
      chargingRateUnit: oneOf(schedule, 'chargingRateUnit', CHARGING_RATE_UNITS),
      chargingSchedulePeriod: periods,
      minChargingRate,
    }),
  });
}

/** Why a well-formed profile cannot be used (a charger answers Rejected), or undefined. */
export function chargingProfileProblem(profile: ChargingProfile): string | undefined {
  const { chargingSchedule: schedule, chargingProfileKind: kind, chargingProfilePurpose: purpose } = profile;
  const periods = schedule.chargingSchedulePeriod;
  if (periods[0]?.startPeriod !== 0) return 'the first period starts at 0';
  if (periods.some((q, i) => i > 0 && q.startPeriod <= periods[i - 1]!.startPeriod)) return 'periods start in ascending order';
  if (periods.some((q) => q.limit < 0)) return 'a limit cannot be negative';
  if (periods.some((q) => q.numberPhases !== undefined && (q.numberPhases < 1 || q.numberPhases > 3))) return 'numberPhases is 1 to 3';
  if (schedule.duration !== undefined && schedule.duration < 0) return 'duration cannot be negative';
  if (kind === 'Recurring' && (!profile.recurrencyKind || !schedule.startSchedule))
    return 'a Recurring profile needs a recurrencyKind and a startSchedule';
  if (profile.validFrom && profile.validTo && Date.parse(profile.validFrom) >= Date.parse(profile.validTo))
    return 'validTo comes after validFrom';
  if (profile.transactionId !== undefined && purpose !== 'TxProfile') return 'only a TxProfile names a transaction';
  // The point's limit runs on its own clock: "relative to the start of charging" means nothing for it.
  if (purpose === 'ChargePointMaxProfile' && (kind === 'Relative' || !schedule.startSchedule))
    return 'a ChargePointMaxProfile needs a startSchedule';
  return undefined;
}

/** Phases a period uses: the number it names (OCPP assumes 3), at most what the connector has; DC has none. */
const phasesUsed = (e: Electrical, numberPhases?: number) => (e.current === 'DC' ? 1 : Math.min(numberPhases ?? 3, e.phases));

/**
 * A limit in W. AC: A × phase-to-neutral voltage × phases used (16 A on 3 × 230 V is 11 040 W);
 * DC: A × the nominal voltage.
 */
export const limitToW = (limit: number, unit: ChargingRateUnit, e: Electrical, numberPhases?: number) =>
  unit === 'W' ? limit : limit * e.voltageV * phasesUsed(e, numberPhases);

/** A W limit in `unit`: the inverse of `limitToW`. */
export const limitFromW = (w: number, unit: ChargingRateUnit, e: Electrical, numberPhases?: number) =>
  unit === 'W' ? w : w / (e.voltageV * phasesUsed(e, numberPhases));

/** A limit at an instant, in W, with the phases it is drawn on. */
interface Level {
  w: number;
  phases: number;
}

const lower = (a: Level, b: Level | undefined) => (!b || a.w <= b.w ? a : b);

/** A profile with its times parsed once. */
interface Compiled {
  profile: ChargingProfile;
  validFrom: number;
  validTo: number;
  /** Start of an Absolute or Recurring schedule; undefined: it starts with the transaction. */
  anchor?: number;
  /** Recurrence, ms. */
  every?: number;
  lengthMs: number;
  /** Period starts, ms from the start of the schedule. */
  starts: number[];
}

function compile(profile: ChargingProfile): Compiled {
  const s = profile.chargingSchedule;
  const anchor = profile.chargingProfileKind !== 'Relative' && s.startSchedule ? Date.parse(s.startSchedule) : undefined;
  return compact({
    profile,
    validFrom: profile.validFrom ? Date.parse(profile.validFrom) : -Infinity,
    validTo: profile.validTo ? Date.parse(profile.validTo) : Infinity,
    anchor,
    every: profile.chargingProfileKind === 'Recurring' ? RECURRENCE_MS[profile.recurrencyKind ?? 'Daily'] : undefined,
    lengthMs: s.duration !== undefined ? s.duration * 1000 : Infinity,
    starts: s.chargingSchedulePeriod.map((q) => q.startPeriod * 1000),
  });
}

/** Start of the run of the schedule in force at `t` (a Recurring one runs again every day or week), if any. */
function runStart(c: Compiled, t: number, origin: number): number | undefined {
  const anchor = c.anchor ?? origin;
  if (t < anchor) return undefined;
  return c.every ? anchor + Math.floor((t - anchor) / c.every) * c.every : anchor;
}

function periodAt(c: Compiled, t: number, origin: number): ChargingSchedulePeriod | undefined {
  if (t < c.validFrom || t >= c.validTo) return undefined;
  const run = runStart(c, t, origin);
  if (run === undefined || t - run >= c.lengthMs) return undefined;
  let i = c.starts.length - 1;
  while (i > 0 && c.starts[i]! > t - run) i--;
  return c.profile.chargingSchedule.chargingSchedulePeriod[i];
}

/** The first instant after `t` at which the profile may start, stop or change period. */
function nextChange(c: Compiled, t: number, origin: number): number {
  let next = Infinity;
  const consider = (x: number) => {
    if (x > t && x < next) next = x;
  };
  consider(c.validFrom);
  consider(c.validTo);
  const run = runStart(c, t, origin) ?? c.anchor ?? origin;
  for (const r of c.every ? [run, run + c.every] : [run]) {
    consider(r + c.lengthMs);
    for (const s of c.starts) consider(r + s);
  }
  return next;
}

/** The profiles of one purpose that apply to a connector, strongest first. */
type Stack = { c: Compiled; origin: number }[];

function levelOf(stack: Stack, t: number, e: Electrical): Level | undefined {
  for (const { c, origin } of stack) {
    const period = periodAt(c, t, origin);
    if (period)
      return {
        w: limitToW(period.limit, c.profile.chargingSchedule.chargingRateUnit, e, period.numberPhases),
        phases: phasesUsed(e, period.numberPhases),
      };
  }
  return undefined;
}

interface ConnectorStacks {
  electrical: Electrical;
  hardware: Level;
  tx: Stack;
  txDefault: Stack;
}

/** Who limits what: each connector's stacks and the point's ChargePointMaxProfiles. */
interface Plan {
  pointMax: Stack;
  pointElectrical: Electrical;
  connectors: Map<number, ConnectorStacks>;
}

function plan(profiles: readonly InstalledProfile[], connectors: readonly ScheduleConnector[], now: number): Plan {
  const compiled = profiles.map((i) => ({ connectorId: i.connectorId, c: compile(i.profile) }));
  // Highest stackLevel first; at the same level the connector's own profile before connector 0's.
  const stack = (purpose: ChargingProfilePurpose, on: (connectorId: number) => boolean, origin: number): Stack =>
    compiled
      .filter((i) => i.c.profile.chargingProfilePurpose === purpose && on(i.connectorId))
      .sort((a, b) => b.c.profile.stackLevel - a.c.profile.stackLevel || b.connectorId - a.connectorId)
      .map(({ c }) => ({ c, origin }));
  const map = new Map<number, ConnectorStacks>();
  for (const sc of connectors) {
    const electrical = sc.electrical ?? DEFAULT_ELECTRICAL;
    const tx = sc.transaction;
    const origin = tx?.startedAt ?? now;
    map.set(sc.connectorId, {
      electrical,
      hardware: { w: sc.maxPowerW, phases: phasesUsed(electrical, electrical.phases) },
      tx: tx
        ? stack('TxProfile', (id) => id === sc.connectorId, origin).filter(
            ({ c }) => c.profile.transactionId === undefined || c.profile.transactionId === tx.transactionId,
          )
        : [],
      txDefault: stack('TxDefaultProfile', (id) => id === 0 || id === sc.connectorId, origin),
    });
  }
  return {
    pointMax: stack('ChargePointMaxProfile', (id) => id === 0, now),
    pointElectrical: connectors[0]?.electrical ?? DEFAULT_ELECTRICAL,
    connectors: map,
  };
}

/** A connector's own limit (hardware, then TxProfile or else TxDefaultProfile), before the point's. */
const connectorLevel = (s: ConnectorStacks, t: number) =>
  lower(s.hardware, levelOf(s.tx, t, s.electrical) ?? levelOf(s.txDefault, t, s.electrical));

const pointMaxLevel = (p: Plan, t: number) => levelOf(p.pointMax, t, p.pointElectrical);

function stacksChange(stacks: Stack[], t: number) {
  let next = Infinity;
  for (const s of stacks) for (const { c, origin } of s) next = Math.min(next, nextChange(c, t, origin));
  return next;
}

/** GetCompositeSchedule as OCPP 1.6 computes it; undefined for a connector the point does not have. */
export function compositeSchedule(req: CompositeRequest): CompositeSchedule | undefined {
  const unit = req.unit ?? 'W';
  const from = Math.floor(req.start / 1000) * 1000;
  const to = from + req.duration * 1000;
  const p = plan(req.profiles, req.connectors, from);
  const own = req.connectorId === 0 ? undefined : p.connectors.get(req.connectorId);
  if (req.connectorId !== 0 && !own) return undefined;
  const all = [...p.connectors.values()];
  const electrical = own?.electrical ?? p.pointElectrical;

  const levelAt = (t: number): Level => {
    if (own) return lower(connectorLevel(own, t), pointMaxLevel(p, t));
    // The point as a whole: what its connectors may draw together, within the point's own limit.
    const w = all.reduce((total, s) => total + connectorLevel(s, t).w, 0);
    return lower({ w, phases: phasesUsed(electrical, electrical.phases) }, pointMaxLevel(p, t));
  };
  const stacks = own ? [own.tx, own.txDefault, p.pointMax] : [p.pointMax, ...all.flatMap((s) => [s.tx, s.txDefault])];

  const periods: ChargingSchedulePeriod[] = [];
  let t = from;
  do {
    const level = levelAt(t);
    const period = compact({
      // Changes within a second (a transaction's start is not on the second) count from that second.
      startPeriod: Math.floor((t - from) / 1000),
      limit: tenthsDown(limitFromW(level.w, unit, electrical, level.phases)),
      numberPhases: electrical.current === 'AC' ? level.phases : undefined,
    });
    if (periods.at(-1)?.startPeriod === period.startPeriod) periods.pop();
    const before = periods.at(-1);
    if (!before || before.limit !== period.limit || before.numberPhases !== period.numberPhases) periods.push(period);
    t = stacksChange(stacks, t);
  } while (t < to);
  const iso = new Date(from).toISOString();
  return {
    scheduleStart: iso,
    chargingSchedule: { duration: req.duration, startSchedule: iso, chargingRateUnit: unit, chargingSchedulePeriod: periods },
  };
}

/**
 * Splits the point's limit among the connectors drawing power: each gets at most its own
 * limit, the rest is shared evenly among the others (so one EV held at 6 A leaves the rest to
 * its neighbour).
 */
export function shareLimit(totalW: number, limitsW: readonly number[]): number[] {
  const out = limitsW.map(() => 0);
  let left = totalW;
  let open = limitsW.map((_, i) => i);
  while (open.length > 0) {
    const even = left / open.length;
    const capped = open.filter((i) => limitsW[i]! <= even);
    if (capped.length === 0) {
      for (const i of open) out[i] = even;
      break;
    }
    for (const i of capped) {
      out[i] = limitsW[i]!;
      left -= limitsW[i]!;
    }
    open = open.filter((i) => limitsW[i]! > even);
  }
  return out;
}

export interface ClearCriteria {
  id?: number;
  connectorId?: number;
  chargingProfilePurpose?: ChargingProfilePurpose;
  stackLevel?: number;
}

/** One point's profiles (none until the CSMS sets one, so a large fleet holds nothing). */
export interface SmartCharging {
  /** SetChargingProfile's answer: whether the point takes `profile` on `connectorId`. */
  check(connectorId: number, profile: ChargingProfile): 'Accepted' | 'Rejected';
  /** Whether a RemoteStartTransaction's profile can go with the transaction it asks for. */
  checkRemoteStart(connectorId: number, profile: ChargingProfile): boolean;
  /** Installs a checked profile (replacing those it supersedes) and limits the connectors by it. */
  install(connectorId: number, profile: ChargingProfile): void;
  /** ClearChargingProfile: how many installed profiles match. */
  matching(criteria: ClearCriteria): number;
  clear(criteria: ClearCriteria): void;
  composite(connectorId: number, duration: number, unit: ChargingRateUnit): CompositeSchedule | undefined;
  /** A transaction ended: its TxProfiles go. */
  ended(tx: Transaction): void;
  /** Brings every connector's limit up to date (after a transaction starts, a plug-in…) and waits for the next change. */
  apply(): void;
  halt(): void;
}

type Deps = Pick<PointInternals, 'config' | 'connectors' | 'connector' | 'scheduler' | 'now' | 'refresh'>;

const UNIT_NAMES: Record<ChargingRateUnit, string> = { A: 'Current', W: 'Power' };

export function createSmartCharging(p: Deps): SmartCharging {
  /** With the transaction a TxProfile belongs to: it leaves with it. */
  let profiles: (InstalledProfile & { tx?: Transaction })[] = [];
  let task: Task | undefined;

  const supersedes = (a: InstalledProfile, b: InstalledProfile) =>
    a.profile.chargingProfileId === b.profile.chargingProfileId ||
    (a.connectorId === b.connectorId &&
      a.profile.stackLevel === b.profile.stackLevel &&
      a.profile.chargingProfilePurpose === b.profile.chargingProfilePurpose);

  /** The point's own limits (ChargeProfileMaxStackLevel and friends). */
  function withinLimits(connectorId: number, profile: ChargingProfile) {
    const next = { connectorId, profile };
    const kept = profiles.filter((i) => !supersedes(next, i)).length;
    return (
      profile.stackLevel <= p.config.int('ChargeProfileMaxStackLevel') &&
      profile.chargingSchedule.chargingSchedulePeriod.length <= p.config.int('ChargingScheduleMaxPeriods') &&
      p.config.list('ChargingScheduleAllowedChargingRateUnit').includes(UNIT_NAMES[profile.chargingSchedule.chargingRateUnit]) &&
      kept + 1 <= p.config.int('MaxChargingProfilesInstalled')
    );
  }

  function check(connectorId: number, profile: ChargingProfile): 'Accepted' | 'Rejected' {
    if (chargingProfileProblem(profile) || !withinLimits(connectorId, profile)) return 'Rejected';
    const c = connectorId === 0 ? undefined : p.connector(connectorId);
    if (connectorId !== 0 && !c) return 'Rejected';
    switch (profile.chargingProfilePurpose) {
      case 'ChargePointMaxProfile':
        return connectorId === 0 ? 'Accepted' : 'Rejected';
      case 'TxDefaultProfile':
        return 'Accepted';
      case 'TxProfile': {
        const tx = c?.tx;
        if (!tx || (profile.transactionId !== undefined && profile.transactionId !== tx.transactionId)) return 'Rejected';
        return 'Accepted';
      }
    }
  }

  const toSchedule = (c: Connector) => ({
    connectorId: c.id,
    electrical: c.spec,
    maxPowerW: c.spec.maxPowerW,
    ...(c.tx ? { transaction: { transactionId: c.tx.transactionId, startedAt: c.tx.startedAt } } : {}),
  });

  /** Whether the connector's EV can draw now (the point's limit is shared among those). */
  const drawing = (c: Connector) => c.tx !== undefined && c.meter.active;

  function apply() {
    task?.cancel();
    task = undefined;
    const now = p.now();
    const limits = profiles.length === 0 ? new Map<number, number>() : limitsAt(now);
    for (const c of p.connectors) {
      const limitW = limits.get(c.id);
      if (limitW === c.meter.limitW) continue;
      advance(c.meter, c.spec, now); // what flowed until now flowed under the old limit
      c.meter.limitW = limitW;
      advance(c.meter, c.spec, now);
      p.refresh(c.id); // no power offered suspends the session (SuspendedEVSE)
    }
    if (profiles.length === 0) return;
    const pl = plan(profiles, p.connectors.filter(drawing).map(toSchedule), now);
    const next = stacksChange([pl.pointMax, ...[...pl.connectors.values()].flatMap((s) => [s.tx, s.txDefault])], now);
    if (next < Infinity) task = p.scheduler.at(next, apply);
  }

  /** Each connector's limit now, W: its own, and its share of the point's among those drawing. */
  function limitsAt(now: number): Map<number, number> {
    const pl = plan(profiles, p.connectors.map(toSchedule), now);
    const own = new Map(p.connectors.map((c) => [c.id, connectorLevel(pl.connectors.get(c.id)!, now).w]));
    const pointW = pointMaxLevel(pl, now)?.w ?? Infinity;
    const active = p.connectors.filter(drawing);
    const shares = shareLimit(
      pointW,
      active.map((c) => own.get(c.id)!),
    );
    const limits = new Map<number, number>();
    for (const c of p.connectors) limits.set(c.id, Math.min(own.get(c.id)!, pointW));
    active.forEach((c, i) => limits.set(c.id, Math.min(own.get(c.id)!, shares[i]!)));
    return limits;
  }

  const matches = (i: InstalledProfile, k: ClearCriteria) =>
    k.id !== undefined
      ? i.profile.chargingProfileId === k.id
      : (k.connectorId === undefined || i.connectorId === k.connectorId) &&
        (k.chargingProfilePurpose === undefined || i.profile.chargingProfilePurpose === k.chargingProfilePurpose) &&
        (k.stackLevel === undefined || i.profile.stackLevel === k.stackLevel);

  return {
    check,
    checkRemoteStart: (connectorId, profile) =>
      profile.chargingProfilePurpose === 'TxProfile' &&
      profile.transactionId === undefined &&
      !chargingProfileProblem(profile) &&
      withinLimits(connectorId, profile),
    install(connectorId, profile) {
      const next = {
        connectorId,
        profile,
        ...(profile.chargingProfilePurpose === 'TxProfile' ? { tx: p.connector(connectorId)?.tx } : {}),
      };
      profiles = [...profiles.filter((i) => !supersedes(next, i)), next];
      apply();
    },
    matching: (criteria) => profiles.filter((i) => matches(i, criteria)).length,
    clear(criteria) {
      profiles = profiles.filter((i) => !matches(i, criteria));
      apply();
    },
    composite: (connectorId, duration, unit) =>
      compositeSchedule({ profiles, connectors: p.connectors.map(toSchedule), connectorId, start: p.now(), duration, unit }),
    ended(tx) {
      profiles = profiles.filter((i) => i.tx !== tx);
      apply();
    },
    apply,
    halt() {
      task?.cancel();
      task = undefined;
    },
  };
}
