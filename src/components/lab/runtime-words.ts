/**
 * The words beside "this runtime" (runtime-model/): whether a side agrees, and its gap to the
 * PyTorch column named item by item. Generated from the itemised gap, never written per
 * experiment, so a sentence cannot outlive the numbers it describes.
 */
import { formatMiB } from '../../base/bytes';
import type { GapItem, ItemisedGap } from '../../lab/runtime-model/runtime-gap';
import { CLOSE_WITHIN, formatRatio, printedRatio } from './agreement-words';
import { LAB_EN, type LabMessages } from '../../i18n/messages/lab/en';

/** The words beside "this runtime", in any language. */
type RuntimeWords = LabMessages['runtime'];

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

/** A signed size, e.g. "+0.27 MB" or "−0.14 MB". */
function signedMiB(bytes: number): string {
  return `${bytes < 0 ? '−' : '+'}${formatMiB(Math.abs(bytes))}`;
}

/** One line per item of the gap that holds any bytes, e.g. "+0.27 MB: a second gradient set: …". */
export function gapLines(items: readonly GapItem[], words: RuntimeWords = LAB_EN.runtime): string[] {
  return items.filter((item) => item.bytes !== 0).map((item) => words.gapLine(signedMiB(item.bytes), words.gapItems[item.cause]));
}

/** What a side's sentence quotes: measured over the runtime model's peak, and that peak's difference from PyTorch's. */
function sideFigures(measuredBytes: number, gap: ItemisedGap, pytorchBytes: number, words: RuntimeWords) {
  return {
    ratio: formatRatio(measuredBytes / gap.runtime.peakBytes),
    difference: words.difference(signedMiB(gap.runtime.peakBytes - pytorchBytes)),
  };
}

/** The sentence for one modelled side. */
export function describeRuntimeSide(
  label: string,
  measuredBytes: number,
  gap: ItemisedGap,
  pytorchBytes: number,
  words: RuntimeWords = LAB_EN.runtime,
): string {
  const { ratio, difference } = sideFigures(measuredBytes, gap, pytorchBytes, words);
  const percent = Math.round(CLOSE_WITHIN * 100);
  switch (runtimeVerdict(measuredBytes, gap, pytorchBytes)) {
    case 'agrees':
      return words.agrees(label, ratio, difference);
    case 'close':
      return words.close(label, ratio, difference, percent);
    case 'apart':
      return words.apart(label, ratio, percent);
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
  words: RuntimeWords = LAB_EN.runtime,
): string {
  const { ratio, difference } = sideFigures(measuredBytes, gap, pytorchBytes, words);
  return words.unchecked(label, ratio, difference, words.uncheckedWords);
}
