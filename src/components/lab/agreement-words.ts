import { AGREEMENT_RATIO } from '../../lab/results/agreement';
import type { MemoryKind } from '../../lab/measure/measured-memory';
import { LAB_EN, type LabMessages } from '../../i18n/messages/lab/en';

/**
 * How far measured may sit from predicted, as a share of the prediction, for the page to call
 * them close. Close is not agreement: the prediction is what PyTorch would hold on CUDA (the
 * engine), and onnxruntime-web holds things it has no line for while not holding some it counts,
 * so a ratio near 1 can be two errors that offset (gradient checkpointing reads each backward's
 * gradients back to the host, which happens to cancel the runtime's extras). Agreement needs a
 * prediction of this runtime, itemised (runtime-words.ts); these words, for sides without one,
 * never say "agree".
 *
 * The runtime's rules, from the native WebGPU provider's buffer manager at the version the lab
 * loads (onnxruntime v1.30.0, `onnxruntime/core/providers/webgpu/buffer_manager.cc`): storage
 * buffers come from `BucketCacheManager`, whose `BUCKET_DEFAULT_LIMIT_TABLE` has size classes
 * from 64 B to 160 MiB, 1.14× to 4× apart (sizes outside it round up to 16 B); a released
 * buffer waits in `pending_buffers_` until `OnRefresh`, which runs at the next flush, and only
 * then can another tensor reuse it. `WebGpuContext` flushes every 16 kernel dispatches
 * (`max_num_pending_dispatches_`, webgpu_context.h), at a download and at the end of a run. The WebAssembly
 * heap grows in steps of about a fifth of its size (see `AGREEMENT_RATIO`).
 */
export const CLOSE_WITHIN = 0.1;

/** What a measured / predicted ratio is called. */
export type RatioVerdict = 'close' | 'above' | 'below' | 'outside';

/**
 * Which words describe `measured / predicted` for this kind of measurement. Judged on the ratio
 * as the table prints it (`formatRatio`), so a cell reading "1.10×" is never called more than
 * 10% off.
 */
export function ratioVerdict(kind: MemoryKind, exactRatio: number): RatioVerdict {
  const ratio = printedRatio(exactRatio);
  if (ratio >= 1 - CLOSE_WITHIN && ratio <= 1 + CLOSE_WITHIN) return 'close';
  const { min, max } = AGREEMENT_RATIO[kind];
  if (ratio < min || ratio > max) return 'outside';
  return ratio > 1 ? 'above' : 'below';
}

/** `measured / predicted`, or null when there is no prediction to divide by. */
export function measuredOverPredicted(measured: number, predicted: number): number | null {
  return predicted > 0 && Number.isFinite(measured) ? measured / predicted : null;
}

/** A ratio rounded as the table prints it (two decimals), so that words judge what the reader sees. */
export function printedRatio(ratio: number): number {
  return Number(ratio.toFixed(2));
}

/** A ratio as the table prints it, e.g. "1.92×"; a dash when there is none. */
export function formatRatio(ratio: number | null): string {
  return ratio === null ? '—' : `${ratio.toFixed(2)}×`;
}

/** One compared side: its label and measured / predicted. */
export interface ComparedSide {
  readonly label: string;
  readonly ratio: number | null;
  /**
   * Whether the side adds gradients out of place (`acc_out = acc_in + g`, the pipeline's
   * accumulate graph): two full gradient sets exist at once, where PyTorch's `.grad +=` adds in place.
   */
  readonly outOfPlaceGradients?: boolean;
}

/**
 * The sentences under a results table: each side's measured / predicted, grouped by what it is
 * called, e.g. "Measured is above the prediction for fp32 (1.46×) and 16-bit (1.66×), …", with
 * the causes largest first, in `words`' language.
 */
export function describeAgreement(
  kind: MemoryKind,
  sides: readonly ComparedSide[],
  words: LabMessages['agreement'] = LAB_EN.agreement,
): string {
  const range = { ...AGREEMENT_RATIO[kind], closePercent: Math.round(CLOSE_WITHIN * 100) };
  const groups = new Map<RatioVerdict, { labels: string[]; outOfPlace: string[] }>();
  for (const { label, ratio, outOfPlaceGradients } of sides) {
    if (ratio === null) continue;
    const verdict = ratioVerdict(kind, ratio);
    const group = groups.get(verdict) ?? { labels: [], outOfPlace: [] };
    group.labels.push(words.side(label, formatRatio(ratio)));
    if (outOfPlaceGradients) group.outOfPlace.push(label);
    groups.set(verdict, group);
  }
  return [...groups]
    .map(([verdict, { labels, outOfPlace }]) =>
      words.verdicts[verdict](words.list(labels), kind, range, words.webGpuExtras(outOfPlace, words.list(outOfPlace))),
    )
    .join(' ');
}
