/**
 * A measured figure a page states: what one side of an experiment measured in a committed trace
 * (tests/fixtures/lab/traces/, recorded by scripts/record-lab-traces.ts in headless Chromium on its
 * software WebGPU adapter, SwiftShader), read when the site is built. A page never types a measurement
 * by hand, so re-recording the traces after an onnxruntime-web upgrade updates every sentence that
 * quotes them. Read with `node:fs` at build time, like lab-figure.ts reads the manifest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatBytes, isByteCount } from '../../base/bytes';
import type { ExperimentTrace } from '../../lab/runtime-model/recorded-trace';

/** Where the traces are committed, from the repository root (the build's working directory). */
const TRACES_DIR = 'tests/fixtures/lab/traces';

/** Which device's peak a figure quotes: a side's (its busiest device), or one device of a cluster side. */
export type TracedPeak = 'before' | 'after' | { readonly afterDevice: number };

const traces = new Map<string, ExperimentTrace>();

/** The trace `name` (its file name without `.json`, e.g. `gradient-accumulation.h256`), read once per build. */
export function readTrace(name: string, root = process.cwd()): ExperimentTrace {
  const cached = traces.get(name);
  if (cached) return cached;
  const trace = JSON.parse(readFileSync(join(root, TRACES_DIR, `${name}.json`), 'utf8')) as ExperimentTrace;
  traces.set(name, trace);
  return trace;
}

/** The attribute a peak is recorded under in the trace's `data` (the experiment root's `data-*` after the run). */
function peakAttribute(peak: TracedPeak): string {
  if (peak === 'before') return 'measuredBeforeBytes';
  if (peak === 'after') return 'measuredAfterBytes';
  return 'afterDeviceBytes';
}

/**
 * The bytes the trace `name` measured for `peak`. A trace without that figure is a page asking for
 * something never recorded, so the build stops with one line naming the trace and the field.
 */
export function tracedPeakBytes(name: string, peak: TracedPeak, root = process.cwd()): number {
  const field = peakAttribute(peak);
  const recorded = readTrace(name, root).data[field];
  const value = typeof peak === 'object' ? recorded?.split(',')[peak.afterDevice] : recorded;
  const bytes = Number(value);
  if (value === undefined || value === '' || !isByteCount(bytes)) {
    const which = typeof peak === 'object' ? `${field}[${peak.afterDevice}]` : field;
    throw new Error(`trace ${name}: no measured byte count in data.${which}`);
  }
  return bytes;
}

/** `tracedPeakBytes` as the lab's tables print it, in MiB with two decimals. */
export function tracedPeakFigure(name: string, peak: TracedPeak, root = process.cwd()): string {
  return formatBytes(tracedPeakBytes(name, peak, root), 'MiB', 2);
}

/** The onnxruntime-web version the trace `name` was recorded with. */
export function tracedRuntimeVersion(name: string, root = process.cwd()): string {
  const version = readTrace(name, root).onnxruntimeWeb;
  if (!version) throw new Error(`trace ${name}: no onnxruntimeWeb version`);
  return version;
}
