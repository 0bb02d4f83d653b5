/** The `diagnose` command: reads what a run printed (FILE, or standard input for `-`) and explains it. */
import { PROGRAM_NAME } from '../base/command-line.ts';
import { detectKind, type InputKind } from '../diagnose/detect.ts';
import { describeGpuEvidence, describeRemedy, describeSnapshotOom, describeSummary, VERDICT_TEXT } from '../diagnose/explain.ts';
import { classifyGpuPattern } from '../diagnose/gpu-pattern.ts';
import { parseMemorySummary } from '../diagnose/memory-summary.ts';
import type { UnreadNote } from '../diagnose/notes.ts';
import { parseNvidiaSmi } from '../diagnose/nvidia-smi.ts';
import { parseOomMessage } from '../diagnose/oom-message.ts';
import { rankOomRemedies } from '../diagnose/oom-remedies.ts';
import { readSnapshot } from '../diagnose/snapshot.ts';
import { formatBinarySize } from '../base/bytes.ts';
import { scaffoldHelpLines, type Command, type CommandAnswer } from './command.ts';
import { JSON_SCHEMA_URLS } from './json-schemas.ts';

function diagnoseHelp(): string {
  return [
    `Usage: ${PROGRAM_NAME} diagnose FILE [--json]`,
    '',
    'Reads what your GPU and PyTorch printed and explains it. FILE is one of:',
    '  nvidia-smi output    --query-gpu=...,memory.used,... --format=csv (-l 1), or plain nvidia-smi tables',
    '  an OOM message       "CUDA out of memory. Tried to allocate ...", traceback around it is fine',
    '  memory_summary       torch.cuda.memory_summary() output',
    '  a memory snapshot    the pickle from torch.cuda.memory._dump_snapshot() (read as data, never run)',
    `Use - to read standard input:  nvidia-smi --query-gpu=... --format=csv -l 1 | ${PROGRAM_NAME} diagnose -`,
    '',
    ...scaffoldHelpLines(),
    '',
    'Exit codes: 0 read, 2 unreadable or refused input.',
    '',
  ].join('\n');
}

const unreadLines = (unread: UnreadNote[]): string[] =>
  unread.length === 0 ? [] : ['', 'Not read:', ...unread.map((n) => `  ${n.line > 0 ? `line ${n.line}: ` : ''}${n.message}`)];

/** What an input of a known kind says: its JSON (without `schema`) and its text lines. */
interface Reading<Json> {
  readonly json: Json;
  readonly text: string[];
}

/** An input of a known kind with nothing in it to read. */
interface Unreadable {
  readonly error: string;
}

// Built through these two, each analyser's return type stays a plain union of the two shapes (a literal would gain
// optional `undefined` fields) and the JSON type below is inferred from what the analysers really return.
const reading = <Json>(json: Json, text: string[]): Reading<Json> => ({ json, text });
const unreadable = (error: string): Unreadable => ({ error });

function analyzeNvidiaSmi(text: string) {
  const log = parseNvidiaSmi(text);
  const gpus = log.gpus.flatMap((gpu) => {
    const pattern = classifyGpuPattern(gpu.samples, gpu.totalBytes);
    return pattern ? [{ gpu, pattern }] : [];
  });
  if (gpus.length === 0) return unreadable(`no GPU memory samples found${log.unread[0] ? `: ${log.unread[0].message}` : ''}`);
  const lines: string[] = [`nvidia-smi log (${log.form}), ${gpus.length} GPU${gpus.length === 1 ? '' : 's'}`];
  for (const { gpu, pattern } of gpus) {
    lines.push(
      '',
      `GPU ${gpu.index}${gpu.name ? ` (${gpu.name})` : ''}: ${VERDICT_TEXT[pattern.verdict].title}, ${gpu.samples.length} samples`,
    );
    for (const line of describeGpuEvidence(pattern, log.timed)) lines.push(`  ${line}`);
    lines.push(`  ${VERDICT_TEXT[pattern.verdict].meaning}`, `  Next: ${VERDICT_TEXT[pattern.verdict].href}`);
  }
  return reading(
    {
      kind: 'nvidia-smi' as const,
      form: log.form,
      gpus: gpus.map(({ gpu, pattern }) => ({
        index: gpu.index,
        name: gpu.name,
        verdict: pattern.verdict,
        peakUsedBytes: pattern.evidence.peakUsedBytes,
        totalBytes: gpu.totalBytes,
        samples: gpu.samples.length,
        evidence: pattern.evidence,
      })),
      unread: log.unread,
    },
    [...lines, ...unreadLines(log.unread)],
  );
}

