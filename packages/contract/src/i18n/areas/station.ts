import type { AreaVocabulary, Strings } from './strings.js';

/** Stations, charge points and connectors. */
export const stationZh = {
  fields: {},
  enums: {},
  exportSource: {},
  operation: {},
  errors: {},
  validation: {},
} satisfies AreaVocabulary;

export const stationEn: Strings<typeof stationZh> = {
  fields: {},
  enums: {},
  exportSource: {},
  operation: {},
  errors: {},
  validation: {},
};
