/**
 * Every sentence the diagnose tools print, in one place so the pages and the CLI say the same thing. Functions take
 * the parsers' structured results and a words object (`EXPLAIN_EN` unless given): a page in another language passes
 * its own, so the logic that picks a sentence stays here and only the wording is translated.
 */
import type { GpuPattern, GpuVerdict } from './gpu-pattern.ts';
import { lessonLabel, lessonSectionLabel } from '../base/lessons.ts';
import type { GpuIdentity, GpuProcess, GpuSeries, MigDevice, NvidiaSmiLog } from './nvidia-smi.ts';
import { LESSON_LINKS, type LessonLink } from './links.ts';
import type { MemorySummary } from './memory-summary.ts';
import type { SnapshotOom } from './snapshot.ts';
import type { OomFinding, OomFindingId } from './oom-consistency.ts';
import type { OomFigure, OomMessage, OomPlatform, OomWording } from './oom-message.ts';
import {
  NO_CONTEXT,
  STRAY_CONTEXT_MAX_BYTES,
  type OomCase,
  type OomContext,
  type OomRemedy,
  type OomRemedyId,
  type RemedyCondition,
} from './oom-remedies.ts';
import type { OomPhase, OomTraceback, TracebackFrame } from './oom-traceback.ts';
import { formatBinarySize } from '../base/bytes.ts';

const percent = (share: number): string => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;

/** The command that logs a timeline this tool reads: one CSV row per GPU per second (`nvidia-smi --help-query-gpu`). */
export const TIMELINE_COMMAND =
  'nvidia-smi --query-gpu=timestamp,index,pci.bus_id,name,memory.used,memory.total --format=csv -l 1 > gpu.csv';

/** Where each verdict sends the reader. */
export const VERDICT_LINKS: Readonly<Record<GpuVerdict, LessonLink>> = {
  flat: LESSON_LINKS.toolOom,
  leak: LESSON_LINKS.findTheLeak,
  spike: LESSON_LINKS.toolTriage,
  'no-timeline': LESSON_LINKS.watchTerminal,
  'near-limit': LESSON_LINKS.checkpointing,
};

/** A verdict's title and what it usually means. */
export const VERDICT_TEXT: Readonly<Record<GpuVerdict, { title: string; meaning: string }>> = {
  flat: {
    title: 'Flat',
    meaning:
      'Memory settles after warm-up and stays put. If this run crashed, the OOM came from one step that needed more than usual: look at the OOM message or a snapshot.',
  },
  leak: {
    title: 'Climbing step by step: a leak',
    meaning:
      'Each stretch of the run ends higher than the last. Something keeps tensors alive across steps: a loss kept with its graph, outputs appended to a list, a growing cache.',
  },
  spike: {
    title: 'A sudden spike',
    meaning:
      'Memory jumps far above its usual level for a short time: one large batch, a long sequence, evaluation without torch.no_grad(), or the first optimizer step creating its states.',
  },
  'no-timeline': {
    title: 'One reading, no timeline',
    meaning: `A table pasted once (or a handful of readings) shows how much is used at that moment, not whether memory climbs, spikes or settles. For a timeline, log it while the job runs and read the log here: ${TIMELINE_COMMAND}`,
  },
  'near-limit': {
    title: 'Running near the limit',
    meaning:
      'The usual level is within 10 % of the card. Any longer sequence or fragmentation will tip it over; free some headroom with the techniques of lessons 2 to 4.',
  },
};

/** The evidence behind a GPU's verdict, as sentences. `timed`: whether sample times are milliseconds. */
export function describeGpuEvidence(pattern: GpuPattern, timed: boolean, words: ExplainWords = EXPLAIN_EN): string[] {
  const w = words.evidence;
  const e = pattern.evidence;
  const of = e.capacityKnown ? w.capacityOf(formatBinarySize(e.capacityBytes), percent(e.peakUsedBytes / e.capacityBytes)) : '';
  // Without a timeline there is a level to show, and nothing about time.
  if (pattern.verdict === 'no-timeline')
    return [
      e.activeSamples <= 1
        ? w.usedOnce(formatBinarySize(e.peakUsedBytes), of)
        : w.readings(formatBinarySize(e.peakUsedBytes), of, formatBinarySize(e.medianUsedBytes)),
    ];
  const lines = [
    w.peak(
      formatBinarySize(e.peakUsedBytes),
      timed ? w.atSeconds((e.peakAt / 1000).toFixed(0)) : w.atSample(e.peakAt + 1),
      formatBinarySize(e.medianUsedBytes),
      e.capacityKnown ? { bytes: formatBinarySize(e.capacityBytes), share: percent(e.medianUsedBytes / e.capacityBytes) } : null,
    ),
  ];
  const first = e.windowMedians[0];
  const last = e.windowMedians[e.windowMedians.length - 1];
  if (first !== undefined && last !== undefined && e.windowMedians.length > 1) {
    lines.push(w.windows(formatBinarySize(first), formatBinarySize(last), e.risingSteps));
  }
  lines.push(w.nearPeak(percent(e.timeNearPeakShare), e.activeSamples));
  return lines;
}

