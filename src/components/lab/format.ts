/** Lab models are small: MiB (2^20 bytes) reads best. */
export const MiB = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
