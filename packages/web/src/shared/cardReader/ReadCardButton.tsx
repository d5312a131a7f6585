import { CreditCardOutlined } from '@ant-design/icons';
import { Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../feedback';
import { CardReaderError, cardReaderMessageKey, readCardUid, type CardReaderErrorCode } from './client';

export interface ReadCardButtonProps {
  /** Called with the UID (hex, upper case) of the card on the reader. */
  onRead(uid: string): void;
  /** Called after the error toast, e.g. to mark the field. */
  onError?(code: CardReaderErrorCode): void;
  disabled?: boolean;
  size?: ButtonProps['size'];
  timeoutMs?: number;
  /** Companion port; by default the server's `csms.reader.port`. */
  port?: number;
  /** Translated text instead of "Read card" (e.g. "Find by reader"). */
  label?: string;
  testId?: string;
}

/** "Read card": asks the local card reader companion for the UID; toasts what went wrong. */
export function ReadCardButton({
  onRead,
  onError,
  disabled,
  size,
  timeoutMs,
  port,
  label,
  testId = 'read-card-button',
}: ReadCardButtonProps) {
  const { t } = useTranslation();
  const [reading, setReading] = useState(false);

  const read = async () => {
    setReading(true);
    try {
      onRead(await readCardUid({ timeoutMs, port }));
    } catch (err) {
      const code: CardReaderErrorCode = err instanceof CardReaderError ? err.code : 'notStarted';
      feedback.message.error({ content: t(cardReaderMessageKey(code)), duration: 5 });
      onError?.(code);
    } finally {
      setReading(false);
    }
  };

  return (
    <Button
      icon={<CreditCardOutlined />}
      loading={reading}
      disabled={disabled}
      size={size}
      onClick={() => void read()}
      data-testid={testId}
    >
      {reading ? t('cardReader.reading') : (label ?? t('cardReader.read'))}
    </Button>
  );
}