/** The sentences of `describeGpuEvidence`, from figures already formatted. */
const EVIDENCE_TEXT = {
  /** After a size: the GPU's capacity and the share of it. */
  capacityOf: (capacity: string, share: string): string => ` of ${capacity} (${share})`,
  usedOnce: (used: string, of: string): string => `Used ${used}${of} at the moment it was printed.`,
  readings: (peak: string, of: string, median: string): string => `Highest of the readings ${peak}${of}; their median ${median}.`,
  atSeconds: (seconds: string): string => `${seconds} s into the log`,
  atSample: (sample: number): string => `at sample ${sample}`,
  peak: (peak: string, when: string, median: string, capacity: { bytes: string; share: string } | null): string =>
    `Peak ${peak} ${when}; usual level (median) ${median}` +
    (capacity === null
      ? ' (the log has no memory.total, so the peak stands in for capacity).'
      : ` of ${capacity.bytes} (${capacity.share} used).`),
  windows: (first: string, last: string, rising: number): string =>
    `After warm-up, the median of each eighth of the run went from ${first} to ${last}, rising ${rising} time${rising === 1 ? '' : 's'}.`,
  nearPeak: (share: string, samples: number): string =>
    `Within 5 % of capacity of the peak for ${share} of the ${samples} active samples.`,
};

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
export function describeProcesses(
  processes: readonly GpuProcess[],
  gpus: readonly GpuSeries[],
  words: ExplainWords = EXPLAIN_EN,
): string[] {
  if (processes.length === 0) return [];
  const w = words.processes;
  const lines = ['', w.heading];
  const indexes = [...new Set(processes.map((p) => p.gpuIndex))].sort((a, b) => a - b);
  for (const index of indexes) {
    const onGpu = processes.filter((p) => p.gpuIndex === index).sort((a, b) => (b.usedBytes ?? -1) - (a.usedBytes ?? -1));
    const known = onGpu.reduce((sum, p) => sum + (p.usedBytes ?? 0), 0);
    const used = gpus.find((g) => g.index === index)?.samples.at(-1)?.usedBytes;
    lines.push(`  ${w.gpu(index, onGpu.length, formatBinarySize(known), used === undefined ? null : formatBinarySize(used))}`);
    for (const p of onGpu)
      lines.push(
        `    ${String(p.pid).padStart(8)}  ${p.type.padEnd(3)} ${(p.usedBytes === null ? w.notReported : formatBinarySize(p.usedBytes)).padStart(12)}  ${p.name}`,
      );
  }
  if (processes.some((p) => p.usedBytes === null)) lines.push(`  ${w.wddm}`);
  const shared = [...new Set(processes.map((p) => p.pid))].filter(
    (pid) => new Set(processes.filter((p) => p.pid === pid).map((p) => p.gpuIndex)).size > 1,
  );
  if (shared.length > 0) lines.push(`  ${w.shared(shared.join(', '))}`);
  return lines;
}

