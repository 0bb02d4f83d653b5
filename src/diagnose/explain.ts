/**
 * Every sentence the diagnose tools print, in one place so the pages and the CLI say the same
 * thing and a translation touches one file. Functions take the parsers' structured results.
 */
import type { GpuPattern, GpuVerdict } from './gpu-pattern.ts';
import { lessonLabel } from '../base/lessons.ts';
import { LESSON_LINKS, type LessonLink } from './links.ts';
import type { MemorySummary } from './memory-summary.ts';
import type { OomRemedy, OomRemedyId } from './oom-remedies.ts';
import { formatBinarySize } from '../base/bytes.ts';

const percent = (share: number): string => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;

/** A verdict's title, what it usually means, and the page that helps. */
export const VERDICT_TEXT: Readonly<Record<GpuVerdict, { title: string; meaning: string; href: LessonLink }>> = {
  flat: {
    title: 'Flat',
    meaning:
      'Memory settles after warm-up and stays put. If this run crashed, the OOM came from one step that needed more than usual: look at the OOM message or a snapshot.',
    href: LESSON_LINKS.toolOom,
  },
  leak: {
    title: 'Climbing step by step: a leak',
    meaning:
      'Each stretch of the run ends higher than the last. Something keeps tensors alive across steps: a loss kept with its graph, outputs appended to a list, a growing cache.',
    href: LESSON_LINKS.findTheLeak,
  },
  spike: {
    title: 'A sudden spike',
    meaning:
      'Memory jumps far above its usual level for a short time: one large batch, a long sequence, evaluation without torch.no_grad(), or the first optimizer step creating its states.',
    href: LESSON_LINKS.toolTriage,
  },
  'near-limit': {
    title: 'Running near the limit',
    meaning:
      'The usual level is within 10 % of the card. Any longer sequence or fragmentation will tip it over; free some headroom with the techniques of lessons 2 to 4.',
    href: LESSON_LINKS.checkpointing,
  },
};

/** The evidence behind a GPU's verdict, as sentences. `timed`: whether sample times are milliseconds. */
export function describeGpuEvidence(pattern: GpuPattern, timed: boolean): string[] {
  const e = pattern.evidence;
  const when = timed ? `${(e.peakAt / 1000).toFixed(0)} s into the log` : `at sample ${e.peakAt + 1}`;
  const lines = [
    `Peak ${formatBinarySize(e.peakUsedBytes)} ${when}; usual level (median) ${formatBinarySize(e.medianUsedBytes)}` +
      (e.capacityKnown
        ? ` of ${formatBinarySize(e.capacityBytes)} (${percent(e.medianUsedBytes / e.capacityBytes)} used).`
        : ' (the log has no memory.total, so the peak stands in for capacity).'),
  ];
  const first = e.windowMedians[0];
  const last = e.windowMedians[e.windowMedians.length - 1];
  if (first !== undefined && last !== undefined && e.windowMedians.length > 1) {
    lines.push(
      `After warm-up, the median of each eighth of the run went from ${formatBinarySize(first)} to ${formatBinarySize(last)}, rising ${e.risingSteps} time${e.risingSteps === 1 ? '' : 's'}.`,
    );
  }
  lines.push(`Within 5 % of capacity of the peak for ${percent(e.timeNearPeakShare)} of the ${e.activeSamples} active samples.`);
  return lines;
}

/** Title and reason of each OOM remedy. */
export function describeRemedy(remedy: OomRemedy): { title: string; reason: string } {
  const bytes = formatBinarySize(remedy.bytes);
  const alone = remedy.sufficient ? ' On its own this would leave room for the failed request.' : '';
  const text: Record<OomRemedyId, { title: string; reason: string }> = {
    'expandable-segments': {
      title: 'Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True',
      reason: `${bytes} is reserved by PyTorch but unallocated: cached in blocks too small or too scattered for the request. Expandable segments let the allocator grow one segment instead of leaving gaps (PyTorch versions without the option: max_split_size_mb).${alone}`,
    },
    'other-process': {
      title: 'Stop the other process on this GPU',
      reason: `${bytes} of the GPU is in use outside this process (another training run, a notebook kernel, an inference server). Check with nvidia-smi.${alone}`,
    },
    'memory-fraction-cap': {
      title: 'Raise or remove set_per_process_memory_fraction',
      reason: `This process is capped below the card's capacity; ${bytes} of the GPU is out of its reach.${alone}`,
    },
    'private-pools': {
      title: 'Check CUDA Graphs and other private memory pools',
      reason: `${bytes} is held in private pools (CUDA Graphs, torch.compile's cudagraph trees), which only their own graphs can reuse.${alone}`,
    },
    'non-pytorch-memory': {
      title: 'Account for memory PyTorch does not allocate',
      reason: `${bytes} of this process is not PyTorch's cache: the CUDA context, cuBLAS and cuDNN workspaces, NCCL buffers, or another library allocating directly.${alone}`,
    },
    'one-large-allocation': {
      title: 'Find the one large tensor',
      reason: `The failed request alone is ${bytes}, a large share of the GPU: typically logits over a big vocabulary, attention scores of a long sequence, or a batch far larger than usual. A memory snapshot shows which line asked for it.`,
    },
    'reduce-activations': {
      title: 'Shrink activations: smaller micro-batch, gradient checkpointing, mixed precision',
      reason: `PyTorch holds ${bytes} of live tensors. During training most of it is usually activations, which gradient accumulation, checkpointing and 16-bit autocast reduce.`,
    },
    'shard-model-states': {
      title: 'Shard or offload the model states',
      reason: `Live tensors fill ${bytes}, over half the GPU. If weights, gradients and optimizer states are most of it, ZeRO/FSDP sharding or CPU offload divides them.`,
    },
  };
  return text[remedy.id];
}

