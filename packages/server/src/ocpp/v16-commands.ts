import type { ChargerReply } from '../bus/bus.js';
import type { Payload } from './rpc.js';
import type { ChargerSession } from './session.js';

/**
 * The console's commands that only OCPP 2.0.1 has (they reach a 2.0.1 charger through `v201Command`): the
 * message a 1.6 charger would be sent, or undefined when it has one.
 */
function only201(action: string, payload: Payload): string | undefined {
  if (action === 'GetTransactionStatus' || action === 'GetBaseReport') return action;
  if (action === 'Reset' && payload.connectorId !== undefined) return 'Reset of one EVSE';
  if (action === 'TriggerMessage' && payload.requestedMessage === 'TransactionEvent') return 'TransactionEvent';
  return undefined;
}

/** Sends a console command to a 1.6 charger; one 1.6 does not have is refused in the user's language, and nothing is sent. */
export function v16Command(session: ChargerSession, action: string, payload: Payload, timeoutMs?: number): Promise<ChargerReply> {
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
