import { stepTimesDiffer, type StepTimes } from '../../lab/measure/step-times';
import { LAB_EN, type LabMessages } from '../../i18n/messages/lab/en';

/** The step-time words, in any language. */
type StepTimeWords = LabMessages['stepTime'];

/** A run's step time as the median and range of its timed steps: "0.12 s (0.10–0.15)". */
export function formatStepTimes(times: StepTimes, words: StepTimeWords = LAB_EN.stepTime): string {
  const seconds = (ms: number) => words.seconds(ms / 1000);
  return times.count > 1
    ? words.range(seconds(times.medianMs), seconds(times.minMs), seconds(times.maxMs))
    : seconds(times.medianMs);
}

/** " (1.37×)" against `reference` when the two differ beyond their noise, else " (within the noise)". */
export function stepRatioWords(times: StepTimes, reference: StepTimes, words: StepTimeWords = LAB_EN.stepTime): string {
  if (reference.medianMs <= 0) return '';
  return stepTimesDiffer(times, reference) ? words.ratio((times.medianMs / reference.medianMs).toFixed(2)) : words.withinNoise;
}

/** One sentence on whether two variants' step times differ, claiming a difference only beyond their ranges. */
export function compareStepTimesWords(
  before: { label: string; times: StepTimes },
  after: { label: string; times: StepTimes },
  words: StepTimeWords = LAB_EN.stepTime,
): string {
  const steps = Math.min(before.times.count, after.times.count);
  if (steps < 2 || before.times.medianMs <= 0) return '';
  return stepTimesDiffer(before.times, after.times)
    ? words.differ(after.label, (after.times.medianMs / before.times.medianMs).toFixed(2), before.label, steps)
    : words.same(steps);
}
