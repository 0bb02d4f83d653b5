/** Human-readable table of a diffusion estimate: the setup, each line per phase, the phase totals and the fit. */
import { formatGiB } from '../base/bytes.ts';
import {
  DIFFUSION_PHASES,
  formatChanges,
  formatCount,
  formatSeconds,
  type DiffusionEstimate,
  type DiffusionOptions,
  type DiffusionRemedy,
} from '../memory/index.ts';

const LABEL_WIDTH = 76;
const COLUMN = 10;

const fit = (text: string, width: number) => (text.length <= width ? text.padEnd(width) : `${text.slice(0, width - 1)}…`);
const gib = (bytes: number) => formatGiB(bytes).padStart(COLUMN);

/**
 * Render a diffusion estimate as a table (GiB = 2^30 bytes), then, when it does not fit, the changes that make it fit;
 * `withSources` adds each line's source under it.
 */
export function renderDiffusionTable(
  result: DiffusionEstimate,
  options: DiffusionOptions,
  remedies: readonly DiffusionRemedy[],
  withSources: boolean,
): string {
  const t = result.tokens;
  const encoders = [...result.textEncoders, ...(result.imageEncoder === null ? [] : [result.imageEncoder])]
    .map((e) => `${e.name} ${formatCount(e.params)}`)
    .join(' + ');
  const out = [
    `GPU Memory Lab · diffusion (${result.pipeline}, one GPU, GiB = 2^30 bytes)`,
    `Model     transformer ${formatCount(result.transformer.total)} params · ${encoders} · VAE ${formatCount(result.vaeParams)}`,
    `Output    ${options.width}×${options.height}${options.frames > 1 ? ` × ${options.frames} frames` : ''} → ${t.latentFrames}×${t.latentHeight}×${t.latentWidth} latents → ${formatCount(t.visual)} tokens + ${t.text} text tokens`,
    `Setup     weights ${options.weights} · offload ${options.offload}${options.textEncoderOnCpu ? ' · text encoders on the CPU' : ''} · VAE ${options.vaeTiling ? 'tiled' : 'whole'} · guidance ${result.guidance} · ${result.hostTransfer.steps} steps`,
    '',
    `  ${fit('On the GPU', LABEL_WIDTH)}${DIFFUSION_PHASES.map((p) => p.padStart(COLUMN)).join('')}`,
  ];
  for (const l of result.lines) {
    out.push(`  ${fit(l.label, LABEL_WIDTH)}${l.live.map(gib).join('')}`);
    if (withSources) out.push(`      ↳ ${l.source}`);
  }
  out.push(`  ${'─'.repeat(LABEL_WIDTH + COLUMN * DIFFUSION_PHASES.length)}`);
  out.push(`  ${fit('Total', LABEL_WIDTH)}${DIFFUSION_PHASES.map((p) => gib(result.perPhase[p])).join('')}`);
  out.push('');
  out.push(
    `Peak      ${formatGiB(result.peak)} at ${result.peakPhase} · host memory for offloaded parts ${formatGiB(result.hostPeak)}`,
  );
  if (result.gpu !== null && result.headroom !== null)
    out.push(
      `Fits      ${result.fits === true ? 'yes' : 'no'} on the ${result.gpu.name} (${formatGiB(result.gpu.memoryBytes)}, ${result.headroom.percent} % kept free)`,
    );
  const transfer = result.hostTransfer;
  if (transfer.bytes > 0)
    out.push(
      `Offload   ${formatGiB(transfer.bytes)} over the host link per generation (${transfer.passes} transformer passes)${transfer.seconds === null ? '' : `: at least ${formatSeconds(transfer.seconds)} on the ${result.gpu?.hostLink ?? 'host link'}`}`,
    );
  for (const warning of result.warnings) out.push(`Warning   ${warning}`);
  for (const [index, remedy] of remedies.entries())
    out.push(
      `${index === 0 ? 'Fits with' : '         '} ${formatChanges(remedy.changes)}: ${formatGiB(remedy.peak)} at ${remedy.peakPhase}, ${formatSeconds(remedy.transferSeconds)} of copies`,
    );
  out.push('');
  return out.join('\n');
}
