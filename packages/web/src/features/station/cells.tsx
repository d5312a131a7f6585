import { countryName } from '@csms/contract';
import { Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

const lang = (language: string) => (language.startsWith('zh') ? 'zh' : 'en');

/** A country code as its name in the UI language. */
export function CountryName({ code }: { code: string }) {
  const { i18n } = useTranslation();
  return <>{code ? countryName(code, lang(i18n.language)) : ''}</>;
}

/** The station's name; the auto-registration station carries a tag. */
export function StationName({ name, unassigned }: { name: string; unassigned: boolean }) {
  const { t } = useTranslation();
  if (!unassigned) return <>{name}</>;
  return (
    <Space size={4}>
      {name}
      <Tooltip title={t('station.unassignedHint')}>
        <Tag color="orange">{t('station.unassigned')}</Tag>
      </Tooltip>
    </Space>
  );
}

/** Watts shown as kilowatts (the column's label names the unit). */
export function Kw({ w }: { w: number | null | undefined }) {
  const { i18n } = useTranslation();
  if (w === null || w === undefined) return null;
  return <>{(w / 1000).toLocaleString(i18n.language, { maximumFractionDigits: 3 })}</>;
}

/** `08:00 – 22:00`, or nothing when the station is always open. */
export function OpeningHours({ start, end }: { start: string | null; end: string | null }) {
  return <>{start && end ? `${start} – ${end}` : ''}</>;
}
