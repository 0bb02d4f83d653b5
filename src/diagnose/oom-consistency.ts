/**
 * Checks an OOM message's figures against each other before anything is explained: figures that cannot
 * all be true, or that change what the message means, become findings the tools print, instead of being
 * smoothed over. The relations come from the allocator's own accounting (c10/cuda/CUDACachingAllocator.cpp):
 * reserved = allocated + reserved-but-unallocated; this process's memory = reserved + non-PyTorch memory;
 * free is what the driver reported after the allocator had released its cache and retried.
 */
import { GIB } from '../base/bytes.ts';
import type { MemorySummary } from './memory-summary.ts';
import type { OomMessage } from './oom-message.ts';

/** What a check found. */
export type OomFindingId =
  | 'truncated'
  | 'allocated-above-total'
  | 'request-above-total'
  | 'free-covers-request'
  | 'reserved-below-allocated'
  | 'reserved-above-process'
  | 'job-process-inferred'
  | 'figures-above-total'
  | 'request-above-cap'
  | 'summary-other-device'
  | 'summary-allocated-differs';

/** One finding, with the figures that show it (bytes; null where a side is unknown). */
export interface OomFinding {
  id: OomFindingId;
  /** The larger side of the comparison, or the figure the finding is about. */
  bytes: number | null;
  /** The side it was compared with. */
  againstBytes: number | null;
}

/**
 * Two-decimal printing leaves each figure within 0.005 of its unit; a comparison of two GiB figures is
 * trusted only beyond 0.01 GiB, so rounding alone never raises a finding.
 */
export const ROUNDING_SLACK_BYTES = 0.01 * GIB;

/** Every finding for `oom`, most consequential first. */
export function checkOomConsistency(oom: OomMessage): OomFinding[] {
  const findings: OomFinding[] = [];
  const add = (id: OomFindingId, bytes: number | null, againstBytes: number | null): void => {
    findings.push({ id, bytes, againstBytes });
  };
  const above = (a: number | null, b: number | null): boolean => a !== null && b !== null && a > b + ROUNDING_SLACK_BYTES;
  const { totalBytes: total, triedToAllocateBytes: tried, freeBytes: free, allocatedBytes: allocated } = oom;
  if (oom.truncated) add('truncated', null, null);
  if (above(tried, total)) add('request-above-total', tried, total);
  if (above(allocated, total)) add('allocated-above-total', allocated, total);
  if (free !== null && tried !== null && free >= tried) add('free-covers-request', free, tried);
  if (oom.wording === 'reserved-in-total' && above(allocated, oom.reservedBytes))
    add('reserved-below-allocated', allocated, oom.reservedBytes);
  if (oom.jobPid === null && above(oom.reservedBytes, oom.processInUseBytes) && (oom.processInUseBytes ?? 0) > 0)
    add('reserved-above-process', oom.reservedBytes, oom.processInUseBytes);
  if (oom.derivedBy.processInUseBytes !== undefined) add('job-process-inferred', oom.processInUseBytes, oom.reservedBytes);
  if (total !== null && free !== null && oom.processInUseBytes !== null) {
    const accounted = free + oom.processInUseBytes + oom.otherProcesses.reduce((sum, p) => sum + p.bytes, 0);
    // Each summed figure carries its own rounding.
    if (accounted > total + (2 + oom.otherProcesses.length) * ROUNDING_SLACK_BYTES) add('figures-above-total', accounted, total);
  }
  if (oom.platform === 'mps' && allocated !== null && tried !== null && oom.allowedBytes !== null) {
    const wanted = allocated + (oom.nonPyTorchBytes ?? 0) + tried;
    // MPS raises this message when allocated + other + request passes the watermark; three rounded figures
    // summing to just under it still reached it.
    if (wanted + 3 * ROUNDING_SLACK_BYTES >= oom.allowedBytes) add('request-above-cap', wanted, oom.allowedBytes);
  }
  return findings;
}

/** Whether the driver's free memory alone covered the request: then no remedy may be called sufficient. */
export const freeCoveredRequest = (findings: readonly OomFinding[]): boolean =>
  findings.some((f) => f.id === 'free-covers-request');

/**
 * Relative gap beyond which the summary's current allocated and the message's allocated are not one moment: the
 * summary floors to whole MiB or GiB (`_format_size`), so only a gap over 5 % means more than rounding.
 */
export const SUMMARY_GAP_SHARE = 0.05;

/**
 * Checks a memory_summary pasted with `oom` against it: a summary of another device says nothing about this GPU, and
 * one whose allocated figure is far from the message's was printed at another moment (after tensors were freed).
 */
export function checkSummaryAgainstOom(oom: OomMessage, summary: MemorySummary): OomFinding[] {
  if (summary.deviceId !== null && oom.gpuIndex !== null && summary.deviceId !== oom.gpuIndex)
    return [{ id: 'summary-other-device', bytes: null, againstBytes: null }];
  const inSummary = summary.metrics.allocated?.all.current;
  const inMessage = oom.allocatedBytes;
  if (inSummary === undefined || inMessage === null) return [];
  const gap = Math.abs(inSummary - inMessage);
  return gap > SUMMARY_GAP_SHARE * Math.max(inSummary, inMessage) + ROUNDING_SLACK_BYTES
    ? [{ id: 'summary-allocated-differs', bytes: inSummary, againstBytes: inMessage }]
    : [];
}