function analyzeOom(text: string) {
  const { message, unread } = parseOomMessage(text);
  if (message === null) return unreadable('no CUDA out-of-memory message found');
  const remedies = rankOomRemedies(message);
  const size = (bytes: number | null): string => (bytes === null ? 'not in the message' : formatBinarySize(bytes));
  const lines = [
    `CUDA out-of-memory message (${message.wording} wording)${message.gpuIndex === null ? '' : `, GPU ${message.gpuIndex}`}`,
    '',
    `  Tried to allocate             ${size(message.triedToAllocateBytes)}`,
    `  Total capacity                ${size(message.totalBytes)}`,
    `  Free                          ${size(message.freeBytes)}`,
    `  In use by this process        ${size(message.processInUseBytes)}`,
    `  Allocated by PyTorch          ${size(message.allocatedBytes)}`,
    `  Reserved but unallocated      ${size(message.reservedUnallocatedBytes)}`,
  ];
  if (message.privatePoolsBytes !== null) lines.push(`  In private pools              ${size(message.privatePoolsBytes)}`);
  if (message.nonPyTorchBytes !== null) lines.push(`  Not PyTorch's (context etc.)  ${size(message.nonPyTorchBytes)}`);
  for (const p of message.otherProcesses) lines.push(`  Process ${p.pid}`.padEnd(32) + formatBinarySize(p.bytes));
  if (message.fragmentationShare !== null)
    lines.push(`  Fragmentation share           ${(message.fragmentationShare * 100).toFixed(1)} % of reserved is unallocated`);
  lines.push('', 'What to try, most promising first (sizes are rounded as PyTorch printed them):');
  remedies.forEach((r, i) => {
    const { title, reason } = describeRemedy(r);
    lines.push(`  ${i + 1}. ${title}`, `     ${reason}`, `     ${r.href}`);
  });
  return reading(
    {
      kind: 'oom-message' as const,
      wording: message.wording,
      gpuIndex: message.gpuIndex,
      triedToAllocateBytes: message.triedToAllocateBytes,
      totalBytes: message.totalBytes,
      freeBytes: message.freeBytes,
      processInUseBytes: message.processInUseBytes,
      allocatedBytes: message.allocatedBytes,
      reservedBytes: message.reservedBytes,
      reservedUnallocatedBytes: message.reservedUnallocatedBytes,
      privatePoolsBytes: message.privatePoolsBytes,
      allowedBytes: message.allowedBytes,
      nonPyTorchBytes: message.nonPyTorchBytes,
      otherProcesses: message.otherProcesses,
      fragmentationShare: message.fragmentationShare,
      remedies: remedies.map((r) => ({ id: r.id, bytes: r.bytes, sufficient: r.sufficient, href: r.href })),
      unread,
    },
    [...lines, ...unreadLines(unread)],
  );
}

function analyzeSummary(text: string) {
  const summary = parseMemorySummary(text);
  const allocated = summary.metrics.allocated?.all;
  const reserved = summary.metrics.reserved?.all;
  if (!allocated || !reserved)
    return unreadable('the memory_summary table has no readable "Allocated memory" and "GPU reserved memory" rows');
  const lines = [`torch.cuda.memory_summary()${summary.deviceId === null ? '' : `, device ${summary.deviceId}`}`, ''];
  for (const reading of describeSummary(summary)) lines.push(`  ${reading.label}: ${reading.value}`, `    ${reading.meaning}`);
  return reading(
    {
      kind: 'memory-summary' as const,
      deviceId: summary.deviceId,
      allocatedBytes: allocated.current,
      reservedBytes: reserved.current,
      peakAllocatedBytes: allocated.peak,
      peakReservedBytes: reserved.peak,
      nonReleasableBytes: summary.metrics.nonReleasable?.all.current ?? null,
      cudaOoms: summary.cudaOoms,
      cudaMallocRetries: summary.cudaMallocRetries,
      metrics: summary.metrics,
      unread: summary.unread,
    },
    [...lines, ...unreadLines(summary.unread)],
  );
}

