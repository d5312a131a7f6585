import { MAX_CONNECTORS } from '@csms/contract';
import { eq, inArray } from 'drizzle-orm';
import { alarm, chargePoint, connector } from '../db/schema.js';
import { emit, type OcppCore } from './core.js';
import type { ConnectorState, OpenAlarm } from './registry.js';
import { RpcError, type Payload } from './rpc.js';
import type { ActionHandler } from './session.js';

/*
 * Charge-point messages about the point itself. Payloads arrive schema-checked, so the casts
 * below only name what the schema already guarantees.
 */

interface BootNotificationReq {
  chargePointVendor: string;
  chargePointModel: string;
  chargePointSerialNumber?: string;
  chargeBoxSerialNumber?: string;
  firmwareVersion?: string;
  iccid?: string;
  imsi?: string;
  meterType?: string;
  meterSerialNumber?: string;
}

interface StatusNotificationReq {
  connectorId: number;
  errorCode: string;
  status: string;
  info?: string;
  timestamp?: string;
  vendorId?: string;
  vendorErrorCode?: string;
}

/** Standard and type of a connector learnt from a StatusNotification: those of the point's first connector, else AC Type 2 for the operator to correct. */
function learntConnector(connectors: Map<number, ConnectorState>): Pick<ConnectorState, 'standard' | 'type'> {
  const first = [...connectors.entries()].sort(([a], [b]) => a - b)[0]?.[1];
  return first ? { standard: first.standard, type: first.type } : { standard: 'ac', type: 'Type2' };
}

