import { z } from 'zod';
import { crud, endpoint, idBody, optText } from '../endpoint.js';
import { pointStatuses } from './monitor.js';

export const equipmentTypes = ['ac', 'dc', 'acdc'] as const;
export const connectorStandards = ['ac', 'dc', 'combo'] as const;
/** Connector types the console shows as icons (spec §1). */
export const connectorTypes = ['CCS1', 'CCS2', 'CHAdeMO', 'GBT_AC', 'GBT_DC', 'SAE_J1772', 'Type2', 'SCHUKO'] as const;
export type ConnectorType = (typeof connectorTypes)[number];

/** The OCPP identity is a URL path segment: `/ocpp/{serialNumber}`. */
export const serialNumberPattern = /^[A-Za-z0-9._:-]{1,48}$/;
export const MAX_CONNECTORS = 32;
/** 5 MW: above any charger on the market, below integer overflow. */
export const MAX_RATED_POWER_W = 5_000_000;

export const connectorDto = z.object({
  connectorNo: z.number(),
  connectorName: z.string().nullable(),
  standard: z.enum(connectorStandards),
  type: z.enum(connectorTypes),
  /** The console's status (`pointStatusOf` of the OCPP status and the point's online flag). */
  status: z.enum(pointStatuses),
  /** OCPP ChargePointStatus as last notified; null until the charger says. */
  ocppStatus: z.string().nullable(),
  errorCode: z.string().nullable(),
  statusTime: z.string().nullable(),
});
export type ConnectorDto = z.infer<typeof connectorDto>;

export const pointDto = z.object({
  id: z.number(),
  serialNumber: z.string(),
  pointName: z.string(),
  stationId: z.number(),
  stationName: z.string(),
  providerId: z.number(),
  providerName: z.string(),
  equipmentType: z.enum(equipmentTypes),
  ratedPowerW: z.number(),
  softwareVersion: z.string().nullable(),
  connectorCount: z.number(),
  connectors: z.array(connectorDto),
  /** The point itself (connector 0), mapped by `pointStatusOf`. */
  status: z.enum(pointStatuses),
  online: z.boolean(),
  /** Auto-registered and still to be placed into a station by an operator. */
  needsPlacement: z.boolean(),
  enabled: z.boolean(),
  /** An OCPP key has been issued (the key itself is shown once, never stored). */
  hasKey: z.boolean(),
  /** A new key sent to the charger (sendKey) that it has not connected with yet, since when; its previous key still works. */
  keySentTime: z.string().nullable(),
  vendor: z.string().nullable(),
  model: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  /** The OCPP version its last connection spoke (`1.6`, `2.0.1`); null: never connected. */
  ocppVersion: z.string().nullable(),
  lastSeenTime: z.string().nullable(),
  createTime: z.string(),
});
export type PointDto = z.infer<typeof pointDto>;

/** A new key: its only appearance. The charger authenticates with HTTP Basic (serial number, key). */
export const pointKey = z.object({ id: z.number(), serialNumber: z.string(), ocppKey: z.string() });
export type PointKey = z.infer<typeof pointKey>;

export const connectorInput = z.object({
  connectorNo: z.number().int().min(1).max(MAX_CONNECTORS),
  connectorName: optText(50),
  standard: z.enum(connectorStandards),
  type: z.enum(connectorTypes),
});
export type ConnectorInput = z.infer<typeof connectorInput>;

/** Connectors are numbered 1…n, each number once (OCPP connector ids). */
const connectors = z
  .array(connectorInput)
  .min(1)
  .max(MAX_CONNECTORS)
  .superRefine((list, ctx) => {
    list.forEach((c, i) => {
      if (c.connectorNo > list.length || list.findIndex((o) => o.connectorNo === c.connectorNo) !== i) {
        ctx.addIssue({ code: 'custom', path: [i, 'connectorNo'], message: 'validation.connectorNumbering' });
      }
    });
  });

const pointFields = {
  serialNumber: z.string().trim().regex(serialNumberPattern),
  pointName: z.string().trim().min(1).max(100),
  equipmentType: z.enum(equipmentTypes),
  ratedPowerW: z.number().int().min(1).max(MAX_RATED_POWER_W),
  softwareVersion: optText(50),
  connectors,
};

export const pointCreate = z.object({ ...pointFields, stationId: z.number().int().positive() });
/** The station changes only through `move`. */
export const pointEdit = z.object({ id: z.number().int().positive(), ...pointFields });

export const pointFilter = z.object({
  serialNumber: optText(48),
  pointName: optText(100),
  stationId: z.coerce.number().int().positive().optional(),
  /** Points whose own status or one of whose connectors' status is this one. */
  status: z.enum(pointStatuses).optional(),
});

export const pointOption = pointDto
  .pick({
    id: true,
    serialNumber: true,
    pointName: true,
    stationId: true,
    stationName: true,
    providerId: true,
    model: true,
    firmwareVersion: true,
    ocppVersion: true,
  })
  .extend({
    connectors: z.array(connectorDto.pick({ connectorNo: true, connectorName: true, standard: true, type: true })),
  });
export type PointOption = z.infer<typeof pointOption>;

const resource = 'point';
const c = crud(resource, 'config:point');

/**
 * Charge points and their connectors; `/web/point/*` by convention (operator actions such as
 * `/web/point/reset` live in `api.pointAction`), the spec's `getPoints` and
 * `getStationNameByPoint` for pickers.
 */
export const pointApi = {
  list: c.list(pointFilter, pointDto),
  get: c.get(pointDto),
  add: c.add(pointCreate, pointDto.extend({ ocppKey: z.string() }), {
    summary: 'Creates the point and issues its OCPP key, returned in this reply only (the server keeps a salted hash)',
  }),
  edit: c.edit(pointEdit, pointDto),
  remove: c.remove(),
  export: c.export(pointFilter),
  move: c.action('move', idBody.extend({ stationId: z.number().int().positive() }), pointDto, {
    summary: 'Moves a point to another station of its provider; a point waiting for placement may go to any station the caller sees',
  }),
  newKey: c.action('newKey', idBody, pointKey, {
    access: c.permi('key'),
    summary: 'Issues a new OCPP key, returned in this reply only; the old key stops working',
  }),
  options: endpoint({
    method: 'POST',
    path: '/web/getPoints',
    access: 'session',
    resource,
    mutation: false,
    body: z.object({
      stationId: z.number().int().positive().optional(),
      serialNumber: optText(48),
      /** The model and the firmware version the charger reported at its last boot, exactly (a firmware upgrade's picker). */
      model: optText(50),
      firmwareVersion: optText(50),
    }),
    data: z.array(pointOption),
    summary: 'Points the caller can see, with their connectors, for pickers',
  }),
  stationOf: endpoint({
    method: 'GET',
    path: '/web/getStationNameByPoint',
    access: 'session',
    resource,
    query: z.object({ pointId: z.coerce.number().int().positive() }),
    data: z.object({ stationId: z.number(), stationName: z.string() }),
  }),
};
