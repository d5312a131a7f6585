/**
 * The command bus between the API and whichever node holds a charger's socket (DESIGN.md §1).
 * An operator action is a request on the charger's subject; the node that holds the socket
 * serves it and answers with the charger's reply. No server for a subject means offline.
 * This is the in-process implementation, for one node; `nats.ts` has the one for several.
 */

export interface ChargerCommand {
  /** OCPP action, e.g. `RemoteStartTransaction`. */
  action: string;
  payload: Record<string, unknown>;
  /** How long to wait for the charger's answer. */
  timeoutMs?: number;
}

export type ChargerReply =
  /** The charger's CALLRESULT payload. */
  | { kind: 'result'; payload: Record<string, unknown> }
  /** The charger's CALLERROR. */
  | {
      kind: 'error';
      code: string;
      description: string;
      details?: unknown;
      /** A refusal decided by the server, not the charger: said in the user's language by this catalogue key. */
      messageKey?: string;
      params?: Record<string, string>;
    }
  /** No node holds a socket to this charger. */
  | { kind: 'offline' }
  /** The charger did not answer in time. */
  | { kind: 'timeout' };

export type CommandHandler = (command: ChargerCommand) => Promise<ChargerReply>;

export interface ChargerBus {
  /** Called by the node that holds the charger's socket; returns the function that stops serving. */
  serve(serialNumber: string, handler: CommandHandler): () => void;
  /** Sends a command to the charger wherever it is connected. */
  request(serialNumber: string, command: ChargerCommand): Promise<ChargerReply>;
  /** Whether some node serves this charger. */
  isServed(serialNumber: string): Promise<boolean>;
  close(): Promise<void>;
}

export function createInProcessBus(): ChargerBus {
  const handlers = new Map<string, CommandHandler>();
  return {
    serve(serialNumber, handler) {
      handlers.set(serialNumber, handler);
      return () => {
        if (handlers.get(serialNumber) === handler) handlers.delete(serialNumber);
      };
    },
    async request(serialNumber, command) {
      const handler = handlers.get(serialNumber);
      if (!handler) return { kind: 'offline' };
      return handler(command);
    },
    async isServed(serialNumber) {
      return handlers.has(serialNumber);
    },
    async close() {
      handlers.clear();
    },
  };
}
