/** The pipeline schedule chart's boxes: one per micro-batch's forward or backward on one device. */
import type { ComputeSpan } from '../../lab/measure/cluster-job';

/** A box of the schedule, in seconds from the step's first span. */
export interface ScheduleBox extends ComputeSpan {
  readonly device: string;
  readonly x1: number;
  readonly x2: number;
  /** The step's name: F or B and the micro-batch, e.g. "F0", "B3". */
  readonly label: string;
}

/** Room a step's name ("F12", "B3") needs inside its box, pixels: about three characters of Plot's 10 px sans-serif. */
export const LABEL_PIXELS = 24;

/** Boxes from measured spans (milliseconds), time counted from the first span's start. */
export function scheduleBoxes(spans: readonly ComputeSpan[]): ScheduleBox[] {
  const origin = Math.min(...spans.map((s) => s.start));
  return spans.map((s) => ({
    ...s,
    device: `GPU ${s.rank}`,
    x1: (s.start - origin) / 1000,
    x2: (s.end - origin) / 1000,
    label: `${s.kind === 'forward' ? 'F' : 'B'}${s.micro}`,
  }));
}

/**
 * The boxes wide enough to carry their name inside, on a time axis `plotPixels` wide from 0 to the last box's end:
 * on a phone the short steps are a few pixels wide, and their names would run into each other.
 */
export function boxesWithRoomForName(boxes: readonly ScheduleBox[], plotPixels: number): ScheduleBox[] {
  const end = Math.max(0, ...boxes.map((b) => b.x2));
  if (end === 0) return [];
  return boxes.filter((b) => ((b.x2 - b.x1) / end) * plotPixels >= LABEL_PIXELS);
}
