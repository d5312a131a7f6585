/** The spec's minimum (§8), and the floor of any configured one. */
export const passwordMinLength = 5;
export const passwordMaxLength = 128;

export const passwordClasses = ['lower', 'upper', 'digit', 'symbol'] as const;
export type PasswordClass = (typeof passwordClasses)[number];
