/**
 * DataTransfer handlers by vendorId. A charger's DataTransfer for a vendor nobody registered is
 * answered `UnknownVendorId` (OCPP 1.6 §4.3); every one is kept in the OCPP log either way.
 */
export interface DataTransferRequest {
  serialNumber: string;
  chargePointId: number;
  providerId: number;
  messageId?: string;
  data?: string;
}

export interface DataTransferAnswer {
  status: 'Accepted' | 'Rejected' | 'UnknownMessageId' | 'UnknownVendorId';
  data?: string;
}

export type DataTransferHandler = (req: DataTransferRequest) => DataTransferAnswer | Promise<DataTransferAnswer>;

export function createVendorRegistry() {
  const handlers = new Map<string, DataTransferHandler>();
  return {
    /** Registers the handler of one vendorId; returns the function that removes it. */
    register(vendorId: string, handler: DataTransferHandler): () => void {
      if (handlers.has(vendorId)) throw new Error(`a DataTransfer handler for ${vendorId} is already registered`);
      handlers.set(vendorId, handler);
      return () => {
        if (handlers.get(vendorId) === handler) handlers.delete(vendorId);
      };
    },
    get(vendorId: string): DataTransferHandler | undefined {
      return handlers.get(vendorId);
    },
  };
}

export type VendorRegistry = ReturnType<typeof createVendorRegistry>;
