import * as Plot from '@observablehq/plot';
import { GIB } from '../../base/bytes';
import { useEffect, useRef } from 'preact/hooks';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import type { MemorySummary } from '../../diagnose/memory-summary';
import { mountPlot } from '../charts/mount-plot';
import { exampleFile } from './InputPanel';
import SummaryTable from './SummaryTable';
import ToolFrame from './ToolFrame';
import UnreadList from './UnreadList';
import { useAnalysis } from './use-analysis';
import finetuneUrl from '../../diagnose/examples/memory-summary.txt?url';
import '../widget.css';
import './diagnose.css';

function AllocatedVsReserved({ summary }: { summary: MemorySummary }) {
  const S = useMessages().diagnose.summary;
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    const allocated = summary.metrics.allocated?.all;
    const reserved = summary.metrics.reserved?.all;
    if (!node || !allocated || !reserved) return;
    const data = [
      { when: S.current, kind: S.reserved, gib: reserved.current / GIB },
      { when: S.current, kind: S.allocated, gib: allocated.current / GIB },
      { when: S.peak, kind: S.reserved, gib: reserved.peak / GIB },
      { when: S.peak, kind: S.allocated, gib: allocated.peak / GIB },
    ];
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 150,
      marginLeft: 56,
      x: { label: S.xGiB, grid: true },
      y: { label: null },
      fy: { label: null },
      color: { legend: true, domain: [S.reserved, S.allocated] },
      marks: [Plot.barX(data, { x: 'gib', y: 'kind', fy: 'when', fill: 'kind' })],
    });
    return mountPlot(node, chart, S.chartLabel);
  }, [summary, S]);
  return <div class="diag-chart" ref={container} data-chart="summary" />;
}

/** Reads torch.cuda.memory_summary() output and says what each figure means. */
export default function MemorySummaryTool({ locale = DEFAULT_LOCALE }: { readonly locale?: Locale }) {
  return (
    <LocaleContext.Provider value={locale}>
      <MemorySummaryReader />
    </LocaleContext.Provider>
  );
}

function MemorySummaryReader() {
  const S = useMessages().diagnose.summary;
  const analysis = useAnalysis('memory-summary');
  const [state] = analysis;
  const examples = [{ label: S.examples.finetune, load: () => exampleFile(finetuneUrl, 'memory-summary.txt') }];
  const summary = state.status === 'done' ? state.result : null;
  // A summary cut short still says something when either headline row survived.
  const readable = summary?.metrics.allocated !== undefined || summary?.metrics.reserved !== undefined;
  return (
    <ToolFrame
      analysis={analysis}
      tool="memory-summary"
      pastePlaceholder={S.placeholder}
      accept=".txt,.log,text/*"
      examples={examples}
    >
      {summary && (
        <div
          class="diag-results"
          aria-live="polite"
          data-allocated-bytes={summary.metrics.allocated?.all.current ?? ''}
          data-reserved-bytes={summary.metrics.reserved?.all.current ?? ''}
        >
          {!readable ? (
            <p class="widget-error" role="alert">
              {S.notFound}
            </p>
          ) : (
            <>
              <AllocatedVsReserved summary={summary} />
              <SummaryTable summary={summary} />
              <p class="diag-note">{S.rounding}</p>
            </>
          )}
          <UnreadList notes={summary.unread} title={S.unread} />
        </div>
      )}
    </ToolFrame>
  );
}
