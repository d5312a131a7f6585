import { actionStatusOf, type ActionStatus } from '@csms/contract';
import type { ChargerBus, ChargerReply } from '../../bus/bus.js';

/** The charger's answer in the console's vocabulary, before translation (the route translates `messageKey`). */
export interface Answer {
  status: ActionStatus;
  chargerStatus: string | null;
  messageKey: string | null;
  params: Record<string, unknown>;
  /** The CALLRESULT payload; null when the charger did not answer with one. */
  payload: Record<string, unknown> | null;
}

/** Charger status words whose meaning the vocabulary status alone does not carry. */
const explained: Record<string, string> = {
  UnknownVendorId: 'errors.pointAction.unknownVendorId',
  UnknownMessageId: 'errors.pointAction.unknownMessageId',
  UnlockFailed: 'errors.pointAction.unlockFailed',
};

const callErrorStatus: Record<string, ActionStatus> = { NotImplemented: 'notImplemented', NotSupported: 'notSupported' };

/**
 * A bus reply in the vocabulary of DESIGN.md §6: offline → offline; timeout → failed with why;
 * CALLERROR NotImplemented / NotSupported → notImplemented / notSupported, any other → failed
 * with the charger's code and description; a CALLRESULT → its `status` word (`statusOf` for
 * replies that carry none, e.g. GetConfiguration).
 */
export function interpret(reply: ChargerReply, statusOf: (payload: Record<string, unknown>) => unknown = (x) => x.status): Answer {
  switch (reply.kind) {
    case 'offline':
      return { status: 'offline', chargerStatus: null, messageKey: 'errors.pointAction.offline', params: {}, payload: null };
    case 'timeout':
      return { status: 'failed', chargerStatus: null, messageKey: 'errors.pointAction.timeout', params: {}, payload: null };
    case 'error':
      return {
        status: callErrorStatus[reply.code] ?? 'failed',
        chargerStatus: reply.code,
        messageKey: reply.messageKey ?? 'errors.pointAction.callError',
        params: reply.messageKey
          ? (reply.params ?? {})
          : { code: reply.code, description: reply.description ? ` - ${reply.description}` : '' },
        payload: null,
      };
    case 'result': {
      const word = statusOf(reply.payload);
      if (typeof word !== 'string') {
        return { status: 'failed', chargerStatus: null, messageKey: 'errors.pointAction.invalidReply', params: {}, payload: reply.payload };
      }
      return { status: actionStatusOf(word), chargerStatus: word, messageKey: explained[word] ?? null, params: {}, payload: reply.payload };
    }
  }
}

/** Sends OCPP commands over the bus; a failing bus (not the charger) is an answer too: failed, service exception. */
export function createCommandSender({
  bus,
  timeoutMs,
  onError,
}: {
  bus: Pick<ChargerBus, 'request'>;
  timeoutMs?: number;
  onError: (err: unknown) => void;
}) {
  return async function ask(
    serialNumber: string,
    action: string,
    payload: Record<string, unknown>,
    statusOf?: (payload: Record<string, unknown>) => unknown,
  ): Promise<Answer> {
    let reply: ChargerReply;
    try {
      reply = await bus.request(serialNumber, { action, payload, ...(timeoutMs ? { timeoutMs } : {}) });
    } catch (err) {
      onError(err);
      return { status: 'failed', chargerStatus: null, messageKey: 'errors.pointAction.sendFailed', params: {}, payload: null };
    }
    return interpret(reply, statusOf);
  };
}

export type CommandSender = ReturnType<typeof createCommandSender>;
