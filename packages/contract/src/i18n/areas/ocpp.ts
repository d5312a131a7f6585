import type { AreaVocabulary, Strings } from './strings.js';

/** The OCPP central system: statuses, operator actions and their answers, the OCPP log. */
export const ocppZh = {
  fields: {},
  enums: {},
  exportSource: {},
  operation: {},
  errors: {},
  validation: {},
} satisfies AreaVocabulary;

export const ocppEn: Strings<typeof ocppZh> = {
  fields: {},
  enums: {},
  exportSource: {},
  operation: {},
  errors: {},
  validation: {},
};
