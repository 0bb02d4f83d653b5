import type { DownloadProgress } from './download';
import type { DistillationJob } from '../measure/distillation';
import type { RunStage } from '../measure/run-stage';

/** Bytes a side (or one device of a cluster side) held after one step, reported live during a run (for plots). */
export interface LabSample {
  readonly side: ProgressSide;
  /** The virtual GPU, in a cluster experiment. */
  readonly rank?: number;
  readonly step: number;
  readonly bytes: number;
}

/**
 * Who a worker runs for, as an id the page names: a side of a before/after experiment, the
 * distillation's models all in one worker, or one of them alone.
 */
export type ProgressSide = 'before' | 'after' | 'distillation' | DistillationJob;

/** What the page shows while an experiment runs: data only, worded by the page (see `RunStage`). */
export type LabProgress =
  | { readonly phase: 'runtime'; readonly download: DownloadProgress }
  | {
      readonly phase: 'run';
      /** The sides the worker runs, in turn. */
      readonly sides: readonly ProgressSide[];
      /** The virtual GPU reporting, in a cluster experiment. */
      readonly rank?: number;
      readonly stage: RunStage;
      readonly sample?: LabSample;
    };
