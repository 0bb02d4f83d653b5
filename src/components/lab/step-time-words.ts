import { stepTimesDiffer, type StepTimes } from '../../lab/measure/step-times';

/** What the step-time words say, in one place for translation. */
const STRINGS = {
  seconds: (s: number) => `${s.toFixed(2)} s`,
  range: (median: string, min: string, max: string) => `${median} (${min}–${max})`,
  ratio: (ratio: string) => ` (${ratio}×)`,
  withinNoise: ' (within the noise)',
  differ: (after: string, ratio: string, before: string, steps: number) =>
    `A ${after} step took ${ratio}× a ${before} step; their ranges over ${steps} timed steps do not overlap. `,
  same: (steps: number) =>
    `The two step times overlap over ${steps} timed steps: at these sizes this browser shows no time difference between them. `,
} as const;

/** A run's step time as the median and range of its timed steps: "0.12 s (0.10–0.15)". */
export function formatStepTimes(times: StepTimes): string {
  const seconds = (ms: number) => STRINGS.seconds(ms / 1000);
  return times.count > 1
    ? STRINGS.range(seconds(times.medianMs), seconds(times.minMs), seconds(times.maxMs))
    : seconds(times.medianMs);
}

/** " (1.37×)" against `reference` when the two differ beyond their noise, else " (within the noise)". */
export function stepRatioWords(times: StepTimes, reference: StepTimes): string {
  if (reference.medianMs <= 0) return '';
  return stepTimesDiffer(times, reference)
    ? STRINGS.ratio((times.medianMs / reference.medianMs).toFixed(2))
    : STRINGS.withinNoise;
}

/** One sentence on whether two variants' step times differ, claiming a difference only beyond their ranges. */
export function compareStepTimesWords(
  before: { label: string; times: StepTimes },
  after: { label: string; times: StepTimes },
): string {
  const steps = Math.min(before.times.count, after.times.count);
  if (steps < 2 || before.times.medianMs <= 0) return '';
  return stepTimesDiffer(before.times, after.times)
    ? STRINGS.differ(after.label, (after.times.medianMs / before.times.medianMs).toFixed(2), before.label, steps)
    : STRINGS.same(steps);
}
