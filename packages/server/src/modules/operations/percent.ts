/** Half-up to the cent of `cents × percent / 100` (non-negative amounts). */
export const percentOf = (cents: number, percent: number) => Math.floor((cents * percent + 50) / 100);
