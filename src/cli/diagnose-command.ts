/** The `diagnose` command: reads what a run printed (FILE, or standard input for `-`) and explains it. */
import { PROGRAM_NAME } from '../base/command-line.ts';
import { detectKind, type InputKind } from '../diagnose/detect.ts';
import {
  describeFigureSource,
  describeFinding,
  describeGpuEvidence,
  describeGpuIdentity,
  describeMigDevices,
  describeProcesses,
  NVIDIA_SMI_FORM_TEXT,
  describePlatform,
  describeRemedy,
  describeSnapshotOom,
  describeSummary,
  describeTraceback,
  OOM_CASE_TEXT,
  VERDICT_LINKS,
  VERDICT_TEXT,
  WORDING_TEXT,
} from '../diagnose/explain.ts';
import { classifyGpuPattern } from '../diagnose/gpu-pattern.ts';
import { parseMemorySummary, type MemorySummary } from '../diagnose/memory-summary.ts';
import type { UnreadNote } from '../diagnose/notes.ts';
import { parseNvidiaSmi } from '../diagnose/nvidia-smi.ts';
import { KNOWN_ERROR_NAMES, recognizeKnownError } from '../diagnose/known-errors.ts';
import { analyzeOomText } from '../diagnose/oom-analysis.ts';
import type { OomFigure } from '../diagnose/oom-message.ts';
import type { OomTraceback } from '../diagnose/oom-traceback.ts';
import { readSnapshot } from '../diagnose/snapshot.ts';
import { formatBinarySize } from '../base/bytes.ts';
import { createFlagTable, createOptionReader, numberFlag, parseFlags } from '../memory/index.ts';
import {
  fieldErrorsLine,
  flagHelpLines,
  scaffoldHelpLines,
  type ArgValues,
  type Command,
  type CommandAnswer,
} from './command.ts';
import { JSON_SCHEMA_URLS } from './json-schemas.ts';

/** What the reader can say that no input shows. */
const DIAGNOSE_FLAGS = createFlagTable([
  numberFlag({
    key: 'gpus',
    flag: 'gpus',
    max: 1_000_000,
    help: 'how many GPUs the job has: sharding advice stops being conditional (OOM messages)',
  }),
]);

function diagnoseHelp(): string {
  return [
    `Usage: ${PROGRAM_NAME} diagnose FILE [--gpus N] [--json]`,
    '',
    'Reads what your GPU and PyTorch printed and explains it. FILE is one of:',
    '  nvidia-smi output    --query-gpu=...,memory.used,... --format=csv (-l 1), or plain nvidia-smi tables',
    '  an OOM message       "CUDA/HIP out of memory. Tried to allocate ..." or "MPS backend out of memory (...)";',
    '                       traceback, log prefixes and terminal wraps around it are fine',
    '  memory_summary       torch.cuda.memory_summary() output',
    '  a memory snapshot    the pickle from torch.cuda.memory._dump_snapshot() (read as data, never run)',
    `Use - to read standard input:  nvidia-smi --query-gpu=... --format=csv -l 1 | ${PROGRAM_NAME} diagnose -`,
    '',
    ...flagHelpLines(DIAGNOSE_FLAGS.flags),
    ...scaffoldHelpLines(),
    '',
    'Exit codes: 0 read, 2 unreadable or refused input.',
    '',
  ].join('\n');
}

/** The notes as the JSON schema has them: line and English message (a note's reason is for pages that word it). */
const unreadJson = (unread: UnreadNote[]) => unread.map(({ line, message }) => ({ line, message }));

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
  if (gpus.length === 0 && log.processes.length === 0 && log.migDevices.length === 0)
    return unreadable(`no GPU memory samples found${log.unread[0] ? `: ${log.unread[0].message}` : ''}`);
  const lines: string[] = [
    `nvidia-smi ${NVIDIA_SMI_FORM_TEXT[log.form]}${gpus.length === 0 ? '' : `, ${gpus.length} GPU${gpus.length === 1 ? '' : 's'}`}`,
  ];
  const identity = log.form === 'csv' ? describeGpuIdentity(log.toldApartBy) : null;
  if (identity !== null) lines.push(identity);
  for (const { gpu, pattern } of gpus) {
    lines.push(
      '',
      `GPU ${gpu.index}${gpu.name ? ` (${gpu.name})` : ''}: ${VERDICT_TEXT[pattern.verdict].title}, ${gpu.samples.length} sample${gpu.samples.length === 1 ? '' : 's'}`,
    );
    for (const line of describeGpuEvidence(pattern, log.timed)) lines.push(`  ${line}`);
    lines.push(`  ${VERDICT_TEXT[pattern.verdict].meaning}`, `  Next: ${VERDICT_LINKS[pattern.verdict]}`);
  }
  for (const line of describeProcesses(log.processes, log.gpus)) lines.push(line);
  for (const line of describeMigDevices(log.migDevices)) lines.push(line);
  return reading(
    {
      kind: 'nvidia-smi' as const,
      form: log.form,
      toldApartBy: log.toldApartBy,
      gpus: gpus.map(({ gpu, pattern }) => ({
        index: gpu.index,
        name: gpu.name,
        busId: gpu.busId,
        verdict: pattern.verdict,
        peakUsedBytes: pattern.evidence.peakUsedBytes,
        totalBytes: gpu.totalBytes,
        samples: gpu.samples.length,
        evidence: pattern.evidence,
      })),
      processes: log.processes,
      migDevices: log.migDevices,
      unread: unreadJson(log.unread),
    },
    [...lines, ...unreadLines(log.unread)],
  );
}

