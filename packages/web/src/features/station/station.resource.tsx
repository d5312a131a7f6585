import { PictureOutlined } from '@ant-design/icons';
import { type StationDto, stationApi } from '@csms/contract';
import i18n from 'i18next';
import { downloadZip } from '../../shared/api/download';
import { storedFileName } from '../../shared/upload/rules';
import { defineResource } from '../../shared/resource/types';
import { CountryName, Kw, OpeningHours, StationName } from './cells';
import { AmenitiesInput, TimeInput } from './inputs';
import { countryOptions, providerOptions, timeZoneOptions } from './options';

/** The screen of stations and points (spec §2 `/configurationManagement/stationManagement`). */
export const STATION_SCREEN = '/configurationManagement/stationManagement';
/** The spec's "Location/Station new and edit pages". */
export const STATION_NEW = `${STATION_SCREEN}/station/new`;
export const STATION_EDIT = `${STATION_SCREEN}/station/edit/:id`;
/** The points tab of the screen, filtered to one station. */
export const pointsOfStation = (id: number) => `${STATION_SCREEN}?tab=points&stationId=${id}`;

/** Stations (spec §3): location, opening hours, services, picture, status; point count and power derived. */
export const stationResource = defineResource({
  name: 'station',
  api: {
    list: stationApi.list,
    get: stationApi.get,
    add: stationApi.add,
    edit: stationApi.edit,
    remove: stationApi.remove,
    export: stationApi.export,
  },
  exportSource: 'station',
  texts: { createTitle: 'station.newTitle' },
  pages: { create: STATION_NEW, edit: (row) => STATION_EDIT.replace(':id', String(row.id)) },
  // The auto-registration station is edited like any other but never removed.
  rowRemovable: (row) => !row.isUnassigned,
  columns: [
    { key: 'id', width: 80, sorter: true, defaultHidden: true },
    {
      key: 'stationName',
      width: 200,
      sorter: true,
      render: (_, row: StationDto) => <StationName name={row.stationName} unassigned={row.isUnassigned} />,
    },
    { key: 'providerName', width: 150 },
    { key: 'country', width: 150, render: (v) => <CountryName code={String(v ?? '')} /> },
    { key: 'address', ellipsis: true },
    { key: 'status', dict: 'stationStatus', width: 110 },
    { key: 'pointCount', width: 100, sorter: true },
    { key: 'connectorCount', width: 100, sorter: true, defaultHidden: true },
    { key: 'totalPowerW', width: 130, sorter: true, render: (v) => <Kw w={v as number} /> },
    {
      key: 'openingStart',
      label: 'fields.station.openingTime',
      width: 130,
      render: (_, row: StationDto) => <OpeningHours start={row.openingStart} end={row.openingEnd} />,
    },
    { key: 'isPublic', dict: 'yesNo', width: 110, defaultHidden: true },
    { key: 'servicePhone', width: 150, defaultHidden: true },
    { key: 'amenities', dict: 'amenity', width: 200, defaultHidden: true },
    { key: 'timeZone', width: 150, defaultHidden: true },
    { key: 'longitude', width: 120, defaultHidden: true },
    { key: 'latitude', width: 120, defaultHidden: true },
    { key: 'picture', kind: 'image', width: 90, defaultHidden: true },
    { key: 'createTime', kind: 'datetime', width: 170, sorter: true },
  ],
  detailColumns: [
    { key: 'description', wide: true },
    { key: 'guide', wide: true },
  ],
  search: [
    { key: 'stationName', kind: 'text' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
    { key: 'status', kind: 'dict', dict: 'stationStatus' },
    { key: 'country', kind: 'select', remote: countryOptions },
  ],
  form: [
    { key: 'stationName', kind: 'text', section: 'station.sectionBasic' },
    { key: 'providerId', kind: 'select', remote: providerOptions },
    { key: 'status', kind: 'dict', dict: 'stationStatus' },
    { key: 'isPublic', kind: 'switch' },
    { key: 'country', kind: 'select', remote: countryOptions, section: 'station.sectionLocation' },
    { key: 'timeZone', kind: 'select', remote: timeZoneOptions, extra: () => 'station.timeZoneDefault' },
    { key: 'address', kind: 'text', span: 24 },
    { key: 'longitude', kind: 'number', props: { min: -180, max: 180, precision: 6, step: 0.0001 } },
    { key: 'latitude', kind: 'number', props: { min: -90, max: 90, precision: 6, step: 0.0001 } },
    {
      key: 'openingStart',
      kind: 'custom',
      section: 'station.sectionService',
      render: ({ t }) => <TimeInput placeholder={t('kit.selectPlaceholder', { field: t('fields.station.openingStart') })} />,
    },
    {
      key: 'openingEnd',
      kind: 'custom',
      render: ({ t }) => <TimeInput placeholder={t('kit.selectPlaceholder', { field: t('fields.station.openingEnd') })} />,
    },
    { key: 'servicePhone', kind: 'text' },
    {
      key: 'picture',
      kind: 'image',
      props: { limit: 1, fileSize: 2, fileType: ['jpg', 'png', 'gif'] },
      extra: () => 'station.pictureHint',
    },
    { key: 'amenities', kind: 'custom', span: 24, render: () => <AmenitiesInput /> },
    { key: 'description', kind: 'textarea', span: 24 },
    { key: 'guide', kind: 'textarea', span: 24 },
  ],
  // Spec §7's zip download: the selected stations' pictures in one archive (each file checked by the server).
  batchActions: [
    {
      key: 'downloadPictures',
      label: 'station.downloadPictures',
      icon: <PictureOutlined />,
      applies: (row) => Boolean(row.picture),
      onClick: (rows) => downloadZip([...new Set(rows.map((r) => storedFileName(r.picture!)))], i18n.t('station.picturesZip')),
    },
  ],
  rowActions: [
    {
      key: 'points',
      label: 'station.points',
      permi: ['config:point:list'],
      onClick: (row, ctx) => ctx.navigate(pointsOfStation(row.id)),
    },
  ],
});
