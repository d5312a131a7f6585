import {
  Code,
  translate,
  wallClock,
  type ConfigurationKey,
  type DeviceModelItem,
  type PointConfigAnswer,
  type pointActionApi,
} from '@csms/contract';
import type { AuthedCtx } from '../../http/context.js';
import { badField, conflict, notFound } from '../../http/errors.js';
import { externalAll, Outcome, type AuditNote, type Handlers } from '../../http/mount.js';
import type { ChargingProfileRepo } from '../chargingProfile/chargingProfile.repo.js';
import { ocppProfile } from '../chargingProfile/chargingProfile.service.js';
import type { LocalListService } from '../localList/localList.service.js';
import type { PointActionRepo } from './pointAction.repo.js';
import type { ChargerReply } from '../../bus/bus.js';
import { generateOcppKey, hashOcppKey } from '../../ocpp/keys.js';
import { interpret, type Answer, type CommandSender } from './pointAction.service.js';

interface Deps {
  repo: PointActionRepo;
  ask: CommandSender;
  /** Each point's local authorization list: versions, Differential and Full updates (localList module). */
  localLists: Pick<LocalListService, 'send' | 'state' | 'chargerVersion'>;
  /** Stored charging profiles: a remote start may carry one of the point's provider's TxProfiles. */
  profiles: Pick<ChargingProfileRepo, 'visibleRow' | 'remoteStartOptions'>;
  /** Whether this server has its TLS listener (security profile 2): a network profile may name it only then. */
  tls: boolean;
}

/** OCPP 2.0.1's order of the charger's connection profiles, tried first to last. */
const PRIORITY = 'OCPPCommCtrlr.NetworkConfigurationPriority';

/** Chargers asked at once by a change sent to many points. */
const BULK_PARALLEL = 10;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const record = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/** A CALLRESULT's ChargingSchedule with absent optional fields as null. */
function schedule(v: unknown) {
  if (v === null || typeof v !== 'object') return null;
  const s = record(v);
  const periods = Array.isArray(s.chargingSchedulePeriod) ? s.chargingSchedulePeriod.map(record) : [];
  return {
    duration: num(s.duration),
    startSchedule: str(s.startSchedule),
    chargingRateUnit: str(s.chargingRateUnit) ?? '',
    chargingSchedulePeriod: periods.map((x) => ({
      startPeriod: num(x.startPeriod) ?? 0,
      limit: num(x.limit) ?? 0,
      numberPhases: num(x.numberPhases),
    })),
    minChargingRate: num(s.minChargingRate),
  };
}

/**
 * `POST /web/point/{action}`: find the point in the caller's scope (404 otherwise, before anything
 * is sent), send the OCPP command over the bus and answer with the charger's reply. The envelope
 * is 200 whatever the charger said; its message (and the system log's) is the answer in words.
 */