/** One line of the memory_summary reading: what a figure is and what it means for the reader. */
export interface SummaryReading {
  label: string;
  value: string;
  meaning: string;
}

/** The memory_summary figures that matter, each with its meaning. */
export function describeSummary(summary: MemorySummary): SummaryReading[] {
  const m = summary.metrics;
  const out: SummaryReading[] = [];
  const allocated = m.allocated?.all;
  const reserved = m.reserved?.all;
  if (allocated) {
    out.push({
      label: 'Allocated now / at peak',
      value: `${formatBinarySize(allocated.current)} / ${formatBinarySize(allocated.peak)}`,
      meaning:
        'Live tensors (torch.cuda.memory_allocated and max_memory_allocated). The peak is what must fit; the current value is what is left between steps.',
    });
  }
  if (reserved) {
    out.push({
      label: 'Reserved now / at peak',
      value: `${formatBinarySize(reserved.current)} / ${formatBinarySize(reserved.peak)}`,
      meaning: 'What the caching allocator holds from the driver (memory_reserved). nvidia-smi shows this plus the CUDA context.',
    });
  }
  if (allocated && reserved && reserved.current > 0) {
    const idle = reserved.current - allocated.current;
    out.push({
      label: 'Reserved but not allocated',
      value: `${formatBinarySize(idle)} (${percent(idle / reserved.current)} of reserved)`,
      meaning:
        idle > 0.3 * reserved.current
          ? 'A large idle cache: fine right after a peak, but if OOMs happen with this much cached, fragmentation is likely; try expandable_segments:True.'
          : 'The cache is mostly in use.',
    });
  }
  const nonReleasable = m.nonReleasable?.all;
  if (nonReleasable) {
    out.push({
      label: 'Non-releasable now / at peak',
      value: `${formatBinarySize(nonReleasable.current)} / ${formatBinarySize(nonReleasable.peak)}`,
      meaning:
        'Free pieces of split blocks that cannot be returned while the rest of their block is in use: the direct measure of fragmentation.',
    });
  }
  const allocs = m.allocations?.all;
  if (allocs) {
    out.push({
      label: 'Allocations now / at peak / total',
      value: `${allocs.current} / ${allocs.peak} / ${allocs.totalAllocated}`,
      meaning: 'Tensors alive and created. A current count that grows between identical steps is a leak.',
    });
  }
  if (summary.cudaOoms !== null) {
    out.push({
      label: 'CUDA OOMs',
      value: String(summary.cudaOoms),
      meaning:
        summary.cudaOoms > 0
          ? 'This process already hit out-of-memory; the peaks above include the moment before it.'
          : 'No out-of-memory errors so far in this process.',
    });
  }
  if (summary.cudaMallocRetries !== null) {
    out.push({
      label: 'cudaMalloc retries',
      value: String(summary.cudaMallocRetries),
      meaning:
        summary.cudaMallocRetries > 0
          ? 'The allocator had to free its whole cache and retry cudaMalloc: memory pressure that slows every step (a synchronisation each time) even when no OOM follows.'
          : 'The cache never had to be flushed.',
    });
  }
  return out;
}

/** Headline sentence for an OOM event found in a snapshot. */
export function describeSnapshotOom(requestedBytes: number, deviceFreeBytes: number | null, device: number): string {
  return (
    `Device ${device}: a request for ${formatBinarySize(requestedBytes)} failed` +
    (deviceFreeBytes === null ? '.' : ` with ${formatBinarySize(deviceFreeBytes)} free on the device.`)
  );
}

/** The name of each page a tool links to, for link text. */
export const LINK_TITLES: Readonly<Record<LessonLink, string>> = {
  [LESSON_LINKS.diagnostics]: lessonLabel('01-diagnostics'),
  [LESSON_LINKS.threeNumbers]: 'Lesson 1: three numbers that disagree',
  [LESSON_LINKS.fragmentation]: 'Lesson 1: fragmentation and expandable_segments',
  [LESSON_LINKS.findTheLeak]: 'Lesson 1: find the leak',
  [LESSON_LINKS.snapshot]: 'Lesson 1: take a memory snapshot',
  [LESSON_LINKS.watchTerminal]: 'Lesson 1: watch from the terminal',
  [LESSON_LINKS.mixedPrecision]: lessonLabel('02-mixed-precision'),
  [LESSON_LINKS.gradientAccumulation]: lessonLabel('03-gradient-accumulation'),
  [LESSON_LINKS.checkpointing]: lessonLabel('04-gradient-checkpointing'),
  [LESSON_LINKS.parallelism]: lessonLabel('05-parallelism'),
  [LESSON_LINKS.offload]: lessonLabel('06-offload'),
  [LESSON_LINKS.compression]: lessonLabel('07-distillation-and-compression'),
  [LESSON_LINKS.puttingTogether]: lessonLabel('08-putting-it-together'),
  [LESSON_LINKS.toolTriage]: 'Triage: where did it run out?',
  [LESSON_LINKS.toolNvidiaSmi]: 'Tool: nvidia-smi log',
  [LESSON_LINKS.toolOom]: 'Tool: OOM message decoder',
  [LESSON_LINKS.toolSummary]: 'Tool: memory_summary reader',
  [LESSON_LINKS.toolSnapshot]: 'Tool: memory snapshot viewer',
};