export function pointHandlers(core: OcppCore): Record<string, ActionHandler> {
  const { db, events } = core;

  return {
    async BootNotification(session, payload) {
      const p = payload as unknown as BootNotificationReq;
      const now = new Date();
      await core.writer.write({
        boot: {
          id: session.point.id,
          vendor: p.chargePointVendor,
          model: p.chargePointModel,
          chargeBoxSerial: p.chargePointSerialNumber ?? p.chargeBoxSerialNumber ?? null,
          firmwareVersion: p.firmwareVersion ?? null,
          iccid: p.iccid ?? null,
          imsi: p.imsi ?? null,
          meterType: p.meterType ?? null,
          meterSerial: p.meterSerialNumber ?? null,
          at: now,
        },
      });
      // Waiting for an operator to place it: Pending (OCPP 1.6 §4.2, 2.0.1 B02) until it is. Asked of the database
      // at each boot, not of the cache: the placement may have happened on another node.
      if (session.point.needsPlacement && core.config.pendingUntilPlaced) {
        const [row] = await db
          .select({ unplaced: chargePoint.needsPlacement })
          .from(chargePoint)
          .where(eq(chargePoint.id, session.point.id));
        if (row?.unplaced !== false) {
          session.registration = 'Pending';
          return { status: 'Pending', currentTime: now.toISOString(), interval: core.config.heartbeatIntervalSec };
        }
        session.point.needsPlacement = false;
      }
      session.registration = 'Accepted';
      session.triggered = undefined;
      core.booted(session.point, p.firmwareVersion ?? null);
      return { status: 'Accepted', currentTime: now.toISOString(), interval: core.config.heartbeatIntervalSec };
    },

    async Heartbeat() {
      return { currentTime: new Date().toISOString() };
    },

    async StatusNotification(session, payload, receivedAt) {
      const p = payload as unknown as StatusNotificationReq;
      const point = session.point;
      const no = p.connectorId;
      if (no < 0) throw new RpcError('PropertyConstraintViolation', 'connectorId must be 0 (the point) or a connector number');
      // A connector it reports is learnt (a row); past the console's own limit it is a charger making rows up.
      if (no > MAX_CONNECTORS) throw new RpcError('PropertyConstraintViolation', `connectorId must be at most ${MAX_CONNECTORS}`);
      const at = p.timestamp ? new Date(p.timestamp) : new Date(receivedAt);
      const state = {
        status: p.status,
        errorCode: p.errorCode,
        info: p.info ?? null,
        vendorErrorCode: p.vendorErrorCode ?? null,
        statusAt: at,
      };
      const level: OpenAlarm['level'] | null = p.status === 'Faulted' ? 'serious' : p.errorCode !== 'NoError' ? 'common' : null;
      const open = point.alarms.get(no) ?? [];
      const raise = level !== null && !open.some((a) => a.level === level && a.errorCode === p.errorCode);
      const clear = level === null && open.length > 0;
      const known = point.connectors.get(no);
      const learnt = no > 0 && !known ? learntConnector(point.connectors) : null;

      const shape = learnt ?? (known ? { standard: known.standard, type: known.type } : null);
      const write =
        no === 0
          ? { pointStatus: { id: point.id, status: p.status, errorCode: p.errorCode } }
          : { connector: { chargePointId: point.id, connectorNo: no, standard: shape!.standard, type: shape!.type, ...state } };
      let raised: number | null = null;
      if (!raise && !clear) {
        // The common case: batched with other chargers' writes.
        await core.writer.write(write);
      } else {
        raised = await db.transaction(async (tx) => {
          if (write.pointStatus) {
            await tx.update(chargePoint).set({ status: p.status, errorCode: p.errorCode }).where(eq(chargePoint.id, point.id));
          } else {
            await tx
              .insert(connector)
              .values(write.connector!)
              .onConflictDoUpdate({ target: [connector.chargePointId, connector.connectorNo], set: state });
          }
          if (clear)
            await tx
              .update(alarm)
              .set({ clearedAt: at })
              .where(
                inArray(
                  alarm.id,
                  open.map((a) => a.id),
                ),
              );
          if (!raise) return null;
          const [row] = await tx
            .insert(alarm)
            .values({
              providerId: point.providerId,
              stationId: point.stationId,
              chargePointId: point.id,
              connectorNo: no,
              level: level!,
              status: p.status,
              errorCode: p.errorCode,
              info: p.info ?? null,
              vendorErrorCode: p.vendorErrorCode ?? null,
              occurredAt: at,
            })
            .returning({ id: alarm.id });
          return row!.id;
        });
      }

      if (no > 0) {
        const c = known ?? { ...learnt!, status: null, errorCode: null };
        c.status = p.status;
        c.errorCode = p.errorCode;
        point.connectors.set(no, c);
      }
      if (clear) point.alarms.delete(no);
      if (raised !== null) point.alarms.set(no, [...open, { id: raised, errorCode: p.errorCode, level: level! }]);
      const iso = at.toISOString();
      emit(events, 'point.status', point, {
        connectorNo: no,
        status: p.status,
        errorCode: p.errorCode,
        ...(p.info ? { info: p.info } : {}),
        at: iso,
      });
      if (raised !== null)
        emit(events, 'point.fault', point, { alarmId: raised, connectorNo: no, level: level!, errorCode: p.errorCode, at: iso });
      return {};
    },

    async DiagnosticsStatusNotification(session, payload) {
      await db
        .update(chargePoint)
        .set({ diagnosticsStatus: String(payload.status) })
        .where(eq(chargePoint.id, session.point.id));
      core.diagnosticsStatus(session.point, String(payload.status));
      return {};
    },

    async FirmwareStatusNotification(session, payload) {
      await db
        .update(chargePoint)
        .set({ firmwareStatus: String(payload.status) })
        .where(eq(chargePoint.id, session.point.id));
      core.firmwareStatus(session.point, String(payload.status));
      return {};
    },

    async DataTransfer(session, payload): Promise<Payload> {
      const p = payload as { vendorId: string; messageId?: string; data?: string };
      const handler = core.vendors.get(p.vendorId);
      if (!handler) return { status: 'UnknownVendorId' };
      const answer = await handler({
        serialNumber: session.point.serialNumber,
        chargePointId: session.point.id,
        providerId: session.point.providerId,
        ...(p.messageId !== undefined ? { messageId: p.messageId } : {}),
        ...(p.data !== undefined ? { data: p.data } : {}),
      });
      return { ...answer };
    },
  };
}
