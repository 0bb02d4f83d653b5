/**
 * What each tool runs on a file, by tool. They run in the analysis worker (analysis.worker.ts),
 * so even a one-day nvidia-smi log or a 100 MB snapshot never blocks the page.
 */
import { classifyGpuPattern, type GpuPattern } from '../../diagnose/gpu-pattern';
import { parseMemorySummary } from '../../diagnose/memory-summary';
import { downsampleKeepingPeaks } from '../../diagnose/downsample';
import { parseNvidiaSmi, type GpuSample, type GpuSeries, type NvidiaSmiLog } from '../../diagnose/nvidia-smi';
import { analyzeOomText } from '../../diagnose/oom-analysis';
import { readSnapshot } from '../../diagnose/snapshot';
import { recognizeKnownError } from '../../diagnose/known-errors';

/** Points per GPU line sent to the page: a one-day log has 86,400; each bucket keeps its peak. */
export const CHART_POINTS = 1200;

/** One GPU of an nvidia-smi log with its verdict, its samples thinned for the chart. */
export interface GpuAnalysis {
  series: Omit<GpuSeries, 'samples'>;
  sampleCount: number;
  chartSamples: GpuSample[];
  pattern: GpuPattern;
}

const text = (bytes: Uint8Array): string => new TextDecoder('utf-8').decode(bytes);

/** The analysis of each tool, from the file's bytes; `onProgress` reports bytes read where a tool can. */
export const ANALYSERS = {
  // Only the thinned samples cross to the page: copying 700,000 of them back would block it.
  'nvidia-smi': (bytes: Uint8Array): { log: Omit<NvidiaSmiLog, 'gpus'>; gpus: GpuAnalysis[] } => {
    const { gpus: all, ...log } = parseNvidiaSmi(text(bytes));
    const gpus = all.flatMap(({ samples, ...series }) => {
      const pattern = classifyGpuPattern(samples, series.totalBytes);
      return pattern
        ? [
            {
              series,
              sampleCount: samples.length,
              chartSamples: downsampleKeepingPeaks(samples, CHART_POINTS, (s) => s.usedBytes),
              pattern,
            },
          ]
        : [];
    });
    return { log, gpus };
  },
  'oom-message': (bytes: Uint8Array) => {
    const content = text(bytes);
    return { ...analyzeOomText(content), knownError: recognizeKnownError(content) };
  },
  'memory-summary': (bytes: Uint8Array) => parseMemorySummary(text(bytes)),
  snapshot: (bytes: Uint8Array, onProgress?: (bytesRead: number) => void) => readSnapshot(bytes, onProgress),
};

/** A tool's id. */
export type AnalysisKind = keyof typeof ANALYSERS;
/** What a tool's analysis returns. */
export type AnalysisResult<K extends AnalysisKind> = ReturnType<(typeof ANALYSERS)[K]>;

/** The page asks the worker to analyse `file` as `kind`. */
export interface AnalysisRequest {
  kind: AnalysisKind;
  file: File;
}

/** What the worker posts back: `ready` once started, progress while reading, then the result. */
export type AnalysisMessage =
  { type: 'ready' } | { type: 'progress'; bytesRead: number; totalBytes: number } | { type: 'done'; result: unknown };
