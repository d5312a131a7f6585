import { hasKey, translate, type Lang } from '@csms/contract';

/** Formatting at the export edge (CONVENTIONS §9): stored units in, what a spreadsheet reader expects out. */

/** Cents as currency units, two decimals. */
export const dollars = (cents: number | null) => (cents === null ? null : Number((cents / 100).toFixed(2)));

/** Wh as kWh, three decimals. */
export const kwh = (wh: number | null) => (wh === null ? null : Number((wh / 1000).toFixed(3)));

/** Seconds as H:MM:SS. */
export const hms = (sec: number | null) =>
  sec === null
    ? null
    : `${Math.floor(sec / 3600)}:${String(Math.floor((sec % 3600) / 60)).padStart(2, '0')}:${String(sec % 60).padStart(2, '0')}`;

/** An enum value in the caller's words; a value the vocabulary does not know (a charger's own code) stays as it came. */
export const enumLabel = (lang: Lang, kind: string, value: string | null) =>
  value === null ? null : hasKey(lang, `enums.${kind}.${value}`) ? translate(lang, `enums.${kind}.${value}`) : value;
