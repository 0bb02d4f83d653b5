/**
 * The words beside "this runtime" (runtime-model/): whether a side agrees, and its gap to the
 * PyTorch column named item by item. Generated from the itemised gap, never written per
 * experiment, so a sentence cannot outlive the numbers it describes.
 */
import { formatMiB } from '../../base/bytes';
import type { GapCause, GapItem, ItemisedGap } from '../../lab/runtime-model/runtime-gap';
import { CLOSE_WITHIN, formatRatio, printedRatio } from './agreement-words';

/** What the page says of a modelled side. */
export type RuntimeVerdict = 'agrees' | 'close' | 'apart';

/**
 * Whether the named items explain the gap between "this runtime" and PyTorch's peak: what is
 * left after them is within `CLOSE_WITHIN` of PyTorch's peak.
 */
export function gapExplained(gap: ItemisedGap, pytorchBytes: number): boolean {
  const rest = gap.items.find((item) => item.cause === 'rest')?.bytes ?? 0;
  return Math.abs(rest) <= CLOSE_WITHIN * pytorchBytes;
}

/**
 * "agrees" only when measured is within `CLOSE_WITHIN` of "this runtime" and the named items
 * explain its gap to PyTorch; "close" when measured is within but the gap is not explained;
 * "apart" otherwise (the model misses something the run held).
 */
export function runtimeVerdict(measuredBytes: number, gap: ItemisedGap, pytorchBytes: number): RuntimeVerdict {
  // Judged as printed, like ratioVerdict.
  const ratio = printedRatio(measuredBytes / gap.runtime.peakBytes);
  if (!(ratio >= 1 - CLOSE_WITHIN && ratio <= 1 + CLOSE_WITHIN)) return 'apart';
  return gapExplained(gap, pytorchBytes) ? 'agrees' : 'close';
}

/** Each cause of the gap, as a line under the table. */
export const GAP_ITEM_WORDS: Readonly<Record<GapCause, string>> = {
  'second-gradient-set':
    'a second gradient set: the lab’s graphs add gradients out of place (acc_out = acc_in + g; the pipeline’s accumulate graph, sum = a + b), so both sets exist at once, where PyTorch’s .grad += adds in place',
  'size-classes':
    'size classes: each runtime buffer is rounded up to one of its sizes, and freed buffers stay cached until the session is released',
  'reuse-after-flush': 'freed buffers reused only after a flush (every 16 kernels, at a read-back and at the end of a run)',
  'examples-and-labels':
    'the lab’s own exact-size buffers: every micro-batch’s examples and labels, placed before the first step',
  rest: 'not itemised: how the lab’s graphs differ from PyTorch’s step (what one graph keeps to its end, gradients read back to the host)',
};

/** A signed size, e.g. "+0.27 MB" or "−0.14 MB". */
function signedMiB(bytes: number): string {
  return `${bytes < 0 ? '−' : '+'}${formatMiB(Math.abs(bytes))}`;
}

/** One line per item of the gap that holds any bytes, e.g. "+0.27 MB: a second gradient set: …". */
export function gapLines(items: readonly GapItem[]): string[] {
  return items.filter((item) => item.bytes !== 0).map((item) => `${signedMiB(item.bytes)}: ${GAP_ITEM_WORDS[item.cause]}`);
}

/** The sentence for one modelled side. */
export function describeRuntimeSide(label: string, measuredBytes: number, gap: ItemisedGap, pytorchBytes: number): string {
  const ratio = formatRatio(measuredBytes / gap.runtime.peakBytes);
  const difference = `${signedMiB(gap.runtime.peakBytes - pytorchBytes)} over PyTorch on CUDA`;
  switch (runtimeVerdict(measuredBytes, gap, pytorchBytes)) {
    case 'agrees':
      return `${label}: measured agrees with this runtime (${ratio}); its ${difference} is named below.`;
    case 'close':
      return `${label}: measured is within ${Math.round(CLOSE_WITHIN * 100)}% of this runtime (${ratio}), but of its ${difference} the named items leave more than ${Math.round(CLOSE_WITHIN * 100)}% of PyTorch’s peak unexplained, so it does not count as agreement.`;
    case 'apart':
      return `${label}: measured is ${ratio} of this runtime, more than ${Math.round(CLOSE_WITHIN * 100)}% off: at these sizes the model misses something the run held.`;
  }
}

/**
 * The sentence for a modelled side that no recorded trace checks (`runtimeUnchecked`: mixed
 * precision, which the software adapter the traces come from cannot run): the figures, marked as
 * predicted, not yet checked against a trace, and never a verdict, so never "agrees".
 */
export function describeUncheckedRuntimeSide(
  label: string,
  measuredBytes: number,
  gap: ItemisedGap,
  pytorchBytes: number,
): string {
  const ratio = formatRatio(measuredBytes / gap.runtime.peakBytes);
  const difference = `${signedMiB(gap.runtime.peakBytes - pytorchBytes)} over PyTorch on CUDA`;
  return `${label}: this runtime is ${UNCHECKED_WORDS} (no recording with 16-bit shaders has tested its rules), so measured at ${ratio} of it is not called agreement; its ${difference} is named below.`;
}

/** How an unchecked "this runtime" figure is labelled, in its cell and its sentence. */
export const UNCHECKED_WORDS = 'predicted, not yet checked against a trace';
