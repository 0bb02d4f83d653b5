/**
 * The keys that say how a tool lays out its batches: packing documents into rows of the sequence length, or flattening
 * a batch's real tokens into one padding-free row (memory batching.ts). Each tool's reader names its own keys.
 */
import { reason } from './reasons.ts';
import type { KeyReader } from './key-reader.ts';

/** A packing switch (`packing`, `sample_packing`, `dataset.packed`): true packs rows of the sequence length, false pads. */
export function readPackingKey(r: KeyReader, key: string, source: string): boolean | undefined {
  const packing = r.bool(key);
  if (packing !== undefined) r.set(key, 'batching', packing ? 'packed' : 'padded', source);
  return packing;
}

/**
 * TRL's `packing` and `padding_free`. TRL turns padding-free on with its default `bfd` packing (sft_trainer.py:1143), but
 * the rows it flattens are packed rows of `max_length` tokens, which the engine counts as `packed`: packing wins.
 */
export function readTrlBatching(r: KeyReader, p: string, source: string): void {
  const packingKey = `${p}packing`;
  const paddingFreeKey = `${p}padding_free`;
  const packing = r.bool(packingKey);
  const paddingFree = r.bool(paddingFreeKey);
  if (packing === true) {
    r.set(packingKey, 'batching', 'packed', source);
    if (paddingFree !== undefined) r.noEffect(paddingFreeKey, reason('packedCounted'), source);
  } else if (paddingFree === true) {
    r.set(paddingFreeKey, 'batching', 'padding-free', source);
    if (packing === false) r.noEffect(packingKey, reason('paddingFreeInstead'), source);
  } else {
    if (packing === false) r.set(packingKey, 'batching', 'padded', source);
    if (paddingFree === false) r.noEffect(paddingFreeKey, reason('paddedBatch'), source);
  }
}
