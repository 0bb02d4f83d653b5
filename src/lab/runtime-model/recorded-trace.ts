/**
 * The shape of a recorded trace (tests/fixtures/lab/traces/, written by
 * scripts/record-lab-traces.ts): what onnxruntime-web and the lab did with one worker's WebGPU
 * device during one experiment, event by event. Types only.
 */

/**
 * One event, compact: `[kind, buffer, bytes]`. `c`: storage buffer `buffer` of `bytes` created;
 * `d`: buffer destroyed; `s`: a queue submission; `w`: `bytes` written into storage buffer
 * `buffer` from the host; `r`: a buffer of `bytes` mapped for reading (a download).
 */
export type TraceEvent = readonly [kind: 'c' | 'd' | 's' | 'w' | 'r', buffer: number, bytes: number];

/** One experiment's recording. */
export interface ExperimentTrace {
  /** The experiment's `data-experiment`. */
  readonly experiment: string;
  /** The width chosen before Run, where it is not the one the experiment starts at (`LAB_WIDTH`). */
  readonly hidden?: number;
  /** The batch typed before Run, where it is not the one the experiment starts at (`LAB_BATCH`). */
  readonly batch?: number;
  /** The onnxruntime-web version that ran. */
  readonly onnxruntimeWeb: string;
  /** The experiment root's `data-*` attributes after the run (measured and predicted bytes). */
  readonly data: Readonly<Record<string, string>>;
  /** Each worker's events, in the order the page started the workers. */
  readonly workers: readonly (readonly TraceEvent[])[];
}
