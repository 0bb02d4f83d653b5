/**
 * Names the case an OOM message shows (a request larger than the card, a cap, another process,
 * fragmentation, or a plain shortage) and ranks what to try for that case. Each remedy says how
 * much it frees when the message allows knowing it, and is called sufficient only when that amount
 * plus the free memory covers the request, and never when the free memory alone already did.
 * Thresholds are named below with their reasons; the advice follows PyTorch's "CUDA semantics:
 * memory management" and "MPS backend" notes.
 */
import { GIB } from '../base/bytes.ts';
import { LESSON_LINKS, type LessonLink } from './links.ts';
import { freeCoveredRequest, ROUNDING_SLACK_BYTES, type OomFinding } from './oom-consistency.ts';
import type { OomMessage } from './oom-message.ts';
import type { OomPhase } from './oom-traceback.ts';

/** Remedy ids; the page and the CLI word them from `explain.ts`. */
export type OomRemedyId =
  | 'expandable-segments'
  | 'other-process'
  | 'other-ranks-contexts'
  | 'memory-fraction-cap'
  | 'mps-watermark'
  | 'private-pools'
  | 'non-pytorch-memory'
  | 'one-large-allocation'
  | 'reduce-activations'
  | 'shard-model-states'
  | 'offload-model-states'
  | 'optimizer-step-peak'
  | 'inference-memory'
  | 'load-smaller-weights';

/** What kind of OOM this is; it decides which remedies lead. */
export type OomCase = 'request-too-large' | 'cap' | 'free-but-refused' | 'another-process' | 'fragmentation' | 'shortage';

/** A fact the paste does not hold that a remedy depends on. */
export type RemedyCondition = 'several-gpus';

/** One ranked remedy. */
export interface OomRemedy {
  id: OomRemedyId;
  /** What it would free, in bytes, when the message allows knowing it (an upper bound); null when it cannot be known. */
  freesBytes: number | null;
  /** Whether this remedy alone would leave room for the failed request. */
  sufficient: boolean;
  /** A fact the paste lacks that decides whether the remedy applies; worded as a condition. */
  condition: RemedyCondition | null;
  href: LessonLink;
}

/** What the paste around the message, or the reader, says about the job: it changes which remedies apply. */
export interface OomContext {
  /** The phase the traceback names (`readOomTraceback`), or null when the paste has none. */
  phase: OomPhase | null;
  /** How many GPUs the reader has (they said so: `--gpus`, the page's field), or null when unknown. */
  gpus: number | null;
}

/** No traceback and no GPU count: the message alone. */
export const NO_CONTEXT: OomContext = { phase: null, gpus: null };

/** The case and its ranked remedies. */
export interface OomRemedyPlan {
  case: OomCase;
  remedies: OomRemedy[];
}

/** Reserved-but-unallocated counts as large from 10 % of what PyTorch reserved (the message's "if … is large"). */
export const LARGE_CACHE_SHARE = 0.1;
/** Memory held outside this process matters from 5 % of the GPU. */
export const OTHER_PROCESS_SHARE = 0.05;
/** Non-PyTorch memory in this process matters from 1 GiB (a CUDA context is a few hundred MiB, lesson 1). */
export const NON_PYTORCH_BYTES = GIB;
/** A single request of a quarter of the GPU points at one tensor (logits, attention scores). */
export const LARGE_REQUEST_SHARE = 0.25;
/** Live tensors over half the GPU: model states are worth sharding or offloading. */
export const MODEL_STATES_SHARE = 0.5;
/**
 * Another rank's stray CUDA context on this GPU holds a few hundred MiB to about 1.5 GiB (context plus
 * cuBLAS/NCCL buffers); a process holding at most 2 GiB is taken for one.
 */
export const STRAY_CONTEXT_MAX_BYTES = 2 * GIB;

/** The remedies that lead in each case, in order. */
const LEADS: Readonly<Record<OomCase, readonly OomRemedyId[]>> = {
  'request-too-large': ['one-large-allocation'],
  cap: ['memory-fraction-cap', 'mps-watermark'],
  'free-but-refused': ['other-process', 'one-large-allocation'],
  'another-process': ['other-ranks-contexts', 'other-process'],
  fragmentation: ['expandable-segments'],
  shortage: [],
};

