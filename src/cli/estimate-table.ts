/** Human-readable table of an estimate. */
import { BYTES_IN_UNIT, formatBytes, formatGiB } from '../base/bytes.ts';
import {
  formatCount,
  formatSeconds,
  formatStepShare,
  STACK_SPECS,
  type EstimateResult,
  type MemoryLine,
} from '../memory/index.ts';
import { renderTimeline } from './timeline-chart.ts';

const LABEL_WIDTH = 70;

function fit(text: string, width: number): string {
  return text.length <= width ? text.padEnd(width) : `${text.slice(0, width - 1)}…`;
}

/** Two decimals, or six for sizes under 0.01 of the unit (the demo models are a few MB). */
function tableSize(bytes: number, unit: 'GiB' | 'GB'): string {
  return formatBytes(bytes, unit, bytes > 0 && bytes < 0.01 * BYTES_IN_UNIT[unit] ? 6 : 2);
}

function row(label: string, bytes: number): string {
  return `  ${fit(label, LABEL_WIDTH)} ${tableSize(bytes, 'GiB').padStart(14)} ${tableSize(bytes, 'GB').padStart(14)}`;
}

function lineRows(lines: readonly MemoryLine[], withSources: boolean): string[] {
  return lines.flatMap((l) => (withSources ? [row(l.label, l.bytes), `      ↳ ${l.source}`] : [row(l.label, l.bytes)]));
}

/** The stack the estimate assumes, what it set (with each source under `withSources`), and what it does unmodelled. */
function stackRows(r: EstimateResult['resolved'], withSources: boolean): string[] {
  const spec = STACK_SPECS[r.stack];
  const set = r.stackSettings.map((s) => `${s.flag} ${s.value}`).join(', ');
  const rows = [`Stack     ${r.stack} (${spec.label}; ${spec.version})${set === '' ? '' : ` set ${set}`}`];
  if (withSources) rows.push(...r.stackSettings.map((s) => `      ↳ ${s.flag} ${s.value}: ${s.source}`));
  for (const gap of r.notModelled) {
    rows.push(`          not modelled yet: ${gap.what} (${gap.option})`);
    if (withSources) rows.push(`      ↳ ${gap.source}`);
  }
  return rows;
}

