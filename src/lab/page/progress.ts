import type { DownloadProgress } from './download';

/** Bytes a series held after one step, reported live during a run (for plots). */
export interface LabSample {
  /** Which line of the plot: a side of the experiment, or one device of a cluster side. */
  readonly series: string;
  readonly step: number;
  readonly bytes: number;
}

/** What the page shows while an experiment runs. */
export type LabProgress =
  | { readonly phase: 'runtime'; readonly download: DownloadProgress }
  | { readonly phase: 'run'; readonly label: string; readonly stage: string; readonly sample?: LabSample };
