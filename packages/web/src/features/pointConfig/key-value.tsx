import { ocppKeyInfo, ocppKeys, ocppValueProblem, splitCsl, translateWith } from '@csms/contract';
import { AutoComplete, Input, Select, Typography } from 'antd';
import type { RuleObject } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { vocabularyLookup } from '../../i18n';
import { useCataloguePart } from '../../i18n/parts';

/** The keys the Central System may change, for the key picker of a change on many points. */
const WRITABLE = Object.entries(ocppKeys)
  .filter(([, info]) => info.access !== 'R')
  .map(([key]) => key);

/** The keys' meanings are a catalogue part, fetched with this screen: true once they are here. */
export const useKeyMeanings = () => useCataloguePart('ocppKeys');

/** A known key's meaning in words (undefined for a vendor's key, or before the meanings are loaded). */
export function keyMeaning(t: TFunction, key: string, loaded: boolean): string | undefined {
  return loaded && ocppKeyInfo(key) ? t(`ocppKeys.meaning.${key}`) : undefined;
}

/** A known key's unit in words, or undefined. */
export function keyUnit(t: TFunction, key: string, loaded: boolean): string | undefined {
  const unit = ocppKeyInfo(key)?.unit;
  return loaded && unit ? t(`ocppKeys.units.${unit}`) : undefined;
}

/** What a key takes that its input does not show: an integer's range and unit, the items of a per-connector list. */
function keyAccepts(t: TFunction, key: string): string | undefined {
  const info = ocppKeyInfo(key);
  // A boolean's and a list's values are the input's own options.
  if (!info || info.type === 'boolean' || (info.type === 'csl' && !info.perConnector)) return undefined;
  if (info.values) return info.values.join(', ');
  if (info.type === 'integer') {
    const unit = keyUnit(t, key, true);
    return `${info.min ?? 0}–${info.max ?? '∞'}${unit ? ` ${unit}` : ''}`;
  }
  return undefined;
}

/** The key's meaning, profile, unit and accepted values, under its name in a dialog. */
export function KeyHelp({ name }: { name: string }) {
  const { t } = useTranslation();
  const loaded = useKeyMeanings();
  const info = ocppKeyInfo(name);
  if (!loaded) return null;
  if (!info) return name ? <Typography.Text type="secondary">{t('ocppLog.config.vendorKey')}</Typography.Text> : null;
  const accepts = keyAccepts(t, name);
  return (
    <Typography.Paragraph type="secondary" data-testid="key-help" style={{ marginBottom: 12 }}>
      {t(`ocppKeys.meaning.${name}`)}
      <br />
      {t('ocppLog.config.profile', { profile: t(`ocppKeys.profiles.${info.profile}`) })}
      {accepts && (
        <>
          <br />
          {t('ocppLog.config.accepts', { values: accepts })}
        </>
      )}
    </Typography.Paragraph>
  );
}

/** The form rule of a value: the contract's check of the key (the server applies the same one), in the console's language. */
export function valueRule(key: string | undefined): RuleObject {
  return {
    validator: async (_, value: string | undefined) => {
      const problem = key ? ocppValueProblem(key, value ?? '') : null;
      if (problem) throw new Error(translateWith(vocabularyLookup(), problem.message, problem.params));
    },
  };
}

/**
 * A value input that fits the key: true/false for a boolean, the measurands (or other listed
 * items) to pick for a list, free text otherwise (an integer's range is in the key's help).
 */
export function KeyValueInput({
  name,
  value,
  onChange,
  id,
}: {
  name: string | undefined;
  value?: string;
  onChange?: (v: string) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const info = name ? ocppKeyInfo(name) : undefined;
  if (info?.type === 'boolean')
    return (
      <Select id={id} value={value || undefined} onChange={onChange} options={['true', 'false'].map((v) => ({ value: v, label: v }))} />
    );
  if (info?.type === 'csl' && info.values && !info.perConnector)
    return (
      <Select
        id={id}
        mode="multiple"
        allowClear
        value={splitCsl(value ?? '')}
        onChange={(items: string[]) => onChange?.(items.join(','))}
        options={info.values.map((v) => ({ value: v, label: v }))}
        placeholder={t('ocppLog.config.listPlaceholder')}
      />
    );
  return <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value)} />;
}

/** A key: any the charger may have, the writable OCPP keys offered as you type. */
export function KeyNameInput({ value, onChange, id }: { value?: string; onChange?: (v: string) => void; id?: string }) {
  const { t } = useTranslation();
  const typed = (value ?? '').toLowerCase();
  return (
    <AutoComplete
      id={id}
      value={value}
      onChange={onChange}
      placeholder={t('ocppLog.config.keyPlaceholder')}
      options={WRITABLE.filter((k) => k.toLowerCase().includes(typed)).map((k) => ({ value: k, label: k }))}
      data-testid="bulk-key"
    />
  );
}
