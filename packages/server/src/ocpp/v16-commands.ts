import type { ChargerReply } from '../bus/bus.js';
import type { Payload } from './rpc.js';
import type { ChargerSession } from './session.js';

/**
 * The console's commands that only OCPP 2.0.1 has (they reach a 2.0.1 charger through `v201Command`): the
 * message a 1.6 charger would be sent, or undefined when it has one.
 */
function only201(action: string, payload: Payload): string | undefined {
  if (action === 'GetTransactionStatus' || action === 'GetBaseReport' || action === 'SetNetworkProfile') return action;
  if (action === 'Reset' && payload.connectorId !== undefined) return 'Reset of one EVSE';
  if (action === 'ChangeAvailability' && payload.plug !== undefined) return 'ChangeAvailability of one connector of an EVSE';
  if (action === 'TriggerMessage' && payload.requestedMessage === 'TransactionEvent') return 'TransactionEvent';
  return undefined;
}

/** A key of several not sent because the one before it got no answer. */
export const NOT_SENT: ChargerReply = {
  kind: 'error',
  code: 'GenericError',
  description: 'not sent: the change before it did not go through',
  messageKey: 'errors.pointAction.notSentAfterFailure',
};

/**
 * Several configuration keys at once (the console's `ChangeConfigurations`; 2.0.1 sends one SetVariables):
 * a ChangeConfiguration per key, one after the other, all within one time limit; after a key that got no
 * answer the rest are not sent. Answers `{ results: [{ key, reply }] }`, or offline when the first found the
 * charger gone.
 */
async function changeConfigurations(
  session: ChargerSession,
  changes: readonly { key: string; value: string }[],
  timeoutMs: number,
): Promise<ChargerReply> {
  const deadline = Date.now() + timeoutMs;
  const results: { key: string; reply: ChargerReply }[] = [];
  let failed = false;
  for (const { key, value } of changes) {
    const left = deadline - Date.now();
    const reply = failed || left <= 0 ? NOT_SENT : await session.call('ChangeConfiguration', { key, value }, left);
    if (results.length === 0 && reply.kind === 'offline') return reply;
    if (reply.kind !== 'result') failed = true;
    results.push({ key, reply });
  }
  return { kind: 'result', payload: { results } };
}

/** Sends a console command to a 1.6 charger; one 1.6 does not have is refused in the user's language, and nothing is sent. */
export function v16Command(session: ChargerSession, action: string, payload: Payload, timeoutMs?: number): Promise<ChargerReply> {
  if (action === 'ChangeConfigurations')
    return changeConfigurations(session, payload.changes as { key: string; value: string }[], timeoutMs ?? session.defaultTimeoutMs);
  const message = only201(action, payload);
  if (message === undefined) return session.call(action, payload, timeoutMs);
  return Promise.resolve({
    kind: 'error',
    code: 'NotSupported',
    description: `${message} is an OCPP 2.0.1 message`,
    messageKey: 'errors.pointAction.notInVersion',
    params: { version: '1.6' },
  });
}
