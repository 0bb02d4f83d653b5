import { AGREEMENT_RATIO } from '../../lab/results/agreement';
import type { MemoryKind } from '../../lab/measure/measured-memory';

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

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** The causes of a WebGPU reading above the prediction, largest first, naming the out-of-place sides. */
function webGpuExtras(outOfPlace: readonly string[]): string {
  const secondSet =
    outOfPlace.length > 0
      ? ` ${joinWords(outOfPlace)} ${outOfPlace.length > 1 ? 'add' : 'adds'} gradients out of place (acc_out = acc_in + g), so two full gradient sets exist at once, where PyTorch's .grad += adds in place.`
      : '';
  return `onnxruntime-web reuses a freed buffer only after its next flush (every 16 kernels, at a read-back and at the end of a run), so what a step frees stays allocated beside what it allocates until then.${secondSet} Last and smallest, it rounds each buffer up to a size class.`;
}

/** What each verdict says, for a list of sides ("fp32 (1.46×)") and those of them that add gradients out of place. */
const VERDICT_WORDS: Record<RatioVerdict, (sides: string, kind: MemoryKind, outOfPlace: readonly string[]) => string> = {
  close: (sides, kind, outOfPlace) =>
    `Measured is within ${percent(CLOSE_WITHIN)} of the prediction for ${sides}. That is not agreement: the prediction is PyTorch's on CUDA, and ${
      kind === 'wasm-heap'
        ? 'the WebAssembly heap grows in coarse steps and holds the runtime’s own arena.'
        : `this runtime's extras can offset lines it does not hold. ${webGpuExtras(outOfPlace)}`
    }`,
  above: (sides, kind, outOfPlace) =>
    kind === 'wasm-heap'
      ? `Measured is above the prediction for ${sides}: the WebAssembly heap only grows, in steps of about a fifth of its size, and holds the runtime's own arena. That is the usual overhead of this backend (up to ${AGREEMENT_RATIO[kind].max}×), not agreement.`
      : `Measured is above the prediction for ${sides}, within this backend's usual range (up to ${AGREEMENT_RATIO[kind].max}×), not agreement. ${webGpuExtras(outOfPlace)}`,
  below: (sides, kind) =>
    `Measured is below the prediction for ${sides}: the runtime reused buffers that the formula counts separately, or does not hold lines it counts. That is within this backend's usual range (down to ${AGREEMENT_RATIO[kind].min}×), not agreement.`,
  outside: (sides, kind) =>
    `Measured and predicted differ for ${sides} by more than this backend usually shows (${AGREEMENT_RATIO[kind].min}–${AGREEMENT_RATIO[kind].max}×); How the lab measures, linked below, explains where such gaps come from.`,
};

/**
 * The sentences under a results table: each side's measured / predicted, grouped by what it is
 * called, e.g. "Measured is above the prediction for fp32 (1.46×) and 16-bit (1.66×), …", with
 * the causes largest first.
 */
export function describeAgreement(kind: MemoryKind, sides: readonly ComparedSide[]): string {
  const groups = new Map<RatioVerdict, { labels: string[]; outOfPlace: string[] }>();
  for (const { label, ratio, outOfPlaceGradients } of sides) {
    if (ratio === null) continue;
    const verdict = ratioVerdict(kind, ratio);
    const group = groups.get(verdict) ?? { labels: [], outOfPlace: [] };
    group.labels.push(`${label} (${formatRatio(ratio)})`);
    if (outOfPlaceGradients) group.outOfPlace.push(label);
    groups.set(verdict, group);
  }
  return [...groups]
    .map(([verdict, { labels, outOfPlace }]) => VERDICT_WORDS[verdict](joinWords(labels), kind, outOfPlace))
    .join(' ');
}

/** "a", "a and b", "a, b and c". */
function joinWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
