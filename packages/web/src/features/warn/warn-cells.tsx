import type { ForecastDayDto, WarningDto, WarningLevel, WarningSource, WarningState } from '@csms/contract';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export const levelColor: Record<WarningLevel, string> = { low: 'gold', medium: 'orange', high: 'red' };
const stateColor: Record<WarningState, string> = { active: 'red', ended: 'default', past: 'default' };

/** An active warning as a tag coloured by its level: "Heat 07-21" with the value and threshold on hover. */
export function WarningTag({ w, withDay = true }: { w: WarningDto; withDay?: boolean }) {
  const { t } = useTranslation();
  const label = `${t(`enums.warningKind.${w.kind}`)}${withDay ? ` ${w.day.slice(5)}` : ''}`;
  const detail = [
    `${t(`enums.warningLevel.${w.level}`)} · ${t(`enums.warningSource.${w.source}`)}`,
    w.value !== null && w.threshold !== null ? t('warn.crossed', { value: w.value, threshold: w.threshold }) : null,
    w.note,
  ]
    .filter(Boolean)
    .join(' — ');
  return (
    <Tooltip title={detail}>
      <Tag color={levelColor[w.level]} data-warning={`${w.kind}:${w.day}`} data-level={w.level}>
        {label}
      </Tag>
    </Tooltip>
  );
}

export function WarningTags({ warnings }: { warnings: WarningDto[] }) {
  const { t } = useTranslation();
  if (warnings.length === 0) return <Typography.Text type="secondary">{t('warn.noWarnings')}</Typography.Text>;
  return (
    <Flex wrap gap={4}>
      {warnings.map((w) => (
        <WarningTag key={w.id} w={w} />
      ))}
    </Flex>
  );
}

/** A symbol for the WMO code's group, beside its words (the words carry the meaning; the symbol helps the eye). */
function symbolOf(code: number | null): string {
  if (code === null) return '·';
  if (code === 0 || code === 1) return '☀';
  if (code === 2) return '⛅';
  if (code === 3 || code === 45 || code === 48) return '☁';
  if (code >= 71 && code <= 77) return '❄';
  if (code === 85 || code === 86) return '❄';
  if (code >= 95) return '⛈';
  return '☂';
}

const num = (v: number | null) => (v === null ? '–' : String(v));

/** One day of the forecast: its weather in words, max/min temperature, rain and wind. */
export function ForecastDay({ d }: { d: ForecastDayDto }) {
  const { t, i18n } = useTranslation();
  const words =
    d.weatherCode === null
      ? ''
      : i18n.exists(`enums.weatherCode.${d.weatherCode}`)
        ? t(`enums.weatherCode.${d.weatherCode}`)
        : String(d.weatherCode);
  return (
    <div data-day={d.day} style={{ minWidth: 118, lineHeight: 1.5 }}>
      <Typography.Text type="secondary">{d.day.slice(5)}</Typography.Text> <span aria-hidden>{symbolOf(d.weatherCode)}</span>{' '}
      <Typography.Text>{words}</Typography.Text>
      <div>{t('warn.temperatures', { max: num(d.tempMaxC), min: num(d.tempMinC) })}</div>
      <div>
        <Typography.Text type="secondary">{t('warn.rainWind', { rain: num(d.precipitationMm), wind: num(d.windMaxKmh) })}</Typography.Text>
      </div>
    </div>
  );
}

export function ForecastDays({ days }: { days: ForecastDayDto[] }) {
  const { t } = useTranslation();
  if (days.length === 0) return <Typography.Text type="secondary">{t('warn.noForecast')}</Typography.Text>;
  return (
    <Flex gap={16}>
      {days.map((d) => (
        <ForecastDay key={d.day} d={d} />
      ))}
    </Flex>
  );
}

export function LevelTag({ level }: { level: WarningLevel }) {
  const { t } = useTranslation();
  return <Tag color={levelColor[level]}>{t(`enums.warningLevel.${level}`)}</Tag>;
}

export function StateTag({ state }: { state: WarningState }) {
  const { t } = useTranslation();
  return (
    <Tag color={stateColor[state]} data-state={state}>
      {t(`enums.warningState.${state}`)}
    </Tag>
  );
}

export function SourceText({ source }: { source: WarningSource }) {
  const { t } = useTranslation();
  return <>{t(`enums.warningSource.${source}`)}</>;
}