export function pointActionRoutes({ repo, ask, localLists, profiles, tls }: Deps): Handlers<typeof pointActionApi> {
  async function target(ctx: AuthedCtx, serialNumber: string, audit: AuditNote) {
    const point = await repo.point(ctx.principal, serialNumber);
    if (!point) throw notFound();
    audit.operand = `point:${point.serialNumber}`;
    return point;
  }

  /** An answer in the caller's words: the status, the charger's own word and why. */
  const words = (ctx: AuthedCtx, a: Answer) => ({
    status: a.status,
    chargerStatus: a.chargerStatus,
    message: a.messageKey ? translate(ctx.lang, a.messageKey, a.params) : null,
  });

  function answer<T extends object>(ctx: AuthedCtx, a: Answer, extra: T) {
    const data = { ...words(ctx, a), ...extra };
    return new Outcome(data, Code.OK, a.messageKey ?? `enums.actionStatus.${a.status}`, a.params);
  }

  // Each waits for a charger's answer, outside any transaction; its system-log row is written before the command leaves.
  return externalAll({
    async remoteStart({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      // A charging profile for the transaction (OCPP 1.6 §5.11): a TxProfile of the point's provider, sent
      // without transactionId (the transaction does not exist yet). One the caller cannot see is not found.
      let chargingProfile: Record<string, unknown> | undefined;
      if (body.chargingProfileId !== undefined) {
        const profile = await profiles.visibleRow(ctx.principal, body.chargingProfileId);
        if (!profile) throw notFound();
        if (profile.providerId !== point.providerId)
          throw badField('chargingProfileId', 'errors.pointAction.profileOtherProvider', { id: profile.id });
        if (profile.purpose !== 'TxProfile')
          throw badField('chargingProfileId', 'errors.pointAction.profileNotTx', {
            id: profile.id,
            purpose: translate(ctx.lang, `enums.profilePurpose.${profile.purpose}`),
          });
        chargingProfile = ocppProfile(profile);
      }
      // The idTag must be one of the point's provider's cards: an operator cannot charge another provider's card.
      // The charger gets it as issued, whatever case the operator typed.
      const tag = await repo.providerCardTag(point.providerId, body.idTag);
      if (tag === undefined) throw badField('idTag', 'errors.pointAction.idTagUnknown', { idTag: body.idTag });
      if (tag.masterPass) throw badField('idTag', 'errors.pointAction.idTagMasterPass', { idTag: body.idTag });
      const idTag = tag.physicalId;
      const payload = {
        idTag,
        ...(body.connectorId !== undefined ? { connectorId: body.connectorId } : {}),
        ...(chargingProfile ? { chargingProfile } : {}),
      };
      const a = await ask(point.serialNumber, 'RemoteStartTransaction', payload);
      return answer(ctx, a, { idTag, connectorId: body.connectorId ?? null, chargingProfileId: body.chargingProfileId ?? null });
    },
    async remoteStop({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      const tx = await repo.transaction(point.id, body.transactionId);
      if (!tx) throw notFound();
      if (tx.stoppedAt) throw conflict('errors.pointAction.notRunning', { id: body.transactionId }, 'transactionId');
      audit.operand = `point:${point.serialNumber}:transaction:${tx.id}`;
      const a = await ask(point.serialNumber, 'RemoteStopTransaction', { transactionId: tx.id });
      return answer(ctx, a, { transactionId: tx.id });
    },
    async reset({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      const payload = { type: body.type, ...(body.connectorId !== undefined ? { connectorId: body.connectorId } : {}) };
      return answer(ctx, await ask(point.serialNumber, 'Reset', payload), {});
    },
    async unlock({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      return answer(ctx, await ask(point.serialNumber, 'UnlockConnector', { connectorId: body.connectorId }), {});
    },
    async changeAvailability({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      const a = await ask(point.serialNumber, 'ChangeAvailability', {
        connectorId: body.connectorId,
        type: body.type,
        ...(body.plug !== undefined ? { plug: body.plug } : {}),
      });
      return answer(ctx, a, {});
    },
    async clearCache({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      return answer(ctx, await ask(point.serialNumber, 'ClearCache', {}), {});
    },
    async sendLocalList({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      // Differential (the changes since the point's version) when it is in step, else Full; the operator may choose.
      const r = await localLists.send(point, body.updateType);
      return answer(ctx, r.answer, { listVersion: r.listVersion, updateType: r.updateType, entries: r.entries, state: r.state });
    },
    async getLocalListVersion({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      // OCPP 1.6 §5.10: -1 means the charger does not support local lists, 0 that it holds none.
      const a = await ask(point.serialNumber, 'GetLocalListVersion', {}, (p) => {
        const v = num(p.listVersion);
        return v === null ? undefined : v < 0 ? 'NotSupported' : 'Accepted';
      });
      const version = num(a.payload?.listVersion);
      if (a.chargerStatus === 'NotSupported' && a.payload) a.messageKey = 'errors.pointAction.localListUnsupported';
      // The answer is compared with the server's record: a point that holds another version gets Full next.
      const state = version !== null ? await localLists.chargerVersion(point.id, version) : await localLists.state(point.id);
      return answer(ctx, a, { listVersion: version !== null && version >= 0 ? version : null, state });
    },
    async triggerMessage({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      const payload = {
        requestedMessage: body.requestedMessage,
        ...(body.connectorId !== undefined ? { connectorId: body.connectorId } : {}),
      };
      return answer(ctx, await ask(point.serialNumber, 'TriggerMessage', payload), {});
    },
    async transactionStatus({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      // A session is named to the charger by its own transactionId (2.0.1); one it never gave (a 1.6 session) by ours.
      let transactionId: string | undefined;
      if (body.transactionId !== undefined) {
        const tx = await repo.transaction(point.id, body.transactionId);
        if (!tx) throw notFound();
        audit.operand = `point:${point.serialNumber}:transaction:${tx.id}`;
        transactionId = tx.ocppTxId ?? String(tx.id);
      }
      // The answer has no status word: one carrying messagesInQueue (required) is an answer.
      const a = await ask(point.serialNumber, 'GetTransactionStatus', transactionId === undefined ? {} : { transactionId }, (p) =>
        typeof p.messagesInQueue === 'boolean' ? 'Accepted' : undefined,
      );
      const p = a.payload ?? {};
      return answer(ctx, a, {
        transactionId: body.transactionId ?? null,
        ongoing: transactionId !== undefined && typeof p.ongoingIndicator === 'boolean' ? p.ongoingIndicator : null,
        messagesInQueue: typeof p.messagesInQueue === 'boolean' ? p.messagesInQueue : null,
      });
    },
    async dataTransfer({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      const a = await ask(point.serialNumber, 'DataTransfer', { vendorId: body.vendorId, messageId: body.messageId, data: body.data });
      return answer(ctx, a, { data: str(a.payload?.data) });
    },
    async getCompositeSchedule({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      const a = await ask(point.serialNumber, 'GetCompositeSchedule', {
        connectorId: body.connectorId,
        duration: body.duration,
        ...(body.chargingRateUnit ? { chargingRateUnit: body.chargingRateUnit } : {}),
      });
      const p = a.payload ?? {};
      return answer(ctx, a, {
        connectorId: num(p.connectorId),
        scheduleStart: str(p.scheduleStart),
        chargingSchedule: schedule(p.chargingSchedule),
      });
    },
    async getConfiguration({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      // GetConfiguration.conf has no status: an answer at all is the acceptance.
      const a = await ask(point.serialNumber, 'GetConfiguration', body.key?.length ? { key: body.key } : {}, () => 'Accepted');
      const p = a.payload ?? {};
      const keys: ConfigurationKey[] = (Array.isArray(p.configurationKey) ? p.configurationKey.map(record) : [])
        .filter((k) => typeof k.key === 'string')
        .map((k) => ({ key: k.key as string, readonly: k.readonly === true, value: str(k.value) }));
      const unknown = Array.isArray(p.unknownKey) ? p.unknownKey.filter((k): k is string => typeof k === 'string') : [];
      return answer(ctx, a, { configurationKey: keys, unknownKey: unknown });
    },
    async deviceModel({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      // The answer is the report assembled (the charger's GetBaseReport status told as an error when not Accepted).
      const a = await ask(point.serialNumber, 'GetBaseReport', {}, () => 'Accepted');
      const items = Array.isArray(a.payload?.items) ? (a.payload.items as DeviceModelItem[]) : [];
      return answer(ctx, a, { items });
    },
    async sendKey({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      const key = generateOcppKey();
      const hash = hashOcppKey(key);
      // Stored before it is sent, beside the key the charger has: whatever happens next, one of the two opens.
      const begun = await repo.beginKeyChange(point.id, hash);
      if ('refused' in begun) {
        if (begun.refused === 'noKey') throw conflict('errors.pointAction.keyNone', { serial: point.serialNumber });
        throw conflict('errors.pointAction.keyPending', { time: wallClock(begun.since, begun.timeZone) });
      }
      // 1.6 ChangeConfiguration AuthorizationKey; a 2.0.1 charger gets SetVariables SecurityCtrlr.BasicAuthPassword.
      const a = await ask(point.serialNumber, 'ChangeConfiguration', { key: 'AuthorizationKey', value: key });
      // Not delivered (offline) or answered with anything but taking it: the charger keeps its key, and so do we.
      // No answer (a timeout, a bus failure, a reply without a status): it may have it; both keys open until it connects with the new one.
      const refused =
        a.status === 'offline' || (a.chargerStatus !== null && a.chargerStatus !== 'Accepted' && a.chargerStatus !== 'RebootRequired');
      if (refused) {
        await repo.undoKeyChange(point.id, hash);
        if (a.status !== 'offline') Object.assign(a, { messageKey: 'errors.pointAction.keyRefused', params: { status: a.chargerStatus } });
        return answer(ctx, a, { keySentTime: null });
      }
      a.messageKey =
        a.chargerStatus === 'Accepted'
          ? 'errors.pointAction.keySent'
          : a.chargerStatus === 'RebootRequired'
            ? 'errors.pointAction.keySentReboot'
            : 'errors.pointAction.keyUnanswered';
      a.params = {};
      return answer(ctx, a, { keySentTime: begun.sentAt.toISOString() });
    },
    async setNetworkProfile({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      const slot = body.configurationSlot;
      audit.operand = `point:${point.serialNumber}:slot:${slot}`;
      // A charger told to reach us over TLS that we do not listen on could not come back.
      if (body.securityProfile === 2 && !tls) throw badField('securityProfile', 'errors.pointAction.noTls');
      const stored = await ask(point.serialNumber, 'SetNetworkProfile', {
        configurationSlot: slot,
        connectionData: {
          ocppVersion: 'OCPP20',
          ocppTransport: 'JSON',
          ocppCsmsUrl: body.ocppCsmsUrl,
          messageTimeout: body.messageTimeout,
          securityProfile: body.securityProfile,
          ocppInterface: body.ocppInterface,
        },
      });
      if (stored.status !== 'accepted' || !body.activate) return answer(ctx, stored, { configurationSlot: slot, activated: false });
      // First in its order, the others after it as they were (it falls back to them if the new one fails, B10).
      const read = await ask(point.serialNumber, 'GetConfiguration', { key: [PRIORITY] }, () => 'Accepted');
      const current = (Array.isArray(read.payload?.configurationKey) ? read.payload.configurationKey.map(record) : [])
        .map((k) => str(k.value) ?? '')
        .join(',');
      const order = [String(slot), ...current.split(',').map((s) => s.trim())].filter((s, i, all) => s !== '' && all.indexOf(s) === i);
      const first = await ask(point.serialNumber, 'ChangeConfiguration', { key: PRIORITY, value: order.join(',') });
      if (first.status !== 'accepted' && first.status !== 'rebootRequired') {
        const why = first.chargerStatus ?? translate(ctx.lang, `enums.actionStatus.${first.status}`);
        return answer(
          ctx,
          { ...first, messageKey: 'errors.pointAction.networkProfileNotFirst', params: { slot, status: why } },
          {
            configurationSlot: slot,
            activated: false,
          },
        );
      }
      const reset = await ask(point.serialNumber, 'Reset', { type: 'Soft' });
      const restarts = reset.status === 'accepted' || reset.status === 'scheduled';
      const why = reset.chargerStatus ?? translate(ctx.lang, `enums.actionStatus.${reset.status}`);
      return answer(
        ctx,
        restarts
          ? { ...reset, messageKey: 'errors.pointAction.networkProfileActive', params: { slot } }
          : { ...reset, messageKey: 'errors.pointAction.networkProfileNoRestart', params: { slot, status: why } },
        { configurationSlot: slot, activated: restarts },
      );
    },
    async changeConfiguration({ body, ctx, audit }) {
      const point = await target(ctx, body.serialNumber, audit);
      audit.operand = `point:${point.serialNumber}:${body.key}`;
      const a = await ask(point.serialNumber, 'ChangeConfiguration', { key: body.key, value: body.value });
      return answer(ctx, a, { key: body.key });
    },
    async changeConfigurationMany({ body, ctx, audit }) {
      const points = await repo.points(ctx.principal, body.serialNumbers);
      // One point outside the caller's scope and nothing is sent, as for a single point.
      if (points.length !== body.serialNumbers.length) throw notFound();
      audit.operand = `points:${points.length}:${body.changes.map((c) => c.key).join(',')}`.slice(0, 255);
      const results: PointConfigAnswer[] = new Array(points.length);
      // Ten chargers asked at a time, each next one as soon as one answers: a large fleet is quick
      // without a storm, and a charger that never answers holds up one lane, not a batch.
      let next = 0;
      const lane = async () => {
        for (let i = next++; i < points.length; i = next++) {
          const pt = points[i]!;
          // All the keys at once: one SetVariables for a 2.0.1 charger, a ChangeConfiguration each for a 1.6 one.
          const a = await ask(pt.serialNumber, 'ChangeConfigurations', { changes: body.changes }, (p) =>
            Array.isArray(p.results) ? 'Accepted' : undefined,
          );
          const replies = Array.isArray(a.payload?.results) ? (a.payload.results as { key: string; reply: ChargerReply }[]) : null;
          // No answer at all (offline, refused): the same for every key.
          const keys = body.changes.map(({ key }, k) => ({ key, ...words(ctx, replies?.[k] ? interpret(replies[k].reply) : a) }));
          const taken = (s: string) => s === 'accepted' || s === 'rebootRequired';
          const first = keys.find((k) => !taken(k.status));
          const whole = first ?? keys.find((k) => k.status === 'rebootRequired') ?? keys[0]!;
          results[i] = { ...pt, status: whole.status, chargerStatus: whole.chargerStatus, message: whole.message, keys };
        }
      };
      await Promise.all(Array.from({ length: Math.min(BULK_PARALLEL, points.length) }, lane));
      return { changes: body.changes, results };
    },
    async localListState({ query, ctx }) {
      const point = await repo.point(ctx.principal, query.serialNumber);
      if (!point) throw notFound();
      return localLists.state(point.id);
    },
    async idTagOptions({ query, ctx }) {
      const point = await repo.point(ctx.principal, query.serialNumber);
      if (!point) throw notFound();
      return repo.idTagOptions(point.providerId, query.keyword || undefined);
    },
    async profileOptions({ query, ctx }) {
      const point = await repo.point(ctx.principal, query.serialNumber);
      if (!point) throw notFound();
      return profiles.remoteStartOptions(ctx.principal, point.providerId);
    },
  });
}
