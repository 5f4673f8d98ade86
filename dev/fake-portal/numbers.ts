// Rounding as the portal's pages print numbers.

export const round2 = (x: number): number => Math.round(x * 100) / 100;
export const round4 = (x: number): number => Math.round(x * 10000) / 10000;
/** The portal's percentages carry float noise (`-2.2960000000000003`); this reproduces some. */
export const noisyPct3 = (x: number): number => Math.round(x * 1000) * 0.001;
