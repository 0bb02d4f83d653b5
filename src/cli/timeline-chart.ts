/** The step timeline as text bars: one row per moment, stacked by category, the peak and the GPU's limit marked. */
import { formatGiB } from '../base/bytes.ts';
import { type EstimateResult, type TimelineMoment } from '../memory/index.ts';

const WIDTH = 48;

/** One glyph per category, in stacking order. */
const GLYPHS: readonly [keyof TimelineMoment['byCategory'], string, string][] = [
  ['weights', 'W', 'weights'],
  ['gradients', 'G', 'gradients'],
  ['optimizer', 'O', 'optimizer'],
  ['activations', 'A', 'activations'],
  ['kvCache', 'K', 'KV cache'],
  ['overhead', '.', 'overhead'],
];

/** Rows of the timeline chart, scaled to the larger of the peak and the GPU's memory. */
export function renderTimeline(result: EstimateResult): string[] {
  const limit = result.gpu?.memoryBytes ?? 0;
  const scale = Math.max(limit, ...result.timeline.map((m) => m.bytes), 1);
  const columns = (bytes: number) => Math.round((bytes / scale) * WIDTH);
  const limitColumn = limit > 0 ? Math.min(WIDTH, columns(limit)) : -1;
  const legend = GLYPHS.map(([, glyph, name]) => `${glyph} ${name}`).join(' · ');
  const out = [`Step timeline per GPU (${legend}${limit > 0 ? ' · | GPU memory' : ''})`];
  for (const moment of result.timeline) {
    let bar = '';
    let cumulative = 0;
    for (const [category, glyph] of GLYPHS) {
      cumulative += moment.byCategory[category];
      bar += glyph.repeat(Math.max(0, columns(cumulative) - bar.length));
    }
    const cells = bar.padEnd(WIDTH + 1).split('');
    if (limitColumn >= 0) cells[limitColumn] = '|';
    const peak = moment.moment === result.peakMoment ? ' ◀ peak' : '';
    out.push(`  ${moment.moment.padEnd(21)} ${cells.join('')} ${formatGiB(moment.bytes).padStart(11)}${peak}`);
  }
  return out;
}
