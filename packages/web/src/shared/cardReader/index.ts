export { CardReaderError, cardReaderMessageKey, readCardUid, type CardReaderErrorCode } from './client';
export { ReadCardButton, type ReadCardButtonProps } from './ReadCardButton';