/** The remedies a phase adds. */
type PhaseRemedyId = Extract<OomRemedyId, 'optimizer-step-peak' | 'inference-memory' | 'load-smaller-weights'>;

/** The remedy a phase adds, ranked right after the case's leads: it names what that phase holds. */
const PHASE_LEADS: Readonly<Partial<Record<OomPhase, PhaseRemedyId>>> = {
  'optimizer-step': 'optimizer-step-peak',
  generate: 'inference-memory',
  evaluation: 'inference-memory',
  loading: 'load-smaller-weights',
};

/** The lesson behind each phase's remedy: 8-bit and offloaded optimizer states; the KV cache and quantized weights. */
const PHASE_LEAD_LINKS: Readonly<Record<PhaseRemedyId, LessonLink>> = {
  'optimizer-step-peak': LESSON_LINKS.offload,
  'inference-memory': LESSON_LINKS.inference,
  'load-smaller-weights': LESSON_LINKS.inference,
};

/** Phases with no backward to come, where activations are not kept and checkpointing does nothing. */
const INFERENCE_PHASES: ReadonlySet<OomPhase> = new Set(['generate', 'evaluation', 'loading']);

/** Bytes held on the GPU by processes other than this job: those named, or what the figures leave unexplained. */
function outsideBytes(oom: OomMessage): number {
  const named = oom.otherProcesses.reduce((sum, p) => sum + p.bytes, 0);
  if (oom.totalBytes === null || oom.freeBytes === null || oom.processInUseBytes === null) return named;
  return Math.max(named, oom.totalBytes - oom.freeBytes - oom.processInUseBytes);
}

/** The case `oom` shows, from its figures and the consistency findings. */
export function classifyOom(oom: OomMessage, findings: readonly OomFinding[]): OomCase {
  if (findings.some((f) => f.id === 'request-above-total')) return 'request-too-large';
  if (findings.some((f) => f.id === 'request-above-cap')) return 'cap';
  const tried = oom.triedToAllocateBytes ?? 0;
  const used = oom.reservedBytes ?? oom.allocatedBytes;
  if (oom.platform !== 'mps' && oom.allowedBytes !== null && oom.totalBytes !== null && oom.allowedBytes < oom.totalBytes) {
    if (used !== null && used + tried > oom.allowedBytes + ROUNDING_SLACK_BYTES) return 'cap';
  }
  if (freeCoveredRequest(findings)) return 'free-but-refused';
  const total = oom.totalBytes ?? 0;
  const outside = outsideBytes(oom);
  const idle = oom.reservedUnallocatedBytes ?? 0;
  if (total > 0 && outside >= OTHER_PROCESS_SHARE * total && outside >= idle) return 'another-process';
  // The cache alone holds as many bytes as the request, or a large cache and the free memory together do.
  const largeCache = idle >= LARGE_CACHE_SHARE * (oom.reservedBytes ?? 0);
  if (idle > 0 && (idle >= tried || (largeCache && idle + (oom.freeBytes ?? 0) >= tried))) return 'fragmentation';
  return 'shortage';
}

/**
 * Ranked remedies for `oom` given its consistency `findings` and what is known around it (`context`); empty when the
 * message lacks the figures to decide.
 */
