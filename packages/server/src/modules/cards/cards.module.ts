import type { DayZone } from '../../lib/day-zone.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { EventHub } from '../../lib/events.js';
import type { ExportColumns } from '../../lib/export-config.js';
import { createCarImport } from './car-import.js';
import { createCarRepo } from './car.repo.js';
import { carRoutes } from './car.routes.js';
import { createCardRepo } from './card.repo.js';
import { cardRoutes } from './card.routes.js';
import { createChargeUserRepo } from './charge-user.repo.js';
import { chargeUserRoutes } from './charge-user.routes.js';
import { createRefs } from './common.js';
import type { Ledger } from './ledger.js';
import { createRechargeRecordRepo } from './recharge-record.repo.js';
import { rechargeRecordRoutes } from './recharge-record.routes.js';
import { createUserGroupRepo } from './user-group.repo.js';
import { userGroupRoutes } from './user-group.routes.js';

interface Deps {
  db: Db;
  events: EventHub;
  columns: ExportColumns;
  config: Pick<Config, 'exportMaxRows' | 'dataDir'>;
  dayZone: DayZone;
  /** The server's one ledger (its recharges earn activities' bonuses). */
  ledger: Ledger;
  /** A charge user was registered (issue 19: activities granting vouchers to new users). */
  onRegistered?: (chargeUserId: number) => Promise<void>;
}

/**
 * The cards area's handlers (charge users, RFID cards, user groups, cars, recharge records),
 * built over one ledger: every balance change of a card or a mobile account is a ledger row.
 */
export function cardsRoutes({ db, events, columns, config, dayZone, ledger, onRegistered }: Deps) {
  const refs = createRefs({ db });
  const users = createChargeUserRepo({ db });
  const records = createRechargeRecordRepo({ db });
  const cars = createCarRepo({ db });
  const shared = { events, columns, config };
  return {
    chargeUser: chargeUserRoutes({ db, repo: users, refs, ledger, dayZone, onRegistered, ...shared }),
    card: cardRoutes({ db, repo: createCardRepo({ db }), records, refs, ledger, ...shared }),
    userGroup: userGroupRoutes({ repo: createUserGroupRepo({ db }), users, refs, ...shared }),
    car: carRoutes({ repo: cars, refs, carImport: createCarImport({ db, repo: cars, events, dataDir: config.dataDir }), ...shared }),
    rechargeRecord: rechargeRecordRoutes({ repo: records, dayZone, ...shared }),
  };
}
