/** A duration as the suite's lines print it: `12.3 s`. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
