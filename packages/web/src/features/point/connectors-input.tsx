import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { connectorTypes, MAX_CONNECTORS, type ConnectorInput } from '@csms/contract';
import { Button, Flex, Input, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ConnectorIcon } from '../../shared/icons/connectors';
import { DictSelect } from '../../shared/resource/inputs';

export interface ConnectorsInputProps {
  value?: ConnectorInput[];
  onChange?: (value: ConnectorInput[]) => void;
  disabled?: boolean;
}

/** The first connector of a new point. */
export const firstConnector: ConnectorInput = { connectorNo: 1, standard: 'ac', type: 'Type2' };

/**
 * A point's connectors edited in place: one row each (number, name, standard, type with its
 * icon). Numbers follow the rows, 1…n, as OCPP connector ids must.
 */
export function ConnectorsInput({ value, onChange, disabled }: ConnectorsInputProps) {
  const { t } = useTranslation();
  const rows = value ?? [];
  const emit = (next: ConnectorInput[]) => onChange?.(next.map((c, i) => ({ ...c, connectorNo: i + 1 })));
  const patch = (i: number, change: Partial<ConnectorInput>) => emit(rows.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const add = () => {
    const last = rows[rows.length - 1] ?? firstConnector;
    emit([...rows, { connectorNo: rows.length + 1, standard: last.standard, type: last.type }]);
  };
  const typeOptions = connectorTypes.map((type) => ({
    value: type,
    label: (
      <Flex align="center" gap={6}>
        <ConnectorIcon type={type} size={18} />
        {t(`enums.connectorType.${type}`)}
      </Flex>
    ),
    search: t(`enums.connectorType.${type}`),
  }));
  return (
    <Flex vertical gap={8} data-testid="connectors-input">
      {rows.map((c, i) => (
        <Flex key={i} gap={8} align="center" data-testid={`connector-row-${i + 1}`}>
          <Tag style={{ minWidth: 36, textAlign: 'center', marginInlineEnd: 0 }}>{`#${c.connectorNo}`}</Tag>
          <Input
            style={{ flex: 2 }}
            disabled={disabled}
            value={c.connectorName ?? ''}
            placeholder={t('point.connectorPlaceholder', { n: c.connectorNo })}
            aria-label={t('fields.point.connectorName')}
            onChange={(e) => patch(i, { connectorName: e.target.value })}
          />
          <DictSelect
            dict="connectorStandard"
            style={{ flex: 1.2 }}
            disabled={disabled}
            allowClear={false}
            value={c.standard}
            aria-label={t('fields.point.standard')}
            onChange={(standard: ConnectorInput['standard']) => patch(i, { standard })}
          />
          <Select
            style={{ flex: 1.6 }}
            disabled={disabled}
            value={c.type}
            options={typeOptions}
            showSearch={{ optionFilterProp: 'search' }}
            aria-label={t('fields.point.type')}
            onChange={(type: ConnectorInput['type']) => patch(i, { type })}
          />
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            disabled={disabled || rows.length <= 1}
            aria-label={t('point.removeConnector')}
            onClick={() => emit(rows.filter((_, j) => j !== i))}
          />
        </Flex>
      ))}
      <Button type="dashed" icon={<PlusOutlined />} disabled={disabled || rows.length >= MAX_CONNECTORS} onClick={add}>
        {t('point.addConnector')}
      </Button>
    </Flex>
  );
}
