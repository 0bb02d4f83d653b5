/**
 * Byte units and the one way to print a size. It sits in src/base, the bottom layer, because the engine
 * (src/memory), the log readers (src/diagnose, which may not import the engine), the CLI, the islands, the
 * scripts and the tests all print sizes, and the same size must read the same everywhere.
 * Constants are upper case (KIB, MIB, GIB, GB) so that no formatter can share a name with them.
 */

/** One kibibyte, 2^10 bytes. */
export const KIB = 2 ** 10;
/** One mebibyte, 2^20 bytes (nvidia-smi's "MiB"). */
export const MIB = 2 ** 20;
/** One gibibyte, 2^30 bytes (what PyTorch and nvidia-smi print as GiB). */
export const GIB = 2 ** 30;
/** One gigabyte, 10^9 bytes (papers and datasheets). */
export const GB = 1e9;

/** Display unit, always printed after the number: KiB, MiB, GiB = 2^10, 2^20, 2^30 bytes; GB = 10^9 bytes. */
export type ByteUnit = 'KiB' | 'MiB' | 'GiB' | 'GB';

/** Bytes in one of each display unit. */
export const BYTES_IN_UNIT: Readonly<Record<ByteUnit, number>> = { KiB: KIB, MiB: MIB, GiB: GIB, GB };

/** Whether `bytes` is a size that may be printed as one: a safe, non-negative integer. */
export function isByteCount(bytes: number): boolean {
  return Number.isSafeInteger(bytes) && bytes >= 0;
}

/** `bytes` in `unit` with `digits` decimals and the unit named, unchecked: the formatters below decide what is valid. */
function inUnit(bytes: number, unit: ByteUnit, digits: number): string {
  return `${(bytes / BYTES_IN_UNIT[unit]).toFixed(digits)} ${unit}`;
}

/**
 * Format a byte count in the given unit with `digits` decimals (default 2), e.g. "12.55 GiB".
 * Non-integer, negative or non-finite input is a bug upstream and prints as "invalid".
 */
export function formatBytes(bytes: number, unit: ByteUnit, digits = 2): string {
  return isByteCount(bytes) ? inUnit(bytes, unit, digits) : 'invalid';
}

/** A byte count in GiB, e.g. "12.55 GiB" (see formatBytes). */
export const formatGiB = (bytes: number, digits = 2): string => formatBytes(bytes, 'GiB', digits);

/** A byte count in MiB, e.g. "3.25 MiB": the lab's models are a few MiB (see formatBytes). */
export const formatMiB = (bytes: number, digits = 2): string => formatBytes(bytes, 'MiB', digits);

/**
 * A size in the binary unit that reads best, as PyTorch's memory reports do: KiB below 1 MiB and MiB below 1 GiB with
 * one decimal, else GiB with two, e.g. "20.0 MiB". Sizes read from a user's file or computed from them (a difference
 * of two figures may be negative) print as they are, never as "invalid".
 */
export function formatBinarySize(bytes: number): string {
  if (Math.abs(bytes) < MIB) return inUnit(bytes, 'KiB', 1);
  if (Math.abs(bytes) < GIB) return inUnit(bytes, 'MiB', 1);
  return inUnit(bytes, 'GiB', 2);
}
