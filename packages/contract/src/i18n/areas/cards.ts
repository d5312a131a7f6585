import type { AreaVocabulary, Strings } from './strings.js';

/** Charge users, RFID cards, user groups, cars and recharge records. */
export const cardsZh = {
  fields: {},
  enums: {},
  exportSource: {},
  operation: {},
  errors: {},
  validation: {},
} satisfies AreaVocabulary;

export const cardsEn: Strings<typeof cardsZh> = {
  fields: {},
  enums: {},
  exportSource: {},
  operation: {},
  errors: {},
  validation: {},
};
