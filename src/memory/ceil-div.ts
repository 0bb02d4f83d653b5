/** Integer division rounded up, for shares of parameters, layers and elements split across GPUs. */

/** Integer division rounded up; both operands are non-negative integers, `divisor` ≥ 1. */
export function ceilDiv(dividend: number, divisor: number): number {
  return Math.ceil(dividend / divisor);
}
