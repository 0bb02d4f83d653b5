/**
 * Every sentence the diagnose tools print, in one place so the pages and the CLI say the same
 * thing and a translation touches one file. Functions take the parsers' structured results.
 */
import type { GpuPattern, GpuVerdict } from './gpu-pattern.ts';
import { lessonLabel, lessonSectionLabel } from '../base/lessons.ts';
import type { GpuIdentity, GpuProcess, GpuSeries, MigDevice, NvidiaSmiLog } from './nvidia-smi.ts';
import { LESSON_LINKS, type LessonLink } from './links.ts';
import type { MemorySummary } from './memory-summary.ts';
import type { SnapshotOom } from './snapshot.ts';
import type { OomFinding, OomFindingId } from './oom-consistency.ts';
import type { OomFigure, OomMessage, OomWording } from './oom-message.ts';
import {
  NO_CONTEXT,
  STRAY_CONTEXT_MAX_BYTES,
  type OomCase,
  type OomContext,
  type OomRemedy,
  type OomRemedyId,
} from './oom-remedies.ts';
import type { OomPhase, OomTraceback, TracebackFrame } from './oom-traceback.ts';
import { formatBinarySize } from '../base/bytes.ts';

const percent = (share: number): string => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;

/** The command that logs a timeline this tool reads: one CSV row per GPU per second (`nvidia-smi --help-query-gpu`). */
export const TIMELINE_COMMAND =
  'nvidia-smi --query-gpu=timestamp,index,pci.bus_id,name,memory.used,memory.total --format=csv -l 1 > gpu.csv';

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
  'no-timeline': {
    title: 'One reading, no timeline',
    meaning: `A table pasted once (or a handful of readings) shows how much is used at that moment, not whether memory climbs, spikes or settles. For a timeline, log it while the job runs and read the log here: ${TIMELINE_COMMAND}`,
    href: LESSON_LINKS.watchTerminal,
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
  const of = e.capacityKnown ? ` of ${formatBinarySize(e.capacityBytes)} (${percent(e.peakUsedBytes / e.capacityBytes)})` : '';
  // Without a timeline there is a level to show, and nothing about time.
  if (pattern.verdict === 'no-timeline')
    return [
      e.activeSamples <= 1
        ? `Used ${formatBinarySize(e.peakUsedBytes)}${of} at the moment it was printed.`
        : `Highest of the readings ${formatBinarySize(e.peakUsedBytes)}${of}; their median ${formatBinarySize(e.medianUsedBytes)}.`,
    ];
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

/** How each form of nvidia-smi output is named. */
export const NVIDIA_SMI_FORM_TEXT: Readonly<Record<NvidiaSmiLog['form'], string>> = {
  csv: 'log (--query-gpu CSV)',
  table: 'table',
  query: '-q report (FB memory)',
  dmon: 'dmon (fb column)',
};

/** How rows were told apart as GPUs, when that is worth saying (null when an index column or the table said so). */
export function describeGpuIdentity(toldApartBy: GpuIdentity): string | null {
  if (toldApartBy === 'name-order')
    return 'The log has no index column: GPUs are told apart by the order their names repeat in (nvidia-smi lists every GPU once per reading).';
  if (toldApartBy === 'uuid' || toldApartBy === 'pci.bus_id')
    return `The log has no index column: GPUs are told apart by ${toldApartBy} and numbered in the order they first appear.`;
  return null;
}

/** The Processes table, per GPU, largest first, with what it means: who holds the memory. */
export function describeProcesses(processes: readonly GpuProcess[], gpus: readonly GpuSeries[]): string[] {
  if (processes.length === 0) return [];
  const lines = ['', 'Who holds the memory (the Processes table):'];
  const indexes = [...new Set(processes.map((p) => p.gpuIndex))].sort((a, b) => a - b);
  for (const index of indexes) {
    const onGpu = processes.filter((p) => p.gpuIndex === index).sort((a, b) => (b.usedBytes ?? -1) - (a.usedBytes ?? -1));
    const known = onGpu.reduce((sum, p) => sum + (p.usedBytes ?? 0), 0);
    const used = gpus.find((g) => g.index === index)?.samples.at(-1)?.usedBytes;
    lines.push(
      `  GPU ${index}: ${onGpu.length} process${onGpu.length === 1 ? '' : 'es'}, ${formatBinarySize(known)} listed${used === undefined ? '' : ` of ${formatBinarySize(used)} used`}`,
    );
    for (const p of onGpu)
      lines.push(
        `    ${String(p.pid).padStart(8)}  ${p.type.padEnd(3)} ${(p.usedBytes === null ? 'not reported' : formatBinarySize(p.usedBytes)).padStart(12)}  ${p.name}`,
      );
  }
  if (processes.some((p) => p.usedBytes === null))
    lines.push('  "not reported": Windows (WDDM) does not give per-process memory; the GPU\'s total above still counts it.');
  const shared = [...new Set(processes.map((p) => p.pid))].filter(
    (pid) => new Set(processes.filter((p) => p.pid === pid).map((p) => p.gpuIndex)).size > 1,
  );
  if (shared.length > 0)
    lines.push(
      `  Process ${shared.join(', ')} holds memory on several GPUs: a job that touched more than its own GPU (a CUDA context each), or one that spans them by design.`,
    );
  return lines;
}

/** The MIG devices table: each instance's own memory, which the GPU row does not break down. */
export function describeMigDevices(devices: readonly MigDevice[]): string[] {
  if (devices.length === 0) return [];
  return [
    '',
    'MIG instances (each has its own memory; a job sees only its instance):',
    ...devices.map(
      (d) =>
        `  GPU ${d.gpuIndex} MIG ${d.migIndex} (GI ${d.gpuInstance}, CI ${d.computeInstance}): ${formatBinarySize(d.usedBytes)} of ${formatBinarySize(d.totalBytes)}`,
    ),
  ];
}

/** How each wording is named, and what it says about the PyTorch that printed it. */
export const WORDING_TEXT: Readonly<Record<OomWording, string>> = {
  current: 'current wording (PyTorch 2.2 and later)',
  'pytorch-2.1': 'PyTorch 2.1 wording ("total capacty", sic)',
  'reserved-in-total': 'older wording (PyTorch 1.4 to 2.0: "reserved in total by PyTorch")',
  cached: 'pre-1.4 wording: its "cached" is reserved but unallocated, so reserved = allocated + cached',
  mps: 'Apple MPS backend wording',
};

/** What the platform changes about the advice. */
export function describePlatform(oom: OomMessage): string | null {
  if (oom.platform === 'hip')
    return 'A ROCm (AMD) build: its allocator reads PYTORCH_HIP_ALLOC_CONF where CUDA builds read PYTORCH_CUDA_ALLOC_CONF, and rocm-smi stands in for nvidia-smi.';
  if (oom.platform === 'mps')
    return 'Apple MPS backend: memory is shared with macOS and other apps, and the limit is the high watermark. CUDA-only remedies do not apply here: PYTORCH_CUDA_ALLOC_CONF (expandable_segments, max_split_size_mb), set_per_process_memory_fraction, nvidia-smi, and sharding across GPUs.';
  return null;
}

/** What kind of OOM it is, as the verdict the tools print above the remedies. */
export const OOM_CASE_TEXT: Readonly<Record<OomCase, string>> = {
  'request-too-large':
    'One request larger than the whole GPU: no allocator setting can make it fit; the tensor itself must shrink or be split.',
  cap: 'A cap stopped it: the process hit a limit set below what the device has.',
  'free-but-refused':
    'Enough memory was reported free, yet the allocation failed: the free memory is split into pieces (by the desktop, another process, or the driver), or the allocator asked for a larger segment than the request.',
  'another-process': 'Another process holds a large share of this GPU: the room this job needed is taken outside it.',
  fragmentation: "Fragmentation: PyTorch's cache holds enough idle memory for the request, but not in one block large enough.",
  shortage: 'A genuine shortage: live tensors fill the GPU; something must hold less.',
};

/** What a consistency finding means, in one sentence with its figures. */
export function describeFinding(finding: OomFinding, oom: OomMessage): string {
  const size = (bytes: number | null): string => (bytes === null ? '?' : formatBinarySize(bytes));
  const a = size(finding.bytes);
  const b = size(finding.againstBytes);
  const text: Record<OomFindingId, string> = {
    truncated:
      'The message is cut off before its last figure: the figures after the cut are unknown, not zero. Paste the whole line.',
    'allocated-above-total': `Allocated (${a}) is more than the total capacity (${b}). On Windows the WDDM driver lets CUDA spill into shared system memory, so the total counts only the card's own memory; work past it runs at PCIe speed.`,
    'request-above-total': `The request (${a}) is larger than the GPU's total capacity (${b}).`,
    'free-covers-request': `The driver reported ${a} free, at least the ${b} requested, and the allocation still failed: the free memory is not in one piece that large, the allocator rounded the request up to a new segment, a cap applies, or another process took it in between. So no remedy below is called sufficient on the strength of free memory.`,
    'reserved-below-allocated': `Reserved (${b}) is below allocated (${a}), which cannot be: reserved includes allocated. The figures were printed at different moments or edited; the reserved-but-unallocated figure is left out.`,
    'reserved-above-process': `PyTorch's reserved total (${a}) is more than this process's memory in use (${b}), which cannot be on one GPU; the in-use figure may belong to another device or moment.`,
    'job-process-inferred': `The message has no usable "this process" figure, so process ${oom.jobPid ?? '?'} (${a}) is taken to be this job: it is the smallest listed process whose memory covers PyTorch's reserved total (${b}). In a container PyTorch cannot match its own process id.`,
    'figures-above-total': `Free memory plus every process's memory comes to ${a}, more than the total capacity (${b}): the figures were read at different moments.`,
    'summary-other-device': `The memory_summary pasted with it is for another device than GPU ${oom.gpuIndex ?? '?'}, where the request failed: its figures say nothing about this GPU (in a multi-GPU run, print the failing rank's summary).`,
    'summary-allocated-differs': `The memory_summary says ${a} allocated, the message ${b}: they were printed at different moments (the summary after tensors were freed or created), so read each for its own moment.`,
    'request-above-cap': `Allocated, other allocations and the request together (${a}) reach the maximum allowed (${b}) within the printed rounding: the MPS high watermark stopped it, not the hardware.`,
  };
  return text[finding.id];
}

/** What each phase holds when memory runs out there, and how the step it died at changes the reading. */
export const PHASE_TEXT: Readonly<Record<OomPhase, string>> = {
  loading: 'while loading the model: the weights alone do not fit in the precision they are loaded in, before any batch ran.',
  forward:
    'in the forward pass: activations are being built. At the first step the batch is too large for what is left after the weights; after many steps, something kept from earlier steps (a leak) or an unusually long input.',
  backward:
    'in backward: gradients are created while the activations saved for backward are still live, the usual peak of training. At the first step the batch or sequence is too large; after thousands of steps it is a longer input or memory that grew (a leak).',
  'optimizer-step':
    'in the optimizer step. On the first step the optimizer creates its states (AdamW: two fp32 tensors per parameter, 8 bytes per parameter), so a crash there means the model states do not fit; a crash after many steps means something else grew in between.',
  generate:
    'during generation: the KV cache grows with batch × (prompt + new tokens) × beams, on top of the weights; no gradients are involved.',
  evaluation:
    'during evaluation: without torch.no_grad() every forward keeps its activations for a backward that never comes, and the evaluation batch or inputs are often larger than training ones.',
};

const frameText = (frame: TracebackFrame): string =>
  frame.file === ''
    ? frame.code
    : `${frame.file.replace(/^.*[\\/]/, '')}:${frame.line}${frame.code === '' ? '' : ` ${frame.code}`}`;

/** Where memory ran out, from the traceback: phase, op and the reader's own line, as one paragraph. */
export function describeTraceback(traceback: OomTraceback): string {
  const op = traceback.op === null ? '' : ` The allocation was asked for by ${traceback.op}.`;
  const own = traceback.userFrame === null ? '' : ` Your code's last line on the way: ${frameText(traceback.userFrame)}.`;
  const phase =
    traceback.phase === null
      ? `The traceback (${traceback.frames} frames) does not name a phase: forward, backward, the optimizer step, generation, evaluation or loading.`
      : `It ran out ${PHASE_TEXT[traceback.phase]}`;
  return `${phase}${op}${own}`;
}

/**
 * Title and reason of each OOM remedy; `oom` gives the platform and figures the wording depends on, `context` the
 * phase and the reader's GPU count.
 */
export function describeRemedy(
  remedy: OomRemedy,
  oom: OomMessage,
  context: OomContext = NO_CONTEXT,
): { title: string; reason: string } {
  const frees =
    remedy.freesBytes === null
      ? ''
      : ` Frees up to ${formatBinarySize(remedy.freesBytes)}.${remedy.sufficient ? ' On its own that leaves room for the failed request.' : ''}`;
  const allocConf = oom.platform === 'hip' ? 'PYTORCH_HIP_ALLOC_CONF' : 'PYTORCH_CUDA_ALLOC_CONF';
  const smi = oom.platform === 'hip' ? 'rocm-smi' : 'nvidia-smi';
  const strays = oom.otherProcesses.filter((p) => p.bytes <= STRAY_CONTEXT_MAX_BYTES);
  const text: Record<OomRemedyId, { title: string; reason: string }> = {
    'expandable-segments': {
      title: `Set ${allocConf}=expandable_segments:True`,
      reason: `Memory reserved by PyTorch but unallocated is cached in blocks too small or too scattered for the request. Expandable segments let the allocator grow one segment instead of leaving gaps (PyTorch versions without the option: max_split_size_mb).${frees}`,
    },
    'other-ranks-contexts': {
      title: 'Give each rank its own GPU before it touches CUDA',
      reason: `${strays.length} other processes hold small amounts on this GPU (${strays.map((p) => `${p.pid}: ${formatBinarySize(p.bytes)}`).join(', ')}): the size of a CUDA context each. That is the classic "every rank opened a context on GPU 0": call torch.cuda.set_device(local_rank) (or set CUDA_VISIBLE_DEVICES per rank) before any CUDA call, including torch.load(map_location=…) and NCCL setup.${frees}`,
    },
    'other-process': {
      title: 'Stop the other process on this GPU',
      reason: `Memory in use outside this job: another training run, a notebook kernel, an inference server. Check with ${smi}.${frees}`,
    },
    'memory-fraction-cap': {
      title: 'Raise or remove set_per_process_memory_fraction',
      reason: `This process is capped below the card's capacity; the rest of the GPU is out of its reach.${frees}`,
    },
    'mps-watermark': {
      title: 'Raise PYTORCH_MPS_HIGH_WATERMARK_RATIO, or free memory on the Mac',
      reason:
        'The MPS allocator refuses to grow past its high watermark (a ratio of the recommended working set). A higher ratio lifts the cap; 0.0 removes it, and macOS may then swap or stall. Closing other apps frees the unified memory it shares.',
    },
    'private-pools': {
      title: 'Check CUDA Graphs and other private memory pools',
      reason: `Memory is held in private pools (CUDA Graphs, torch.compile's cudagraph trees), which only their own graphs can reuse.${frees}`,
    },
    'non-pytorch-memory': {
      title: 'Account for memory PyTorch does not allocate',
      reason:
        oom.platform === 'mps'
          ? `${formatBinarySize(oom.nonPyTorchBytes ?? 0)} is allocated on the GPU outside the MPS allocator ("other allocations": Metal buffers of this process that PyTorch's cache does not hold). How much of it can go is unknown.`
          : `${formatBinarySize(oom.nonPyTorchBytes ?? 0)} of this process is not PyTorch's cache: the CUDA context, cuBLAS and cuDNN workspaces, NCCL buffers, or another library allocating directly. The context cannot be freed, so how much of it can go is unknown.`,
    },
    'one-large-allocation': {
      title: 'Find the one large tensor',
      reason: `The failed request alone is ${formatBinarySize(oom.triedToAllocateBytes ?? 0)}, a large share of the GPU: typically logits over a big vocabulary, attention scores of a long sequence, or a batch far larger than usual. A memory snapshot shows which line asked for it.`,
    },
    'reduce-activations': {
      title: 'Shrink activations: smaller micro-batch, gradient checkpointing, mixed precision',
      reason: `PyTorch holds ${formatBinarySize(oom.allocatedBytes ?? 0)} of live tensors. During training most of it is usually activations, which gradient accumulation, checkpointing and 16-bit autocast reduce; how much they free depends on the model, so it is not counted here.`,
    },
    'shard-model-states':
      remedy.condition === 'several-gpus'
        ? {
            title: 'If you have several GPUs: shard the model states (else offload them)',
            reason: `Live tensors fill over half the GPU. If weights, gradients and optimizer states are most of it, ZeRO/FSDP divides them across GPUs, which only helps when there are several; on one GPU, CPU offload or an 8-bit optimizer is the option. Say how many GPUs you have and this advice stops being conditional.`,
          }
        : {
            title: `Shard the model states across your ${context.gpus ?? 'several'} GPUs (ZeRO/FSDP)`,
            reason: `Live tensors fill over half the GPU. If weights, gradients and optimizer states are most of it, ZeRO-2/3 or FSDP keeps ${context.gpus === null ? 'a share' : `1/${context.gpus}`} of them on each GPU.`,
          },
    'offload-model-states': {
      title: 'Offload the model states, or use an 8-bit optimizer (one GPU)',
      reason:
        'Live tensors fill over half the GPU, and with one GPU there is nothing to shard across: CPU offload of optimizer states (and parameters), an 8-bit optimizer, or LoRA on a frozen model shrink the model states instead.',
    },
    'optimizer-step-peak': {
      title: "Cut the optimizer step's peak: 8-bit optimizer, foreach=False, or states off the GPU",
      reason: `${context.gpus !== null && context.gpus >= 2 ? `ZeRO-1/2 across your ${context.gpus} GPUs divides the states; ` : ''}the multi-tensor (foreach) and fused implementations build temporary lists as large as a state for speed, and foreach=False avoids them; an 8-bit optimizer stores each state in a quarter of the bytes; CPU offload moves the states off the GPU. If it died on the first step, this is the problem; after many steps, look for what grew.`,
    },
    'inference-memory':
      context.phase === 'generate'
        ? {
            title: 'Shrink the KV cache: fewer new tokens, beams or sequences at once',
            reason:
              'Lower max_new_tokens, num_beams, num_return_sequences or the batch; a quantized or offloaded KV cache, or 4/8-bit weights, leave more room for it.',
          }
        : {
            title: 'Evaluate under torch.no_grad() with a smaller batch',
            reason:
              'Wrap evaluation in torch.no_grad() (or torch.inference_mode()) and model.eval(), so no activations are kept for backward; use a smaller evaluation batch, and free what the training step left (del loss, outputs) before evaluating.',
          },
    'load-smaller-weights': {
      title: 'Load the weights smaller, or spread them',
      reason:
        "Load in bf16/fp16 (torch_dtype), in 8 or 4 bits (bitsandbytes, GPTQ/AWQ checkpoints), or with device_map='auto' to place layers on other GPUs or the CPU.",
    },
  };
  return text[remedy.id];
}

/** How a figure came to be: read as printed, or the rule that derived it. */
export function describeFigureSource(oom: OomMessage, figure: OomFigure): string {
  const rule = oom.derivedBy[figure];
  return rule === undefined ? 'read' : `derived: ${rule}`;
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

/**
 * What an `oom` entry of a snapshot's trace says: `_dump_snapshot()` called after a caught torch.OutOfMemoryError
 * records the failed request (size, the device's free memory, the stack that asked) at the end of the trace, so the
 * allocations live at that moment are what filled the GPU.
 */
export function describeSnapshotOom(oom: SnapshotOom): string {
  const free = oom.deviceFreeBytes === null ? '' : ` with ${formatBinarySize(oom.deviceFreeBytes)} free on the device`;
  const held =
    oom.reservedBytes > 0
      ? ` PyTorch then held ${formatBinarySize(oom.activeBytes)} in live tensors of ${formatBinarySize(oom.reservedBytes)} reserved that the trace saw.`
      : ` The trace had ${formatBinarySize(oom.activeBytes)} in live tensors at that moment.`;
  return `Device ${oom.device}: a request for ${formatBinarySize(oom.requestedBytes)} failed${free}.${held}`;
}

/** The name of each page a tool links to, for link text. */
export const LINK_TITLES: Readonly<Record<LessonLink, string>> = {
  [LESSON_LINKS.whereTheMemoryGoes]: lessonLabel('where-the-memory-goes'),
  [LESSON_LINKS.diagnose]: lessonLabel('diagnose-your-run'),
  [LESSON_LINKS.threeNumbers]: lessonSectionLabel('where-the-memory-goes', 'three numbers that disagree'),
  [LESSON_LINKS.fragmentation]: lessonSectionLabel('diagnose-your-run', 'fragmentation and expandable_segments'),
  [LESSON_LINKS.findTheLeak]: lessonSectionLabel('diagnose-your-run', 'find the leak'),
  [LESSON_LINKS.snapshot]: lessonSectionLabel('diagnose-your-run', 'take a memory snapshot'),
  [LESSON_LINKS.watchTerminal]: lessonSectionLabel('diagnose-your-run', 'watch from the terminal'),
  [LESSON_LINKS.mixedPrecision]: lessonLabel('mixed-precision'),
  [LESSON_LINKS.gradientAccumulation]: lessonLabel('gradient-accumulation'),
  [LESSON_LINKS.checkpointing]: lessonLabel('gradient-checkpointing'),
  [LESSON_LINKS.parallelism]: lessonLabel('parallelism'),
  [LESSON_LINKS.offload]: lessonLabel('offload'),
  [LESSON_LINKS.inference]: lessonLabel('inference-memory'),
  [LESSON_LINKS.compression]: lessonLabel('distillation-and-compression'),
  [LESSON_LINKS.puttingTogether]: lessonLabel('putting-it-together'),
  [LESSON_LINKS.toolTriage]: 'Triage: where did it run out?',
  [LESSON_LINKS.toolNvidiaSmi]: 'Tool: nvidia-smi log',
  [LESSON_LINKS.toolOom]: 'Tool: OOM message decoder',
  [LESSON_LINKS.toolSummary]: 'Tool: memory_summary reader',
  [LESSON_LINKS.toolSnapshot]: 'Tool: memory snapshot viewer',
};
