/**
 * Ranks what to try after an OOM from the figures in its message. A remedy that alone would free
 * enough for the failed request (its bytes plus the free memory cover "tried to allocate") comes
 * first; the rest follow by how many bytes they address. Thresholds are named below with their
 * reasons; the advice itself follows PyTorch's "CUDA semantics: memory management" notes.
 */
import { GIB } from '../base/bytes.ts';
import { LESSON_LINKS, type LessonLink } from './links.ts';
import type { OomMessage } from './oom-message.ts';

/** Remedy ids; the page and the CLI word them from `explain.ts`. */
export type OomRemedyId =
  | 'expandable-segments'
  | 'other-process'
  | 'memory-fraction-cap'
  | 'private-pools'
  | 'non-pytorch-memory'
  | 'one-large-allocation'
  | 'reduce-activations'
  | 'shard-model-states';

/** One ranked remedy. */
export interface OomRemedy {
  id: OomRemedyId;
  /** The memory this remedy addresses, in bytes (its ranking weight). */
  bytes: number;
  /** Whether this remedy alone would leave room for the failed request. */
  sufficient: boolean;
  href: LessonLink;
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

/** Ranked remedies for `oom`; empty when the message lacks the figures to decide. */
export function rankOomRemedies(oom: OomMessage): OomRemedy[] {
  const total = oom.totalBytes;
  const tried = oom.triedToAllocateBytes;
  if (total === null || tried === null) return [];
  const free = oom.freeBytes ?? 0;
  const remedies: Omit<OomRemedy, 'sufficient'>[] = [];
  const add = (id: OomRemedyId, bytes: number, href: LessonLink): void => {
    remedies.push({ id, bytes, href });
  };
  const reserved = oom.reservedBytes ?? 0;
  const idleCache = oom.reservedUnallocatedBytes ?? 0;
  if (idleCache > 0 && (idleCache >= LARGE_CACHE_SHARE * reserved || idleCache + free >= tried))
    add('expandable-segments', idleCache, LESSON_LINKS.fragmentation);
  const named = oom.otherProcesses.reduce((sum, p) => sum + p.bytes, 0);
  const outside = oom.processInUseBytes === null ? named : Math.max(named, total - free - oom.processInUseBytes);
  if (outside >= OTHER_PROCESS_SHARE * total) add('other-process', outside, LESSON_LINKS.watchTerminal);
  if (oom.allowedBytes !== null && oom.allowedBytes < total)
    add('memory-fraction-cap', total - oom.allowedBytes, LESSON_LINKS.toolTriage);
  if (oom.privatePoolsBytes !== null && oom.privatePoolsBytes > 0)
    add('private-pools', oom.privatePoolsBytes, LESSON_LINKS.threeNumbers);
  if (oom.nonPyTorchBytes !== null && oom.nonPyTorchBytes >= NON_PYTORCH_BYTES)
    add('non-pytorch-memory', oom.nonPyTorchBytes, LESSON_LINKS.threeNumbers);
  if (tried >= LARGE_REQUEST_SHARE * total) add('one-large-allocation', tried, LESSON_LINKS.toolSnapshot);
  const allocated = oom.allocatedBytes ?? 0;
  if (allocated > 0) add('reduce-activations', allocated, LESSON_LINKS.checkpointing);
  if (allocated >= MODEL_STATES_SHARE * total) add('shard-model-states', allocated, LESSON_LINKS.parallelism);
  // Reducing live tensors frees an unknown part of them, so it is never counted as sufficient.
  const alone = (r: Omit<OomRemedy, 'sufficient'>): boolean =>
    r.id !== 'reduce-activations' && r.id !== 'shard-model-states' && r.id !== 'one-large-allocation' && r.bytes + free >= tried;
  return remedies
    .map((r) => ({ ...r, sufficient: alone(r) }))
    .sort((a, b) => Number(b.sufficient) - Number(a.sufficient) || b.bytes - a.bytes);
}
