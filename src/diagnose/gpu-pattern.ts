/**
 * Classifies one GPU's memory curve from nvidia-smi as flat, a leak (climbing step by step), a
 * spike, or running near the limit, and keeps the numbers that decided it. nvidia-smi shows what
 * the driver handed out: with PyTorch that is the caching allocator's reserved memory plus the CUDA
 * context, which stays flat once a healthy loop has warmed up (PyTorch docs, "CUDA semantics:
 * memory management"), so a steady rise after warm-up is the signature of something kept alive.
 */
import { MIB } from '../base/bytes.ts';
import type { GpuSample } from './nvidia-smi.ts';

/**
 * The verdicts, as the CLI's JSON names them: four patterns over time, and `no-timeline` when there are too few
 * readings to see one (a pasted table is one reading: it shows a level, never a trend).
 */
export type GpuVerdict = 'flat' | 'leak' | 'spike' | 'near-limit' | 'no-timeline';

/**
 * Fewer readings than this show no pattern: warm-up is the first tenth, a leak needs three rises between windows, and a
 * spike is at most a tenth of the time, so the smallest log that can show any of them has about ten readings.
 */
export const MIN_TIMELINE_SAMPLES = 10;

/** Below this share of capacity the GPU counts as idle (before launch, after exit): 5 %. */
export const IDLE_SHARE = 0.05;
/** Share of the active part treated as warm-up (model loading, first steps) before looking for a leak. */
export const WARM_UP_SHARE = 0.1;
/** Windows the post-warm-up part is cut into to look for a staircase. */
export const LEAK_WINDOWS = 8;
/** A rise between windows smaller than this share of capacity is noise, not a step: 0.5 %. */
export const STEP_SHARE = 0.005;
/** A leak must climb at least this share of capacity overall (3 %)... */
export const LEAK_RISE_SHARE = 0.03;
/** ...and at least 256 MiB, so allocator noise on a small card is not a leak. */
export const LEAK_RISE_MIN_BYTES = 256 * MIB;
/** A spike rises at least 10 % of capacity above the usual level (the median)... */
export const SPIKE_RISE_SHARE = 0.1;
/** ...and "at its peak" means within 5 % of capacity of the peak... */
export const SPIKE_TOP_BAND_SHARE = 0.05;
/** ...for at most 10 % of the samples. */
export const SPIKE_MAX_TIME_SHARE = 0.1;
/** "Near the limit": the usual level is within 10 % of capacity (the 5–10 % headroom lesson 1 advises keeping). */
export const NEAR_LIMIT_SHARE = 0.9;

/** The numbers behind a verdict, for the page and the CLI to show as evidence. */
export interface GpuPatternEvidence {
  /** Capacity used for the shares: memory.total, or the peak when the log has no capacity. */
  capacityBytes: number;
  capacityKnown: boolean;
  peakUsedBytes: number;
  /** When the peak was first reached (same clock as the samples). */
  peakAt: number;
  /** Median of the active samples: the usual level. */
  medianUsedBytes: number;
  /** Median of each window after warm-up (leak test), first to last. */
  windowMedians: number[];
  /** Window-to-window rises larger than the noise step. */
  risingSteps: number;
  /** Share of active samples within 5 % of capacity of the peak. */
  timeNearPeakShare: number;
  activeSamples: number;
}

/** A verdict and its evidence. */
export interface GpuPattern {
  verdict: GpuVerdict;
  evidence: GpuPatternEvidence;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

/** Classifies a GPU's samples against `totalBytes` (null when unknown). Returns null for no samples. */
export function classifyGpuPattern(samples: readonly GpuSample[], totalBytes: number | null): GpuPattern | null {
  if (samples.length === 0) return null;
  let peak = samples[0] as GpuSample;
  for (const sample of samples) if (sample.usedBytes > peak.usedBytes) peak = sample;
  const capacityKnown = totalBytes !== null && totalBytes > 0;
  const capacity = capacityKnown ? Math.max(totalBytes, peak.usedBytes) : Math.max(peak.usedBytes, 1);
  const idle = IDLE_SHARE * capacity;
  const first = samples.findIndex((s) => s.usedBytes > idle);
  let last = samples.length - 1;
  while (last > first && (samples[last]?.usedBytes ?? 0) <= idle) last -= 1;
  const active = (first < 0 ? samples : samples.slice(first, last + 1)).map((s) => s.usedBytes);
  const usual = median(active);
  const topBand = peak.usedBytes - SPIKE_TOP_BAND_SHARE * capacity;
  const timeNearPeakShare = active.filter((v) => v >= topBand).length / active.length;

  const steady = active.slice(Math.floor(active.length * WARM_UP_SHARE));
  const windowCount = Math.min(LEAK_WINDOWS, steady.length);
  const windowMedians: number[] = [];
  for (let w = 0; w < windowCount; w++) {
    windowMedians.push(
      median(steady.slice(Math.floor((w * steady.length) / windowCount), Math.floor(((w + 1) * steady.length) / windowCount))),
    );
  }
  let risingSteps = 0;
  let fellBack = false;
  for (let w = 1; w < windowMedians.length; w++) {
    const change = (windowMedians[w] ?? 0) - (windowMedians[w - 1] ?? 0);
    if (change > STEP_SHARE * capacity) risingSteps += 1;
    if (change < -STEP_SHARE * capacity) fellBack = true;
  }
  const rise = (windowMedians[windowMedians.length - 1] ?? 0) - (windowMedians[0] ?? 0);

  const evidence: GpuPatternEvidence = {
    capacityBytes: capacity,
    capacityKnown,
    peakUsedBytes: peak.usedBytes,
    peakAt: peak.t,
    medianUsedBytes: usual,
    windowMedians,
    risingSteps,
    timeNearPeakShare,
    activeSamples: active.length,
  };
  // A staircase: several separate rises, no fall back, and a climb that matters.
  const isLeak = !fellBack && risingSteps >= 3 && rise >= Math.max(LEAK_RISE_SHARE * capacity, LEAK_RISE_MIN_BYTES);
  // A spike: far above the usual level, and only briefly.
  const isSpike = peak.usedBytes - usual >= SPIKE_RISE_SHARE * capacity && timeNearPeakShare <= SPIKE_MAX_TIME_SHARE;
  const isNearLimit = capacityKnown && usual >= NEAR_LIMIT_SHARE * capacity;
  const verdict: GpuVerdict =
    samples.length < MIN_TIMELINE_SAMPLES
      ? 'no-timeline'
      : isLeak
        ? 'leak'
        : isSpike
          ? 'spike'
          : isNearLimit
            ? 'near-limit'
            : 'flat';
  return { verdict, evidence };
}