export function rankOomRemedies(
  oom: OomMessage,
  findings: readonly OomFinding[],
  context: OomContext = NO_CONTEXT,
): OomRemedyPlan {
  const caseOf = classifyOom(oom, findings);
  const tried = oom.triedToAllocateBytes;
  if (tried === null || (oom.platform !== 'mps' && oom.totalBytes === null)) return { case: caseOf, remedies: [] };
  const total = oom.totalBytes ?? oom.allowedBytes ?? 0;
  const free = oom.freeBytes ?? 0;
  // When free memory alone covered the request, freeing more cannot be shown to be what was missing.
  const freeAlreadyCovered = freeCoveredRequest(findings);
  const remedies: OomRemedy[] = [];
  const add = (id: OomRemedyId, freesBytes: number | null, href: LessonLink, condition: RemedyCondition | null = null): void => {
    const sufficient = !freeAlreadyCovered && freesBytes !== null && freesBytes + free >= tried;
    remedies.push({ id, freesBytes, sufficient, condition, href });
  };
  const reserved = oom.reservedBytes ?? 0;
  const idleCache = oom.reservedUnallocatedBytes ?? 0;
  // expandable_segments is a CUDA (and ROCm) allocator option; MPS has no such setting.
  if (oom.platform !== 'mps' && idleCache > 0 && (idleCache >= LARGE_CACHE_SHARE * reserved || idleCache + free >= tried))
    add('expandable-segments', idleCache, LESSON_LINKS.fragmentation);
  const strayContexts = oom.otherProcesses.filter((p) => p.bytes <= STRAY_CONTEXT_MAX_BYTES);
  const strayBytes = strayContexts.reduce((sum, p) => sum + p.bytes, 0);
  // The classic: every rank touched GPU 0 before choosing its own device, and together their contexts took the room.
  if (strayContexts.length >= 2 && strayBytes + free >= tried) add('other-ranks-contexts', strayBytes, LESSON_LINKS.parallelism);
  const outside = outsideBytes(oom);
  const outsideNotContexts = remedies.some((r) => r.id === 'other-ranks-contexts') ? outside - strayBytes : outside;
  if (total > 0 && outsideNotContexts >= OTHER_PROCESS_SHARE * total)
    add('other-process', outsideNotContexts, LESSON_LINKS.watchTerminal);
  if (oom.platform === 'mps') {
    if (oom.allowedBytes !== null) add('mps-watermark', null, LESSON_LINKS.toolTriage);
  } else if (oom.allowedBytes !== null && oom.totalBytes !== null && oom.allowedBytes < oom.totalBytes)
    add('memory-fraction-cap', oom.totalBytes - oom.allowedBytes, LESSON_LINKS.toolTriage);
  if (oom.privatePoolsBytes !== null && oom.privatePoolsBytes > 0)
    add('private-pools', oom.privatePoolsBytes, LESSON_LINKS.threeNumbers);
  // The CUDA context cannot be freed, so how much of this memory can go is unknown.
  if (oom.nonPyTorchBytes !== null && oom.nonPyTorchBytes >= NON_PYTORCH_BYTES)
    add('non-pytorch-memory', null, LESSON_LINKS.threeNumbers);
  if (total > 0 && tried >= LARGE_REQUEST_SHARE * total) add('one-large-allocation', null, LESSON_LINKS.toolSnapshot);
  const allocated = oom.allocatedBytes ?? 0;
  const { phase, gpus } = context;
  const phaseLead = phase === null ? undefined : PHASE_LEADS[phase];
  // What the phase holds cannot be counted from the message: never sufficient on its own.
  if (phaseLead !== undefined) add(phaseLead, null, PHASE_LEAD_LINKS[phaseLead]);
  // Only part of the live tensors can go, and the message does not say which part: never sufficient.
  if (allocated > 0 && (phase === null || !INFERENCE_PHASES.has(phase)))
    add('reduce-activations', null, LESSON_LINKS.checkpointing);
  // Sharding needs several GPUs: conditional until the reader says how many (an Apple GPU is always one).
  if (oom.platform !== 'mps' && phase !== 'loading' && total > 0 && allocated >= MODEL_STATES_SHARE * total) {
    if (gpus === null) add('shard-model-states', null, LESSON_LINKS.parallelism, 'several-gpus');
    else if (gpus >= 2) add('shard-model-states', null, LESSON_LINKS.parallelism);
    else add('offload-model-states', null, LESSON_LINKS.offload);
  }
  const leads = phaseLead === undefined ? LEADS[caseOf] : [...LEADS[caseOf], phaseLead];
  const rank = (r: OomRemedy): number => {
    const lead = leads.indexOf(r.id);
    return lead >= 0 ? lead : leads.length;
  };
  remedies.sort(
    (a, b) => rank(a) - rank(b) || Number(b.sufficient) - Number(a.sufficient) || (b.freesBytes ?? -1) - (a.freesBytes ?? -1),
  );
  return { case: caseOf, remedies };
}
