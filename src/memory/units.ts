/** Byte-unit constants and integer helpers shared by every formula. */

/** One kibibyte, 2^10 bytes. */
export const KiB = 1024;
/** One mebibyte, 2^20 bytes (nvidia-smi's "MiB"). */
export const MiB = 1024 * 1024;
/** One gibibyte, 2^30 bytes. */
export const GiB = 1024 * 1024 * 1024;
/** One gigabyte, 10^9 bytes (papers and datasheets). */
export const GB = 1e9;

/** Integer division rounded up; both operands are non-negative integers, `divisor` ≥ 1. */
export function ceilDiv(dividend: number, divisor: number): number {
  return Math.ceil(dividend / divisor);
}

/** Whether `bytes` is a size this engine may print: a safe, non-negative integer. */
export function isByteCount(bytes: number): boolean {
  return Number.isSafeInteger(bytes) && bytes >= 0;
}
