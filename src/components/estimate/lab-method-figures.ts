/**
 * The figures the "How the lab measures" page states, computed when the site is built from the modules that
 * apply them (the runtime model's rules, the verdicts' thresholds, the committed traces), so the page cannot
 * drift from what the experiments do and a translation carries no number typed by hand.
 */
import { formatBytes } from '../../base/bytes';
import { AGREEMENT_RATIO } from '../../lab/results/agreement';
import { DISPATCHES_PER_FLUSH } from '../../lab/runtime-model/graph-run';
import { bufferBytes, SIZE_CLASSES } from '../../lab/runtime-model/size-classes';
import { CLOSE_WITHIN } from '../lab/agreement-words';
import { tracedRuntimeVersion } from './trace-figure';

/** A trace every recording run writes; its onnxruntime-web version is the one the runtime model is tied to. */
const VERSION_TRACE = 'gradient-accumulation';

/** A ratio as prose prints it: at most two decimals, no trailing zeros ("1.14×", "4×"). */
function ratioWords(ratio: number): string {
  return `${Number(ratio.toFixed(2))}×`;
}

/** The smallest and largest step between neighbouring size classes, as ratios. */
function classSpacing(): { readonly least: number; readonly most: number } {
  const steps = SIZE_CLASSES.slice(1).map(([bytes], i) => bytes / SIZE_CLASSES[i]![0]);
  return { least: Math.min(...steps), most: Math.max(...steps) };
}

/** The figures the page states, as words ready for the prose. */
export interface LabMethodFigures {
  /** Kernel dispatches between two flushes of the WebGPU provider. */
  readonly dispatchesPerFlush: number;
  /** The smallest and the largest size class, e.g. "64 B" and "160 MiB". */
  readonly smallestClass: string;
  readonly largestClass: string;
  /** How far apart neighbouring classes are, least and most, e.g. "1.14×" and "4×". */
  readonly closestClasses: string;
  readonly widestClasses: string;
  /** What sizes above the largest class round up to a multiple of, e.g. "16 B". */
  readonly alignment: string;
  /** The share within which measured may sit from "this runtime" for "agrees", e.g. "10%". */
  readonly closeWithin: string;
  /** The band around the engine's peak each kind of measurement usually lands in, e.g. "0.8–3×". */
  readonly webGpuBand: string;
  readonly wasmBand: string;
  /** The onnxruntime-web version the committed traces were recorded with, e.g. "1.30.0". */
  readonly runtimeVersion: string;
  /** onnxruntime's native WebGPU buffer manager at that release's tag. */
  readonly bufferManagerUrl: string;
  /** onnxruntime's WebGPU context at that release's tag: where a run dispatches and flushes (`.cc`), and the limit (`.h`). */
  readonly webGpuContextUrl: string;
  readonly webGpuContextHeaderUrl: string;
}

/** The page's figures (the traces are read from the repository root, the build's working directory). */
export function labMethodFigures(root = process.cwd()): LabMethodFigures {
  const spacing = classSpacing();
  const smallest = SIZE_CLASSES[0]![0];
  const largest = SIZE_CLASSES.at(-1)![0];
  const band = ({ min, max }: { readonly min: number; readonly max: number }): string => `${min}–${max}×`;
  const runtimeVersion = tracedRuntimeVersion(VERSION_TRACE, root);
  const source = `https://github.com/microsoft/onnxruntime/blob/v${runtimeVersion}/onnxruntime/core/providers/webgpu`;
  return {
    dispatchesPerFlush: DISPATCHES_PER_FLUSH,
    smallestClass: `${smallest} B`,
    largestClass: formatBytes(largest, 'MiB', 0),
    closestClasses: ratioWords(spacing.least),
    widestClasses: ratioWords(spacing.most),
    alignment: `${bufferBytes(largest + 1) - largest} B`,
    closeWithin: `${Math.round(CLOSE_WITHIN * 100)}%`,
    webGpuBand: band(AGREEMENT_RATIO['webgpu-buffers']),
    wasmBand: band(AGREEMENT_RATIO['wasm-heap']),
    runtimeVersion,
    bufferManagerUrl: `${source}/buffer_manager.cc`,
    webGpuContextUrl: `${source}/webgpu_context.cc`,
    webGpuContextHeaderUrl: `${source}/webgpu_context.h`,
  };
}
