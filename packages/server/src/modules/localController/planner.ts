import { VOLTS_PER_PHASE, type AllocationState } from '@csms/contract';

/** A session under a controller, as the planner sees it. */
export interface PlanSession {
  /** `pointId:connectorNo`. */
  key: string;
  /** When it started (arrival order among those that must wait). */
  arrival: number;
  /** The most its point can give, W. */
  ratedW: number;
  /** The least it is given once admitted, W (the minimum current on its phases). */
  minW: number;
  /** Its point's socket is open. */
  online: boolean;
  priority: boolean;
  /** What its meter last reported, W. */
  measuredW?: number | undefined;
  /** What the previous plan gave it, W. */
  previousW?: number | undefined;
}

export interface PlanEntry {
  key: string;
  state: AllocationState;
  allocatedW: number;
}

/** Below this share of its allocation, a car is taken to want no more than it draws. */
export const TAKES_LESS = 0.9;
/** Room a car drawing less than it was given keeps above its draw, to show that it wants more. */
const HEADROOM = 1.2;

/** A point's minimum power: the minimum current on its phases (one phase up to 7.4 kW, else three). */
export function minPowerW(minCurrentA: number, ratedW: number): number {
  const phases = ratedW <= 7_400 ? 1 : 3;
  return Math.ceil(minCurrentA * VOLTS_PER_PHASE * phases);
}

/** The most a session can use: its rating, and what its car draws when it took clearly less than it was given. */
function capOf(s: PlanSession): number {
  if (s.measuredW !== undefined && s.previousW !== undefined && s.previousW > 0 && s.measuredW < TAKES_LESS * s.previousW) {
    return Math.min(s.ratedW, Math.max(s.minW, Math.ceil(s.measuredW * HEADROOM)));
  }
  return s.ratedW;
}

/**
 * Fills `budget` across sessions that already hold their floor: an equal share each, none above its
 * cap; what a capped session cannot take goes to the others. Returns the extra given to each.
 */
function waterFill(items: { key: string; floor: number; cap: number }[], budget: number): Map<string, number> {
  const extra = new Map(items.map((i) => [i.key, 0]));
  let open = items.filter((i) => i.cap > i.floor);
  let left = budget;
  while (open.length > 0 && left > 0.5) {
    const share = left / open.length;
    const next: typeof open = [];
    let used = 0;
    for (const i of open) {
      const room = i.cap - i.floor - extra.get(i.key)!;
      const give = Math.min(room, share);
      extra.set(i.key, extra.get(i.key)! + give);
      used += give;
      if (room - give > 0.5) next.push(i);
    }
    left -= used;
    if (next.length === open.length) break; // nobody was capped: the share was spread evenly
    open = next;
  }
  return extra;
}

/**
 * One plan of a controller (issue 15 item 2). Offline points keep their last allocation counted
 * (fail-safe: a charger that lost its connection still draws what it was last allowed). Online
 * sessions are admitted, priority first and then in arrival order, while the budget gives each its
 * minimum; the rest wait at 0 W. Admitted sessions share what remains equally, priority ones first,
 * each capped by its rating and by what its car draws. Whole watts, never above the budget.
 */
export function plan(limitW: number, sessions: readonly PlanSession[]): PlanEntry[] {
  const out = new Map<string, PlanEntry>();
  let budget = limitW;
  for (const s of sessions) {
    if (s.online) continue;
    const kept = Math.max(0, Math.min(s.previousW ?? 0, budget));
    budget -= kept;
    out.set(s.key, { key: s.key, state: 'offline', allocatedW: kept });
  }
  const online = sessions
    .filter((s) => s.online)
    .sort((a, b) => Number(b.priority) - Number(a.priority) || a.arrival - b.arrival || a.key.localeCompare(b.key));
  const admitted: PlanSession[] = [];
  let floors = 0;
  for (const s of online) {
    const floor = Math.min(s.minW, s.ratedW);
    if (floors + floor <= budget) {
      admitted.push(s);
      floors += floor;
    } else out.set(s.key, { key: s.key, state: 'waiting', allocatedW: 0 });
  }
  let left = budget - floors;
  const given = new Map(admitted.map((s) => [s.key, Math.min(s.minW, s.ratedW)]));
  for (const tier of [admitted.filter((s) => s.priority), admitted.filter((s) => !s.priority)]) {
    const extra = waterFill(
      tier.map((s) => ({ key: s.key, floor: given.get(s.key)!, cap: Math.max(given.get(s.key)!, capOf(s)) })),
      left,
    );
    for (const [key, e] of extra) {
      given.set(key, given.get(key)! + e);
      left -= e;
    }
  }
  for (const s of admitted) out.set(s.key, { key: s.key, state: 'charging', allocatedW: Math.floor(given.get(s.key)!) });
  return sessions.map((s) => out.get(s.key)!);
}
