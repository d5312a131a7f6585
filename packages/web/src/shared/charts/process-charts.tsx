import type { ProcessSample } from '@csms/contract';
import { Card, Col, Empty, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { TrendChart, type ChartPoint } from './TrendChart';
import { formatKw } from '../format/units';
import { wallClock } from '../format/zone-time';

type Quantity = 'powerW' | 'soc' | 'temperatureC' | 'currentImportA' | 'currentOfferedA' | 'voltageV';

/** The curves of a session's process data, in this order; labels (with units) come from the vocabulary. */
export const QUANTITIES: { key: Quantity; format: (v: number) => string; step: number }[] = [
  { key: 'powerW', format: (v) => formatKw(v), step: 10 },
  { key: 'soc', format: (v) => String(Math.round(v)), step: 1 },
  { key: 'temperatureC', format: (v) => v.toFixed(1), step: 0.1 },
  { key: 'currentImportA', format: (v) => v.toFixed(1), step: 0.1 },
  { key: 'currentOfferedA', format: (v) => v.toFixed(1), step: 0.1 },
  { key: 'voltageV', format: (v) => v.toFixed(0), step: 1 },
];

/** One series: the samples that carry the quantity (a charger may send some measurands only). */
export function seriesOf(samples: ProcessSample[], key: Quantity): ChartPoint[] {
  return samples.flatMap((s) => {
    const v = s[key];
    return v === null ? [] : [{ x: Date.parse(s.at), y: v }];
  });
}

/** The time axis's text on the station's clock: the time of day, or month, day and minute when the session crosses midnight. */
export function processTimeFormat(samples: ProcessSample[], timeZone: string): (x: number) => string {
  const day = (at: string | number) => wallClock(new Date(at), timeZone).slice(0, 10);
  const multiDay = samples.length > 1 && day(samples[0]!.at) !== day(samples.at(-1)!.at);
  // `YYYY-MM-DD HH:mm:ss` cut to what differs.
  return (x) => (multiDay ? wallClock(new Date(x), timeZone).slice(5, 16) : wallClock(new Date(x), timeZone).slice(11));
}

/**
 * Six small charts over the session's time: power, SOC, connector temperature, import and output
 * current, output voltage; the time axis on the station's clock, like the record's times.
 */
export function ProcessCharts({ samples, timeZone }: { samples: ProcessSample[]; timeZone: string }) {
  const { t } = useTranslation();
  const formatX = processTimeFormat(samples, timeZone);
  return (
    <Row gutter={[16, 16]}>
      {QUANTITIES.map(({ key, format, step }) => {
        const label = t(`fields.chargeRecord.${key}`);
        const points = seriesOf(samples, key);
        return (
          <Col key={key} xs={24} xl={12}>
            <Card size="small" title={label} data-testid={`curve-${key}`}>
              {points.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chargeRecord.noSamples')} />
              ) : (
                <TrendChart points={points} height={180} label={label} formatX={formatX} formatY={format} xTicks={5} time yStep={step} />
              )}
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
