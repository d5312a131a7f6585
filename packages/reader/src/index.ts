export {
  DEFAULT_PORT,
  DEFAULT_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  createSource,
  parseRequest,
  readerModes,
  startReaderServer,
  type ReaderMode,
  type ReaderReply,
  type ReaderRequest,
  type ReaderServer,
  type ReaderServerOptions,
  type SourceOptions,
} from './server.js';
export { isLoopbackHost, normaliseOrigin, originAllowed } from './origin.js';
export { normaliseUid, wedgeFormats, type WedgeFormat } from './uid.js';
export { checkUids, createSimulatedSource, parseUidList, type SimulatedOptions, type SimulatedSource } from './sources/simulated.js';
export { createKeyboardSource, type KeyboardOptions } from './sources/keyboard.js';
export { createPcscSource, loadNfcPcsc, type PcscModule, type PcscOptions, type PcscReader } from './sources/pcsc.js';
export type { CardSource, Log, ReadOutcome } from './sources/source.js';