/** The MIG devices table: each instance's own memory, which the GPU row does not break down. */
export function describeMigDevices(devices: readonly MigDevice[], words: ExplainWords = EXPLAIN_EN): string[] {
  if (devices.length === 0) return [];
  return [
    '',
    words.mig.heading,
    ...devices.map(
      (d) =>
        `  GPU ${d.gpuIndex} MIG ${d.migIndex} (GI ${d.gpuInstance}, CI ${d.computeInstance}): ${words.mig.usedOf(formatBinarySize(d.usedBytes), formatBinarySize(d.totalBytes))}`,
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
export function describePlatform(oom: OomMessage, words: ExplainWords = EXPLAIN_EN): string | null {
  return oom.platform === 'cuda' ? null : words.platforms[oom.platform];
}

/** What the platforms other than CUDA change about the advice. */
const PLATFORM_TEXT: Readonly<Record<Exclude<OomPlatform, 'cuda'>, string>> = {
  hip: 'A ROCm (AMD) build: its allocator reads PYTORCH_HIP_ALLOC_CONF where CUDA builds read PYTORCH_CUDA_ALLOC_CONF, and rocm-smi stands in for nvidia-smi.',
  mps: 'Apple MPS backend: memory is shared with macOS and other apps, and the limit is the high watermark. CUDA-only remedies do not apply here: PYTORCH_CUDA_ALLOC_CONF (expandable_segments, max_split_size_mb), set_per_process_memory_fraction, nvidia-smi, and sharding across GPUs.',
};

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

/** The figures a finding's sentence quotes, formatted: its two sizes, the job's pid and the failing GPU ('?' when unknown). */
export interface FindingFigures {
  bytes: string;
  againstBytes: string;
  jobPid: string;
  gpu: string;
}

/** What a consistency finding means, in one sentence with its figures. */
export function describeFinding(finding: OomFinding, oom: OomMessage, words: ExplainWords = EXPLAIN_EN): string {
  const size = (bytes: number | null): string => (bytes === null ? '?' : formatBinarySize(bytes));
  return words.findings[finding.id]({
    bytes: size(finding.bytes),
    againstBytes: size(finding.againstBytes),
    jobPid: oom.jobPid === null ? '?' : String(oom.jobPid),
    gpu: oom.gpuIndex === null ? '?' : String(oom.gpuIndex),
  });
}

/** Each finding's sentence. */
const FINDING_TEXT: Readonly<Record<OomFindingId, (f: FindingFigures) => string>> = {
  truncated: () =>
    'The message is cut off before its last figure: the figures after the cut are unknown, not zero. Paste the whole line.',
  'allocated-above-total': ({ bytes: a, againstBytes: b }) =>
    `Allocated (${a}) is more than the total capacity (${b}). On Windows the WDDM driver lets CUDA spill into shared system memory, so the total counts only the card's own memory; work past it runs at PCIe speed.`,
  'request-above-total': ({ bytes: a, againstBytes: b }) => `The request (${a}) is larger than the GPU's total capacity (${b}).`,
  'free-covers-request': ({ bytes: a, againstBytes: b }) =>
    `The driver reported ${a} free, at least the ${b} requested, and the allocation still failed: the free memory is not in one piece that large, the allocator rounded the request up to a new segment, a cap applies, or another process took it in between. So no remedy below is called sufficient on the strength of free memory.`,
  'reserved-below-allocated': ({ bytes: a, againstBytes: b }) =>
    `Reserved (${b}) is below allocated (${a}), which cannot be: reserved includes allocated. The figures were printed at different moments or edited; the reserved-but-unallocated figure is left out.`,
  'reserved-above-process': ({ bytes: a, againstBytes: b }) =>
    `PyTorch's reserved total (${a}) is more than this process's memory in use (${b}), which cannot be on one GPU; the in-use figure may belong to another device or moment.`,
  'job-process-inferred': ({ bytes: a, againstBytes: b, jobPid }) =>
    `The message has no usable "this process" figure, so process ${jobPid} (${a}) is taken to be this job: it is the smallest listed process whose memory covers PyTorch's reserved total (${b}). In a container PyTorch cannot match its own process id.`,
  'figures-above-total': ({ bytes: a, againstBytes: b }) =>
    `Free memory plus every process's memory comes to ${a}, more than the total capacity (${b}): the figures were read at different moments.`,
  'summary-other-device': ({ gpu }) =>
    `The memory_summary pasted with it is for another device than GPU ${gpu}, where the request failed: its figures say nothing about this GPU (in a multi-GPU run, print the failing rank's summary).`,
  'summary-allocated-differs': ({ bytes: a, againstBytes: b }) =>
    `The memory_summary says ${a} allocated, the message ${b}: they were printed at different moments (the summary after tensors were freed or created), so read each for its own moment.`,
  'request-above-cap': ({ bytes: a, againstBytes: b }) =>
    `Allocated, other allocations and the request together (${a}) reach the maximum allowed (${b}) within the printed rounding: the MPS high watermark stopped it, not the hardware.`,
};

/** What each phase holds when memory runs out there, and how the step it died at changes the reading. */
const PHASE_TEXT: Readonly<Record<OomPhase, string>> = {
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
export function describeTraceback(traceback: OomTraceback, words: ExplainWords = EXPLAIN_EN): string {
  const w = words.traceback;
  const op = traceback.op === null ? '' : w.op(traceback.op);
  const own = traceback.userFrame === null ? '' : w.own(frameText(traceback.userFrame));
  const phase = traceback.phase === null ? w.noPhase(traceback.frames) : w.ranOut(words.phases[traceback.phase]);
  return `${phase}${op}${own}`;
}

/** The sentences of `describeTraceback`. */
const TRACEBACK_TEXT = {
  op: (op: string): string => ` The allocation was asked for by ${op}.`,
  own: (frame: string): string => ` Your code's last line on the way: ${frame}.`,
  noPhase: (frames: number): string =>
    `The traceback (${frames} frames) does not name a phase: forward, backward, the optimizer step, generation, evaluation or loading.`,
  ranOut: (phase: string): string => `It ran out ${phase}`,
};

/** What a remedy's words need, formatted: the paste's figures and the job's context. */
export interface RemedyFacts {
  /** The sentence on what it frees (`remedyFrees`), or '' when that cannot be known. */
  frees: string;
  /** The allocator's environment variable and the monitoring tool of the platform. */
  allocConf: string;
  smi: string;
  /** The other processes small enough to be a stray CUDA context each: pid and size. */
  strays: readonly { pid: number; size: string }[];
  platform: OomPlatform;
  nonPyTorch: string;
  tried: string;
  allocated: string;
  condition: RemedyCondition | null;
  phase: OomPhase | null;
  gpus: number | null;
}

/**
 * Title and reason of each OOM remedy; `oom` gives the platform and figures the wording depends on, `context` the
 * phase and the reader's GPU count.
 */
export function describeRemedy(
  remedy: OomRemedy,
  oom: OomMessage,
  context: OomContext = NO_CONTEXT,
  words: ExplainWords = EXPLAIN_EN,
): { title: string; reason: string } {
  return words.remedies[remedy.id]({
    frees: remedy.freesBytes === null ? '' : words.remedyFrees(formatBinarySize(remedy.freesBytes), remedy.sufficient),
    allocConf: oom.platform === 'hip' ? 'PYTORCH_HIP_ALLOC_CONF' : 'PYTORCH_CUDA_ALLOC_CONF',
    smi: oom.platform === 'hip' ? 'rocm-smi' : 'nvidia-smi',
    strays: oom.otherProcesses
      .filter((p) => p.bytes <= STRAY_CONTEXT_MAX_BYTES)
      .map((p) => ({ pid: p.pid, size: formatBinarySize(p.bytes) })),
    platform: oom.platform,
    nonPyTorch: formatBinarySize(oom.nonPyTorchBytes ?? 0),
    tried: formatBinarySize(oom.triedToAllocateBytes ?? 0),
    allocated: formatBinarySize(oom.allocatedBytes ?? 0),
    condition: remedy.condition,
    phase: context.phase,
    gpus: context.gpus,
  });
}

/** How much a remedy frees, and whether that alone is enough. */
const remedyFrees = (bytes: string, sufficient: boolean): string =>
  ` Frees up to ${bytes}.${sufficient ? ' On its own that leaves room for the failed request.' : ''}`;

/** Each remedy's title and reason. */
const REMEDY_TEXT: Readonly<Record<OomRemedyId, (f: RemedyFacts) => { title: string; reason: string }>> = {
  'expandable-segments': (f) => ({
    title: `Set ${f.allocConf}=expandable_segments:True`,
    reason: `Memory reserved by PyTorch but unallocated is cached in blocks too small or too scattered for the request. Expandable segments let the allocator grow one segment instead of leaving gaps (PyTorch versions without the option: max_split_size_mb).${f.frees}`,
  }),
  'other-ranks-contexts': (f) => ({
    title: 'Give each rank its own GPU before it touches CUDA',
    reason: `${f.strays.length} other processes hold small amounts on this GPU (${f.strays.map((p) => `${p.pid}: ${p.size}`).join(', ')}): the size of a CUDA context each. That is the classic "every rank opened a context on GPU 0": call torch.cuda.set_device(local_rank) (or set CUDA_VISIBLE_DEVICES per rank) before any CUDA call, including torch.load(map_location=…) and NCCL setup.${f.frees}`,
  }),
  'other-process': (f) => ({
    title: 'Stop the other process on this GPU',
    reason: `Memory in use outside this job: another training run, a notebook kernel, an inference server. Check with ${f.smi}.${f.frees}`,
  }),
  'memory-fraction-cap': (f) => ({
    title: 'Raise or remove set_per_process_memory_fraction',
    reason: `This process is capped below the card's capacity; the rest of the GPU is out of its reach.${f.frees}`,
  }),
  'mps-watermark': () => ({
    title: 'Raise PYTORCH_MPS_HIGH_WATERMARK_RATIO, or free memory on the Mac',
    reason:
      'The MPS allocator refuses to grow past its high watermark (a ratio of the recommended working set). A higher ratio lifts the cap; 0.0 removes it, and macOS may then swap or stall. Closing other apps frees the unified memory it shares.',
  }),
  'private-pools': (f) => ({
    title: 'Check CUDA Graphs and other private memory pools',
    reason: `Memory is held in private pools (CUDA Graphs, torch.compile's cudagraph trees), which only their own graphs can reuse.${f.frees}`,
  }),
  'non-pytorch-memory': (f) => ({
    title: 'Account for memory PyTorch does not allocate',
    reason:
      f.platform === 'mps'
        ? `${f.nonPyTorch} is allocated on the GPU outside the MPS allocator ("other allocations": Metal buffers of this process that PyTorch's cache does not hold). How much of it can go is unknown.`
        : `${f.nonPyTorch} of this process is not PyTorch's cache: the CUDA context, cuBLAS and cuDNN workspaces, NCCL buffers, or another library allocating directly. The context cannot be freed, so how much of it can go is unknown.`,
  }),
  'one-large-allocation': (f) => ({
    title: 'Find the one large tensor',
    reason: `The failed request alone is ${f.tried}, a large share of the GPU: typically logits over a big vocabulary, attention scores of a long sequence, or a batch far larger than usual. A memory snapshot shows which line asked for it.`,
  }),
  'reduce-activations': (f) => ({
    title: 'Shrink activations: smaller micro-batch, gradient checkpointing, mixed precision',
    reason: `PyTorch holds ${f.allocated} of live tensors. During training most of it is usually activations, which gradient accumulation, checkpointing and 16-bit autocast reduce; how much they free depends on the model, so it is not counted here.`,
  }),
  'shard-model-states': (f) =>
    f.condition === 'several-gpus'
      ? {
          title: 'If you have several GPUs: shard the model states (else offload them)',
          reason: `Live tensors fill over half the GPU. If weights, gradients and optimizer states are most of it, ZeRO/FSDP divides them across GPUs, which only helps when there are several; on one GPU, CPU offload or an 8-bit optimizer is the option. Say how many GPUs you have and this advice stops being conditional.`,
        }
      : {
          title: `Shard the model states across your ${f.gpus ?? 'several'} GPUs (ZeRO/FSDP)`,
          reason: `Live tensors fill over half the GPU. If weights, gradients and optimizer states are most of it, ZeRO-2/3 or FSDP keeps ${f.gpus === null ? 'a share' : `1/${f.gpus}`} of them on each GPU.`,
        },
  'offload-model-states': () => ({
    title: 'Offload the model states, or use an 8-bit optimizer (one GPU)',
    reason:
      'Live tensors fill over half the GPU, and with one GPU there is nothing to shard across: CPU offload of optimizer states (and parameters), an 8-bit optimizer, or LoRA on a frozen model shrink the model states instead.',
  }),
  'optimizer-step-peak': (f) => ({
    title: "Cut the optimizer step's peak: 8-bit optimizer, foreach=False, or states off the GPU",
    reason: `${f.gpus !== null && f.gpus >= 2 ? `ZeRO-1/2 across your ${f.gpus} GPUs divides the states; ` : ''}the multi-tensor (foreach) and fused implementations build temporary lists as large as a state for speed, and foreach=False avoids them; an 8-bit optimizer stores each state in a quarter of the bytes; CPU offload moves the states off the GPU. If it died on the first step, this is the problem; after many steps, look for what grew.`,
  }),
  'inference-memory': (f) =>
    f.phase === 'generate'
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
  'load-smaller-weights': () => ({
    title: 'Load the weights smaller, or spread them',
    reason:
      "Load in bf16/fp16 (torch_dtype), in 8 or 4 bits (bitsandbytes, GPTQ/AWQ checkpoints), or with device_map='auto' to place layers on other GPUs or the CPU.",
  }),
};

/** How a figure came to be: read as printed, or the rule that derived it. */
export function describeFigureSource(oom: OomMessage, figure: OomFigure, words: ExplainWords = EXPLAIN_EN): string {
  const rule = oom.derivedBy[figure];
  return rule === undefined ? words.figureSource.read : words.figureSource.derived(rule, figure, oom);
}

/** The words of `describeFigureSource`: `derived` gets the parser's rule, and the figure and message it came from. */
const FIGURE_SOURCE_TEXT = {
  read: 'read',
  derived: (rule: string, _figure: OomFigure, _oom: OomMessage): string => `derived: ${rule}`,
};

/** One line of the memory_summary reading: what a figure is and what it means for the reader. */
export interface SummaryReading {
  label: string;
  value: string;
  meaning: string;
}

/** The memory_summary figures that matter, each with its meaning. */
export function describeSummary(summary: MemorySummary, words: ExplainWords = EXPLAIN_EN): SummaryReading[] {
  const w = words.summary;
  const m = summary.metrics;
  const out: SummaryReading[] = [];
  const allocated = m.allocated?.all;
  const reserved = m.reserved?.all;
  if (allocated) {
    out.push({
      label: w.allocated.label,
      value: `${formatBinarySize(allocated.current)} / ${formatBinarySize(allocated.peak)}`,
      meaning: w.allocated.meaning,
    });
  }
  if (reserved) {
    out.push({
      label: w.reserved.label,
      value: `${formatBinarySize(reserved.current)} / ${formatBinarySize(reserved.peak)}`,
      meaning: w.reserved.meaning,
    });
  }
  if (allocated && reserved && reserved.current > 0) {
    const idle = reserved.current - allocated.current;
    out.push({
      label: w.idle.label,
      value: w.idle.value(formatBinarySize(idle), percent(idle / reserved.current)),
      meaning: idle > 0.3 * reserved.current ? w.idle.large : w.idle.small,
    });
  }
  const nonReleasable = m.nonReleasable?.all;
  if (nonReleasable) {
    out.push({
      label: w.nonReleasable.label,
      value: `${formatBinarySize(nonReleasable.current)} / ${formatBinarySize(nonReleasable.peak)}`,
      meaning: w.nonReleasable.meaning,
    });
  }
  const allocs = m.allocations?.all;
  if (allocs) {
    out.push({
      label: w.allocations.label,
      value: `${allocs.current} / ${allocs.peak} / ${allocs.totalAllocated}`,
      meaning: w.allocations.meaning,
    });
  }
  if (summary.cudaOoms !== null) {
    out.push({
      label: w.ooms.label,
      value: String(summary.cudaOoms),
      meaning: summary.cudaOoms > 0 ? w.ooms.some : w.ooms.none,
    });
  }
  if (summary.cudaMallocRetries !== null) {
    out.push({
      label: w.retries.label,
      value: String(summary.cudaMallocRetries),
      meaning: summary.cudaMallocRetries > 0 ? w.retries.some : w.retries.none,
    });
  }
  return out;
}

/** Each memory_summary reading's label and meaning. */
const SUMMARY_TEXT = {
  allocated: {
    label: 'Allocated now / at peak',
    meaning:
      'Live tensors (torch.cuda.memory_allocated and max_memory_allocated). The peak is what must fit; the current value is what is left between steps.',
  },
  reserved: {
    label: 'Reserved now / at peak',
    meaning: 'What the caching allocator holds from the driver (memory_reserved). nvidia-smi shows this plus the CUDA context.',
  },
  idle: {
    label: 'Reserved but not allocated',
    value: (idle: string, share: string): string => `${idle} (${share} of reserved)`,
    large:
      'A large idle cache: fine right after a peak, but if OOMs happen with this much cached, fragmentation is likely; try expandable_segments:True.',
    small: 'The cache is mostly in use.',
  },
  nonReleasable: {
    label: 'Non-releasable now / at peak',
    meaning:
      'Free pieces of split blocks that cannot be returned while the rest of their block is in use: the direct measure of fragmentation.',
  },
  allocations: {
    label: 'Allocations now / at peak / total',
    meaning: 'Tensors alive and created. A current count that grows between identical steps is a leak.',
  },
  ooms: {
    label: 'CUDA OOMs',
    some: 'This process already hit out-of-memory; the peaks above include the moment before it.',
    none: 'No out-of-memory errors so far in this process.',
  },
  retries: {
    label: 'cudaMalloc retries',
    some: 'The allocator had to free its whole cache and retry cudaMalloc: memory pressure that slows every step (a synchronisation each time) even when no OOM follows.',
    none: 'The cache never had to be flushed.',
  },
};

/**
 * What an `oom` entry of a snapshot's trace says: `_dump_snapshot()` called after a caught torch.OutOfMemoryError
 * records the failed request (size, the device's free memory, the stack that asked) at the end of the trace, so the
 * allocations live at that moment are what filled the GPU.
 */
export function describeSnapshotOom(oom: SnapshotOom, words: ExplainWords = EXPLAIN_EN): string {
  return words.snapshotOom({
    device: oom.device,
    requested: formatBinarySize(oom.requestedBytes),
    free: oom.deviceFreeBytes === null ? null : formatBinarySize(oom.deviceFreeBytes),
    active: formatBinarySize(oom.activeBytes),
    reserved: oom.reservedBytes > 0 ? formatBinarySize(oom.reservedBytes) : null,
  });
}

/** The figures of a snapshot's OOM entry, formatted; `reserved` is null when the trace saw no segment. */
export interface SnapshotOomFigures {
  device: number;
  requested: string;
  free: string | null;
  active: string;
  reserved: string | null;
}

const snapshotOomText = ({ device, requested, free, active, reserved }: SnapshotOomFigures): string =>
  `Device ${device}: a request for ${requested} failed${free === null ? '' : ` with ${free} free on the device`}.` +
  (reserved === null
    ? ` The trace had ${active} in live tensors at that moment.`
    : ` PyTorch then held ${active} in live tensors of ${reserved} reserved that the trace saw.`);

/** The name of each page a tool links to, for link text. */
const LINK_TITLES: Readonly<Record<LessonLink, string>> = {
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

/**
 * Every sentence above, as the words object the functions take: the CLI and the English page use this one; another
 * language's catalogue (src/i18n/messages/diagnose) gives its own of the same shape.
 */
export const EXPLAIN_EN = {
  verdicts: VERDICT_TEXT,
  evidence: EVIDENCE_TEXT,
  processes: {
    heading: 'Who holds the memory (the Processes table):',
    gpu: (index: number, count: number, listed: string, used: string | null): string =>
      `GPU ${index}: ${count} process${count === 1 ? '' : 'es'}, ${listed} listed${used === null ? '' : ` of ${used} used`}`,
    notReported: 'not reported',
    wddm: '"not reported": Windows (WDDM) does not give per-process memory; the GPU\'s total above still counts it.',
    shared: (pids: string): string =>
      `Process ${pids} holds memory on several GPUs: a job that touched more than its own GPU (a CUDA context each), or one that spans them by design.`,
  },
  mig: {
    heading: 'MIG instances (each has its own memory; a job sees only its instance):',
    usedOf: (used: string, total: string): string => `${used} of ${total}`,
  },
  wordings: WORDING_TEXT,
  platforms: PLATFORM_TEXT,
  cases: OOM_CASE_TEXT,
  findings: FINDING_TEXT,
  phases: PHASE_TEXT,
  traceback: TRACEBACK_TEXT,
  remedyFrees,
  remedies: REMEDY_TEXT,
  figureSource: FIGURE_SOURCE_TEXT,
  summary: SUMMARY_TEXT,
  snapshotOom: snapshotOomText,
  linkTitles: LINK_TITLES,
};

/** The shape of the words every language gives the functions above. */
export type ExplainWords = typeof EXPLAIN_EN;
