import { commonApi } from '@csms/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Form, Typography, type FormInstance } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { call } from '../../shared/api/client';
import { useAuth } from '../../shared/auth/useAuth';
import { FormPage } from '../../shared/resource/FormPage';
import { STATION_SCREEN, stationResource } from './station.resource';

/** Leaflet comes with the map, only where tiles are configured. */
const MapPicker = lazy(() => import('./map-picker').then((m) => ({ default: m.MapPicker })));

/** The spec's "Location/Station new and edit pages": the station form, with a map when tiles are configured. */
export default function StationFormPage() {
  const { id } = useParams();
  const { info } = useAuth();
  const tiles = useQuery({
    queryKey: [commonApi.configKey.path, 'map.tileUrl'],
    queryFn: () => call(commonApi.configKey, { params: { key: 'map.tileUrl' } }, { silent: true }),
    staleTime: Infinity,
  });
  const providerId = info?.providerId;
  const initialValues = useMemo(() => ({ providerId, isPublic: true, status: 'operating', amenities: [] }), [providerId]);
  const template = tiles.data;
  return (
    <FormPage
      key={id ?? 'new'}
      resource={stationResource}
      id={id}
      backTo={STATION_SCREEN}
      initialValues={initialValues}
      aside={template ? (f) => <StationMap form={f.form} template={template} /> : undefined}
    />
  );
}

/** The map beside the form: shows the typed coordinates, and a click fills them in. */
function StationMap({ form, template }: { form: FormInstance; template: string }) {
  const { t } = useTranslation();
  const lon = Form.useWatch('longitude', form) as unknown;
  const lat = Form.useWatch('latitude', form) as unknown;
  const value = typeof lon === 'number' && typeof lat === 'number' ? { lon, lat } : undefined;
  return (
    <Card size="small" title={t('station.mapTitle')} style={{ position: 'sticky', top: 16 }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('station.mapHint')}
      </Typography.Paragraph>
      <Suspense fallback={<div style={{ height: 340, borderRadius: 8, background: '#f0f2f5' }} />}>
        <MapPicker
          template={template}
          value={value}
          onPick={(longitude, latitude) => {
            form.setFieldsValue({ longitude, latitude });
            void form.validateFields(['longitude', 'latitude']).catch(() => undefined);
          }}
        />
      </Suspense>
    </Card>
  );
}