/** Render an estimate as a table; `withSources` adds each line's source under it. */
export function renderTable(result: EstimateResult, withSources = false): string {
  const r = result.resolved;
  const out: string[] = [];
  const what = result.mode === 'train' ? 'training step' : 'inference';
  out.push(`GPU Memory Lab · estimate (${what}, per GPU${result.stage === 'only' ? '' : `, ${result.stage} pipeline stage`})`);
  const name = result.modelId ?? (result.model === null ? 'params only' : `custom ${result.model.family ?? result.model.arch}`);
  const moe = result.activeParams !== result.params ? ` (${formatCount(result.activeParams)} active)` : '';
  out.push(`Model     ${name} · ${formatCount(result.params)} params${moe}`);
  if (result.mode === 'train') {
    out.push(...stackRows(r, withSources));
    out.push(
      `Setup     ${r.precision} · ${r.optimizer} (${r.optimizerImpl}) · micro-batch ${r.microBatch} × seq ${r.seq} · grad-accum ${r.gradAccum} · recompute ${r.recompute} · ${r.attention} attention · ${r.kernels} kernels · grads ${r.grads}${r.dropout ? ' · dropout' : ''}`,
    );
    if (r.finetune !== 'full')
      out.push(
        `Finetune  ${r.finetune} · rank ${r.loraRank} · targets ${r.loraTargets} · ${formatCount(result.trainableParams)} trainable params`,
      );
    out.push(
      `Parallel  dp ${r.dp} · zero ${r.zero} · tp ${r.tp}${r.sp ? ' + sp' : ''} · pp ${r.pp} · offload ${r.offload}${r.offload === 'none' ? '' : ` (${r.offloadDevice})`}${r.teacher === null ? '' : ` · teacher ${r.teacher.id}`}`,
    );
  } else {
    out.push(
      `Setup     weights ${r.weights} · batch ${r.microBatch} · ${r.tokens} tokens cached · tp ${r.tp} · pp ${r.pp} · ${r.attention} attention`,
    );
  }
  out.push('');
  out.push(`  ${'Per GPU'.padEnd(LABEL_WIDTH)} ${'GiB'.padStart(14)} ${'GB'.padStart(14)}`);
  out.push(
    ...lineRows(
      result.lines.filter((l) => l.device === 'gpu'),
      withSources,
    ),
  );
  out.push(`  ${'─'.repeat(LABEL_WIDTH + 30)}`);
  const g = result.perGpu;
  const subtotals: [string, number][] = [
    ['weights', g.weights],
    ['gradients', g.gradients],
    ['optimizer', g.optimizer],
    ['activations', g.activations],
    ['KV cache', g.kvCache],
    ['overhead', g.overhead],
  ];
  out.push(
    `  ${subtotals
      .filter(([, b]) => b > 0)
      .map(([n, b]) => `${n} ${tableSize(b, 'GiB')}`)
      .join(' · ')}`,
  );
  out.push(row(`Peak per GPU (${result.peakMoment}: ${result.peakPhase})`, g.total));
  out.push(row('Sum of parts (upper bound: every line alive at once)', g.sumOfParts));
  out.push('');
  out.push(...renderTimeline(result));
  const hostLines = result.lines.filter((l) => l.device !== 'gpu');
  if (hostLines.length > 0) {
    out.push('');
    out.push(`  ${'Offloaded (per GPU process; × GPUs per node for the node)'.padEnd(LABEL_WIDTH)}`);
    out.push(...lineRows(hostLines, withSources));
    if (result.perCpu.total > 0) out.push(row('Total host RAM per GPU process', result.perCpu.total));
    if (result.perNvme.total > 0) out.push(row('Total NVMe per GPU process', result.perNvme.total));
  }
  out.push('');
  if (result.gpu === null || result.headroom === null) {
    out.push('Fits      (give --gpu ID to check the fit)');
  } else {
    const gpu = result.gpu;
    out.push(
      `GPU       ${gpu.name}: ${formatGiB(gpu.memoryBytes)} (${formatBytes(gpu.memoryBytes, 'GB')}) as the driver reports it; sold as ${gpu.marketedMemory}`,
    );
    out.push(`Headroom  keep ${result.headroom.percent} % free against fragmentation: ${formatGiB(result.headroom.bytes)}`);
    out.push(
      result.fits === true
        ? `Fits      yes, ${formatGiB(result.spare ?? 0)} to spare after the free margin`
        : `Fits      NO, ${formatGiB(result.shortfall ?? 0)} over (total + free margin > GPU memory)`,
    );
  }
  if (result.stepTime !== null) {
    out.push('');
    out.push(
      `Step time (estimate${result.mode === 'train' ? ', per optimizer step, each part as its share of the step' : ''}; assumes ${result.stepTime.assumptions.join('; ')})`,
    );
    const { totalSeconds, band } = result.stepTime;
    // A training step's parts print as shares of the banded total: the band was measured on whole steps, so a part's
    // seconds alone would claim a precision the model never showed. Inference's prefill and per-token decode are not
    // parts of one step, and no published run gives them a band, so they stay in seconds.
    for (const l of result.stepTime.lines) {
      const value = result.mode === 'train' ? formatStepShare(l.seconds, totalSeconds) : formatSeconds(l.seconds);
      out.push(`  ${fit(l.label, LABEL_WIDTH)} ${value.padStart(12)}`);
    }
    if (result.mode === 'train') {
      out.push(`  ${fit('Total', LABEL_WIDTH)} ${formatSeconds(totalSeconds).padStart(12)}`);
      // The measured band, not a guess: where the measured step fell, for 8 in 10 published runs, around the prediction.
      if (band !== null)
        out.push(
          `  ${fit('Error band (8 in 10 published runs measured within)', LABEL_WIDTH)} ${`${formatSeconds(band.low)}–${formatSeconds(band.high)}`.padStart(12)}`,
        );
      if (withSources && band !== null) out.push(`      ↳ ${band.source}`);
    }
    // Padding is computed, never trained: the tokens a step trains count only the real ones (memory/batching.ts).
    const trained = result.stepTime.trainedTokens;
    if (trained !== undefined)
      out.push(`  ${fit('Real tokens trained per GPU per step', LABEL_WIDTH)} ${trained.toLocaleString('en-US').padStart(12)}`);
  }
  if (result.warnings.length > 0) {
    out.push('');
    out.push('Warnings');
    for (const w of result.warnings) out.push(`  - ${w}`);
  }
  out.push('');
  return out.join('\n');
}