function analyzeSnapshotFile(bytes: Uint8Array) {
  const read = readSnapshot(bytes);
  if (!read.ok) return unreadable(read.refused ? `refused: ${read.message}` : read.message);
  const { analysis } = read;
  const lines = [
    `Memory snapshot, ${analysis.devices.length} device${analysis.devices.length === 1 ? '' : 's'}, peak active ${formatBinarySize(analysis.peakActiveBytes)}`,
  ];
  for (const d of analysis.devices) {
    lines.push(
      '',
      `Device ${d.device}: ${d.traceEvents} trace events, peak active ${formatBinarySize(d.peakActiveBytes)}, reserved at the end ${formatBinarySize(d.reservedBytes)} in ${d.segments.length} segments` +
        (d.fragmentationShare === null ? '' : ` (${(d.fragmentationShare * 100).toFixed(1)} % of it not in use)`),
    );
    lines.push('  Largest live allocations at the peak:');
    for (const a of d.largestAtPeak.slice(0, 5)) {
      const frame = a.frames.find((f) => f.filename.endsWith('.py')) ?? a.frames[0];
      lines.push(
        `    ${formatBinarySize(a.sizeBytes).padStart(11)}  ${frame ? `${frame.filename}:${frame.line} ${frame.name}` : '(no stack recorded)'}`,
      );
    }
  }
  for (const oom of analysis.oomEvents)
    lines.push('', `OOM: ${describeSnapshotOom(oom.requestedBytes, oom.deviceFreeBytes, oom.device)}`);
  return reading(
    {
      kind: 'snapshot' as const,
      peakActiveBytes: analysis.peakActiveBytes,
      oomEvents: analysis.oomEvents,
      devices: analysis.devices.map((d) => ({
        device: d.device,
        traceEvents: d.traceEvents,
        peakActiveBytes: d.peakActiveBytes,
        reservedBytes: d.reservedBytes,
        activeBytesAtEnd: d.activeBytesAtEnd,
        fragmentationShare: d.fragmentationShare,
        segments: d.segments.length,
        largestAtPeak: d.largestAtPeak,
      })),
      unread: analysis.unread,
    },
    [...lines, ...unreadLines(analysis.unread)],
  );
}

const ANALYZERS = {
  'nvidia-smi': (_: Uint8Array, text: string) => analyzeNvidiaSmi(text),
  'oom-message': (_: Uint8Array, text: string) => analyzeOom(text),
  'memory-summary': (_: Uint8Array, text: string) => analyzeSummary(text),
  snapshot: (bytes: Uint8Array) => analyzeSnapshotFile(bytes),
} satisfies Record<InputKind, (bytes: Uint8Array, text: string) => Reading<unknown> | Unreadable>;

/**
 * What `diagnose --json` prints, and what the library's `diagnose` returns: one shape per kind of input (`kind`),
 * described by public/schemas/diagnose-v1.json.
 */
export type DiagnoseJson = { readonly schema: typeof JSON_SCHEMA_URLS.diagnose } & Exclude<
  ReturnType<(typeof ANALYZERS)[InputKind]>,
  Unreadable
>['json'];

const sourceName = (source: string): string => (source === '-' ? 'standard input' : source);

/** `gpu-memory-lab diagnose FILE`: what the file is, read and explained. */
export const diagnoseCommand: Command<DiagnoseJson> = {
  name: 'diagnose',
  summary: 'reads an nvidia-smi log, an OOM message, memory_summary() output or a snapshot pickle',
  flagTables: [],
  operands: true,
  help: diagnoseHelp,
  run(_values, operands, io): CommandAnswer<DiagnoseJson> {
    const [source] = operands;
    if (source === undefined || operands.length !== 1) return { usage: 'give exactly one FILE, or - for standard input' };
    let bytes: Uint8Array;
    try {
      bytes = io.read(source);
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
      return { refused: `cannot read ${sourceName(source)}${code ? ` (${code})` : ''}` };
    }
    if (bytes.length === 0) return { refused: `${sourceName(source)} is empty` };
    let text: string | null = null;
    const asText = (): string => (text ??= new TextDecoder('utf-8').decode(bytes));
    const kind = detectKind(bytes, asText);
    if (kind === null)
      return { refused: 'not nvidia-smi output, an OOM message, a memory_summary table or a memory snapshot pickle' };
    const analysis = ANALYZERS[kind](bytes, kind === 'snapshot' ? '' : asText());
    if ('error' in analysis) return { refused: analysis.error };
    return {
      json: () => ({ schema: JSON_SCHEMA_URLS.diagnose, ...analysis.json }),
      text: () => `${analysis.text.join('\n')}\n`,
    };
  },
};