/** The figure rows of an OOM reading: label, figure, and whether it is in this message at all. */
const OOM_FIGURE_ROWS: readonly [string, OomFigure][] = [
  ['Tried to allocate', 'triedToAllocateBytes'],
  ['Total capacity', 'totalBytes'],
  ['Free', 'freeBytes'],
  ['In use by this process', 'processInUseBytes'],
  ['Allocated by PyTorch', 'allocatedBytes'],
  ['Reserved by PyTorch', 'reservedBytes'],
  ['Reserved but unallocated', 'reservedUnallocatedBytes'],
  ['In private pools', 'privatePoolsBytes'],
  ['Allowed (cap)', 'allowedBytes'],
  ["Not PyTorch's (context etc.)", 'nonPyTorchBytes'],
];

/** What a memory_summary holds, as JSON: each headline figure or null where the paste lacks its row. */
const summaryJson = (summary: MemorySummary) => ({
  deviceId: summary.deviceId,
  allocatedBytes: summary.metrics.allocated?.all.current ?? null,
  reservedBytes: summary.metrics.reserved?.all.current ?? null,
  peakAllocatedBytes: summary.metrics.allocated?.all.peak ?? null,
  peakReservedBytes: summary.metrics.reserved?.all.peak ?? null,
  nonReleasableBytes: summary.metrics.nonReleasable?.all.current ?? null,
  cudaOoms: summary.cudaOoms,
  cudaMallocRetries: summary.cudaMallocRetries,
  cutShort: summary.cutShort,
  metrics: summary.metrics,
  unread: unreadJson(summary.unread),
});

/** Whether a summary holds anything to explain: at least one of its two headline rows. */
const summaryReadable = (summary: MemorySummary): boolean =>
  summary.metrics.allocated !== undefined || summary.metrics.reserved !== undefined;

/** The text of a summary's reading, indented under `indent`. */
const summaryLines = (summary: MemorySummary, indent: string): string[] =>
  describeSummary(summary).flatMap((r) => [`${indent}${r.label}: ${r.value}`, `${indent}  ${r.meaning}`]);

/** A traceback as JSON: its frames stay out, the phase, op and the reader's own frame are what it says. */
const tracebackJson = (traceback: OomTraceback) => ({
  phase: traceback.phase,
  op: traceback.op,
  userFrame: traceback.userFrame,
  frames: traceback.frames,
});

function analyzeOom(text: string, gpus: number | null) {
  const { parse, findings, plan, summary, traceback, context } = analyzeOomText(text, { gpus });
  const { message, unread } = parse;
  if (message === null || plan === null) return unreadable('no CUDA, HIP or MPS out-of-memory message found');
  const platform = { cuda: 'CUDA', hip: 'HIP', mps: 'MPS' }[message.platform];
  const lines = [
    `${platform} out-of-memory message, ${WORDING_TEXT[message.wording]}${message.gpuIndex === null ? '' : `, GPU ${message.gpuIndex}`}`,
    '',
  ];
  for (const [label, figure] of OOM_FIGURE_ROWS) {
    const bytes = message[figure];
    if (bytes === null) continue;
    lines.push(`  ${label.padEnd(29)} ${formatBinarySize(bytes).padEnd(11)} ${describeFigureSource(message, figure)}`);
  }
  for (const p of message.otherProcesses)
    lines.push(`  ${`Process ${p.pid}`.padEnd(29)} ${formatBinarySize(p.bytes).padEnd(11)} read`);
  if (message.fragmentationShare !== null)
    lines.push(
      `  ${'Fragmentation share'.padEnd(29)} ${`${(message.fragmentationShare * 100).toFixed(1)} %`.padEnd(11)} ${describeFigureSource(message, 'fragmentationShare')}`,
    );
  if (findings.length > 0)
    lines.push('', 'What does not add up, or changes the reading:', ...findings.map((f) => `  - ${describeFinding(f, message)}`));
  const platformNote = describePlatform(message);
  lines.push('', `Verdict: ${OOM_CASE_TEXT[plan.case]}`, ...(platformNote === null ? [] : [platformNote]));
  if (traceback !== null) lines.push(describeTraceback(traceback));
  lines.push('', 'What to try, most promising first (sizes are rounded as PyTorch printed them):');
  plan.remedies.forEach((r, i) => {
    const { title, reason } = describeRemedy(r, message, context);
    lines.push(`  ${i + 1}. ${title}`, `     ${reason}`, `     ${r.href}`);
  });
  if (summary !== null) {
    lines.push('', `The memory_summary in the same paste${summary.deviceId === null ? '' : ` (device ${summary.deviceId})`}:`);
    lines.push(...(summaryReadable(summary) ? summaryLines(summary, '  ') : ['  nothing readable in it']));
    lines.push(...unreadLines(summary.unread).map((line) => (line === '' ? line : `  ${line}`)));
  }
  return reading(
    {
      kind: 'oom-message' as const,
      platform: message.platform,
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
      jobPid: message.jobPid,
      fragmentationShare: message.fragmentationShare,
      derivedBy: message.derivedBy,
      truncated: message.truncated,
      findings,
      summary: summary === null ? null : summaryJson(summary),
      traceback: traceback === null ? null : tracebackJson(traceback),
      gpus: context.gpus,
      case: plan.case,
      remedies: plan.remedies.map((r) => ({
        id: r.id,
        freesBytes: r.freesBytes,
        sufficient: r.sufficient,
        condition: r.condition,
        href: r.href,
      })),
      unread: unreadJson(unread),
    },
    [...lines, ...unreadLines(unread)],
  );
}

