import type { Strings } from './strings.js';
import type { priceZh } from './price.js';

/** English of ./price.ts, in a file of its own so that a console showing one language fetches only that one. */
export const priceEn: Strings<typeof priceZh> = {
  fields: {
    price: {
      stationId: 'Station',
      stationName: 'Station',
      groupId: 'User group',
      groupName: 'User group',
      timeZone: 'Time zone',
      currentId: 'Current version',
      effectiveFrom: 'Effective from',
      upcomingFrom: 'Next version from',
      versionCount: 'Versions',
      sharpElec: 'Sharp electricity fee ($/kWh)',
      sharpService: 'Sharp service fee ($/kWh)',
      peakElec: 'Peak electricity fee ($/kWh)',
      peakService: 'Peak service fee ($/kWh)',
      flatElec: 'Flat electricity fee ($/kWh)',
      flatService: 'Flat service fee ($/kWh)',
      valleyElec: 'Valley electricity fee ($/kWh)',
      valleyService: 'Valley service fee ($/kWh)',
      reserveFeeCents: 'Reservation fee ($ per reservation)',
      slots: 'Time slots',
      billedCount: 'Sessions billed',
      used: 'Used',
      createdByName: 'Created by',
      confirmPast: 'Confirm effect in the past',
    },
  },
  enums: {
    priceTier: { sharp: 'Sharp', peak: 'Peak', flat: 'Flat', valley: 'Valley' },
  },
  exportSource: {},
  operation: {},
  errors: {
    price: {
      versionUsed: 'The version effective from {time} has billed {count} sessions and cannot be removed',
      billedAfter:
        'Sessions at this station are billed up to {time} (station time); a version cannot take effect before then. Choose a later time or now',
      sameTime: 'This price already has a version effective from {time}',
      groupProvider: 'User group "{group}" and station "{station}" belong to different providers',
      confirmPast:
        'This version takes effect in the past ({time}, station time): it re-prices {sessions} unbilled sessions (${current} now, ${next} with it). Confirm to save it',
      savedPast:
        'Saved, as confirmed, a version effective from {time} (station time): {sessions} unbilled sessions re-priced (${current} before, ${next} now)',
    },
  },
  validation: {
    unitPrice: '{field} must be between 0 and 100 with at most 4 decimals',
    reserveFee: '{field} must be between 0 and 1000 with at most 2 decimals',
    priceSlots: '{field} must be the 48 half hours of the day, each with a tier',
  },
};
