import { useMemo } from 'preact/hooks';
import type { EstimateResult } from '../../memory/index';
import MemoryBarChart, { type MemoryBar, type MemoryBarLimit } from '../charts/MemoryBarChart';
import { useMessages } from '../../i18n/use-messages';

/** The GPU lines of `result`: its GPU's memory and the free margin kept below it, or null without a GPU. */
export function limitOf(result: EstimateResult): MemoryBarLimit | null {
  return result.gpu ? { memoryBytes: result.gpu.memoryBytes, headroomBytes: result.headroom?.bytes ?? 0 } : null;
}

/**
 * The engine's step timeline as a captioned figure: one bar per moment in the order they happen, the peak's row named.
 * The calculators show it, and the planner's plan detail loads it when a plan is first opened.
 */
export default function TimelineChart({ result }: { result: EstimateResult }) {
  const messages = useMessages();
  const text = messages.calculator;
  const bars = useMemo(
    (): MemoryBar[] =>
      result.timeline.map((m) => ({
        label: m.moment === result.peakMoment ? `${messages.moments[m.moment]} (${text.peakMark})` : messages.moments[m.moment],
        byCategory: m.byCategory,
        totalBytes: m.bytes,
      })),
    [result, messages],
  );
  const limit = useMemo(() => limitOf(result), [result]);
  const description = `${text.timelineTitle}: ${result.timeline.map((m) => `${messages.moments[m.moment]} ${messages.format.gib(m.bytes)}`).join(', ')}`;
  return (
    <figure class="calc-figure">
      <MemoryBarChart bars={bars} limit={limit} axisLabel={text.timelineAxis} description={description} layout="moments" />
      <figcaption>{text.timelineCaption}</figcaption>
    </figure>
  );
}