function analyzeSummary(text: string) {
  const summary = parseMemorySummary(text);
  if (!summaryReadable(summary))
    return unreadable('the memory_summary table has no readable "Allocated memory" or "GPU reserved memory" row');
  const lines = [
    `torch.cuda.memory_summary()${summary.deviceId === null ? '' : `, device ${summary.deviceId}`}${summary.cutShort ? ', cut short' : ''}`,
    '',
    ...summaryLines(summary, '  '),
  ];
  return reading({ kind: 'memory-summary' as const, ...summaryJson(summary) }, [...lines, ...unreadLines(summary.unread)]);
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
  for (const oom of analysis.oomEvents) {
    lines.push('', `OOM: ${describeSnapshotOom(oom)}`, '  The request came from:');
    const frames = oom.frames.filter((f) => f.filename.endsWith('.py'));
    for (const f of (frames.length > 0 ? frames : oom.frames).slice(0, 5)) lines.push(`    ${f.filename}:${f.line} ${f.name}`);
    if (oom.frames.length === 0) lines.push('    (no stack recorded: record with _record_memory_history(stacks="python"))');
  }
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
      unread: unreadJson(analysis.unread),
    },
    [...lines, ...unreadLines(analysis.unread)],
  );
}

/** What the reader said on the command line, for the readers that use it. */
interface ReaderFacts {
  gpus: number | null;
}

const ANALYZERS = {
  'nvidia-smi': (_: Uint8Array, text: string) => analyzeNvidiaSmi(text),
  'oom-message': (_: Uint8Array, text: string, facts: ReaderFacts) => analyzeOom(text, facts.gpus),
  'memory-summary': (_: Uint8Array, text: string) => analyzeSummary(text),
  snapshot: (bytes: Uint8Array) => analyzeSnapshotFile(bytes),
} satisfies Record<InputKind, (bytes: Uint8Array, text: string, facts: ReaderFacts) => Reading<unknown> | Unreadable>;

/** Reads `--gpus`, or says why it cannot. */
function readFacts(values: ArgValues): ReaderFacts | { usage: string } {
  const parsed = parseFlags({ gpus: values['gpus'] }, DIAGNOSE_FLAGS);
  const read = createOptionReader(parsed.options, DIAGNOSE_FLAGS);
  const gpus = read.count('gpus') ?? null;
  const errors = [...parsed.errors, ...read.errors];
  return errors.length > 0 ? { usage: fieldErrorsLine(errors) } : { gpus };
}

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
  flagTables: [DIAGNOSE_FLAGS],
  operands: true,
  help: diagnoseHelp,
  run(values, operands, io): CommandAnswer<DiagnoseJson> {
    const facts = readFacts(values);
    if ('usage' in facts) return facts;
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
    if (kind === null) {
      const known = recognizeKnownError(asText());
      return {
        refused:
          known === null
            ? 'not nvidia-smi output, an OOM message, a memory_summary table or a memory snapshot pickle'
            : `this is ${KNOWN_ERROR_NAMES[known]}, not an out-of-memory message from PyTorch's allocator`,
      };
    }
    const analysis = ANALYZERS[kind](bytes, kind === 'snapshot' ? '' : asText(), facts);
    if ('error' in analysis) return { refused: analysis.error };
    return {
      json: () => ({ schema: JSON_SCHEMA_URLS.diagnose, ...analysis.json }),
      text: () => `${analysis.text.join('\n')}\n`,
    };
  },
};
