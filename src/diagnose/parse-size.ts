/**
 * Reads sizes as PyTorch and nvidia-smi print them; src/base/bytes.ts prints them. PyTorch's `format_size`
 * (c10/cuda/CUDACachingAllocator.cpp) and `_format_size` (torch/cuda/memory.py) use
 * KiB/MiB/GiB = 2^10/2^20/2^30 bytes; nvidia-smi's `MiB` is 2^20 bytes.
 */
import { GIB, KIB, MIB } from '../base/bytes.ts';

/** Bytes per unit name, the binary units these tools print (plus `B`/`bytes`). */
export const BYTES_PER_UNIT: Readonly<Record<string, number>> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kib: KIB,
  mib: MIB,
  gib: GIB,
  tib: 2 ** 40,
  pib: 2 ** 50,
};

/**
 * The same binary units under the names older printers used: `format_size` in PyTorch's MPS allocator
 * (aten/src/ATen/mps/MPSAllocator.h) prints KB/MB/GB for 2^10/2^20/2^30 bytes, and so did
 * `_format_size` in torch/cuda/memory.py before it switched to KiB/MiB/GiB (both divide by 1024).
 */
export const BYTES_PER_LEGACY_UNIT: Readonly<Record<string, number>> = {
  ...BYTES_PER_UNIT,
  kb: KIB,
  mb: MIB,
  gb: GIB,
  tb: 2 ** 40,
  pb: 2 ** 50,
};

/** Largest size any reader accepts: 1 PiB, far above any GPU, so an absurd value reads as unreadable, not as a number. */
export const MAX_PLAUSIBLE_BYTES = 2 ** 50;

/** A plain decimal number as these tools print it: digits, optionally a point and more digits (no locale separators). */
const PLAIN_NUMBER = /^\d{1,16}(?:\.\d{1,12})?$/;

/**
 * Reads `value` (e.g. "1.23") in `unit` (e.g. "GiB", looked up in `units`) as whole bytes, or null when either part
 * is not what PyTorch or nvidia-smi print (a locale's "1.234,5", a negative, an absurd size).
 */
export function sizeToBytes(
  value: string,
  unit: string,
  units: Readonly<Record<string, number>> = BYTES_PER_UNIT,
): number | null {
  const perUnit = units[unit.trim().toLowerCase()];
  const text = value.trim();
  if (perUnit === undefined || !PLAIN_NUMBER.test(text)) return null;
  const bytes = Math.round(Number(text) * perUnit);
  return Number.isSafeInteger(bytes) && bytes <= MAX_PLAUSIBLE_BYTES ? bytes : null;
}

/** Reads "1.23 GiB", "20.00 MiB", "512 bytes", "4096MiB" as whole bytes, or null. */
export function parseSize(text: string): number | null {
  const match = /^\s*([\d.,]+)\s*([A-Za-z]+)\s*$/.exec(text);
  return match ? sizeToBytes(match[1] ?? '', match[2] ?? '') : null;
}
