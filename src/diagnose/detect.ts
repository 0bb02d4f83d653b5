/** Tells which of the four inputs a file is, from its first bytes and a few telltale lines. */
import { looksLikeMemorySummary } from './memory-summary.ts';
import { looksLikeNvidiaSmi } from './nvidia-smi.ts';
import { looksLikeOomMessage } from './oom-message.ts';

/** The four kinds, as the CLI's JSON `kind` names them. */
export type InputKind = 'nvidia-smi' | 'oom-message' | 'memory-summary' | 'snapshot';

/** A pickle of protocol 2 or later starts with PROTO (0x80) and its version (pickletools). */
export function looksLikePickle(bytes: Uint8Array): boolean {
  return bytes[0] === 0x80 && (bytes[1] ?? 0) >= 2 && (bytes[1] ?? 0) <= 5;
}

/**
 * The kind of `bytes`, or null when it is none of the four. An OOM message wins over a memory_summary pasted with it
 * (the OOM reading takes the summary along), and both win over nvidia-smi text around them.
 */
export function detectKind(bytes: Uint8Array, text: () => string): InputKind | null {
  if (looksLikePickle(bytes)) return 'snapshot';
  const content = text();
  if (looksLikeOomMessage(content)) return 'oom-message';
  if (looksLikeMemorySummary(content)) return 'memory-summary';
  if (looksLikeNvidiaSmi(content)) return 'nvidia-smi';
  return null;
}
