/**
 * What each tool runs on a file, by tool. They run in the analysis worker (analysis.worker.ts),
 * so even a one-day nvidia-smi log or a 100 MB snapshot never blocks the page.
 */
import { classifyGpuPattern, type GpuPattern } from '../../diagnose/gpu-pattern';
import { parseMemorySummary } from '../../diagnose/memory-summary';
import { parseNvidiaSmi, type GpuSeries, type NvidiaSmiLog } from '../../diagnose/nvidia-smi';
import { parseOomMessage } from '../../diagnose/oom-message';
import { rankOomRemedies } from '../../diagnose/oom-remedies';
import { readSnapshot } from '../../diagnose/snapshot';

/** One GPU of an nvidia-smi log with its verdict. */
export interface GpuAnalysis {
  series: GpuSeries;
  pattern: GpuPattern;
}

const text = (bytes: Uint8Array): string => new TextDecoder('utf-8').decode(bytes);

/** The analysis of each tool, from the file's bytes; `onProgress` reports bytes read where a tool can. */
export const ANALYSERS = {
  'nvidia-smi': (bytes: Uint8Array): { log: NvidiaSmiLog; gpus: GpuAnalysis[] } => {
    const log = parseNvidiaSmi(text(bytes));
    const gpus = log.gpus.flatMap((series) => {
      const pattern = classifyGpuPattern(series.samples, series.totalBytes);
      return pattern ? [{ series, pattern }] : [];
    });
    return { log, gpus };
  },
  'oom-message': (bytes: Uint8Array) => {
    const parse = parseOomMessage(text(bytes));
    return { parse, remedies: parse.message ? rankOomRemedies(parse.message) : [] };
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
export type AnalysisMessage = { type: 'ready' } | { type: 'progress'; bytesRead: number; totalBytes: number } | { type: 'done'; result: unknown };
