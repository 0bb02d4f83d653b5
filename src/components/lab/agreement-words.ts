import { AGREEMENT_RATIO } from '../../lab/results/agreement';
import type { MemoryKind } from '../../lab/measure/measured-memory';

/**
 * How far measured may sit from predicted, as a share of the prediction, for the page to say
 * they "agree". The one-sentence defence the page gives: within a tenth, the gap is smaller than
 * what the allocator's rounding alone can add, so the formula accounts for what was allocated.
 * The rounding: onnxruntime-web 1.30 puts every GPU buffer up to 160 MiB in a size bucket
 * (`bucketFreelist` and `calcBucketBufferSize` in lib/wasm/jsep/webgpu/gpu-data-manager.ts,
 * buckets 2× to 4× apart), and the WebAssembly heap grows in steps of about a fifth of its size
 * (see `AGREEMENT_RATIO`). Wider gaps inside the backend's usual range (0.8–2× on WebGPU, 0.5–2×
 * on the WebAssembly heap) are named by what causes them, never called agreement.
 */
export const AGREES_WITHIN = 0.1;

/** What a measured / predicted ratio is called. */
export type RatioVerdict = 'agrees' | 'above' | 'below' | 'outside';

/** Which words describe `measured / predicted` for this kind of measurement. */
export function ratioVerdict(kind: MemoryKind, ratio: number): RatioVerdict {
  if (ratio >= 1 - AGREES_WITHIN && ratio <= 1 + AGREES_WITHIN) return 'agrees';
  const { min, max } = AGREEMENT_RATIO[kind];
  if (ratio < min || ratio > max) return 'outside';
  return ratio > 1 ? 'above' : 'below';
}

/** `measured / predicted`, or null when there is no prediction to divide by. */
export function measuredOverPredicted(measured: number, predicted: number): number | null {
  return predicted > 0 && Number.isFinite(measured) ? measured / predicted : null;
}

/** A ratio as the table prints it, e.g. "1.92×"; a dash when there is none. */
export function formatRatio(ratio: number | null): string {
  return ratio === null ? '—' : `${ratio.toFixed(2)}×`;
}

/** One compared side: its label and measured / predicted. */
export interface ComparedSide {
  readonly label: string;
  readonly ratio: number | null;
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** What each verdict says, for a list of sides ("fp32 at 1.46×"). */
const VERDICT_WORDS: Record<RatioVerdict, (sides: string, kind: MemoryKind) => string> = {
  agrees: (sides) =>
    `Measured and predicted agree for ${sides}: within ${percent(AGREES_WITHIN)}, less than the allocator’s rounding alone can add.`,
  above: (sides, kind) =>
    kind === 'wasm-heap'
      ? `Measured is above the prediction for ${sides}: the WebAssembly heap only grows, in steps of about a fifth of its size, and holds the runtime's own arena. That is the usual overhead of this backend (up to ${AGREEMENT_RATIO[kind].max}×), not agreement.`
      : `Measured is above the prediction for ${sides}: onnxruntime-web rounds buffers up to size buckets, keeps freed ones cached (reserved, like torch.cuda.memory_reserved()) and holds temporaries the formula has no line for. That is the usual overhead of this backend (up to ${AGREEMENT_RATIO[kind].max}×), not agreement.`,
  below: (sides, kind) =>
    `Measured is below the prediction for ${sides}: the runtime reused buffers that the formula counts separately. That is within this backend's usual range (down to ${AGREEMENT_RATIO[kind].min}×), not agreement.`,
  outside: (sides, kind) =>
    `Measured and predicted differ for ${sides} by more than this backend usually shows (${AGREEMENT_RATIO[kind].min}–${AGREEMENT_RATIO[kind].max}×); the lesson explains where such gaps come from.`,
};

/**
 * The sentence under a results table: each side's measured / predicted, grouped by what it is
 * called, e.g. "Measured is above the prediction for fp32 (1.46×) and 16-bit (1.66×): …".
 */
export function describeAgreement(kind: MemoryKind, sides: readonly ComparedSide[]): string {
  const groups = new Map<RatioVerdict, string[]>();
  for (const { label, ratio } of sides) {
    if (ratio === null) continue;
    const verdict = ratioVerdict(kind, ratio);
    groups.set(verdict, [...(groups.get(verdict) ?? []), `${label} (${formatRatio(ratio)})`]);
  }
  return [...groups].map(([verdict, labels]) => VERDICT_WORDS[verdict](joinWords(labels), kind)).join(' ');
}

/** "a", "a and b", "a, b and c". */
function joinWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
