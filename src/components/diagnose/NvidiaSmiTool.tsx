import * as Plot from '@observablehq/plot';
import { GIB } from '../../base/bytes';
import { useContext, useEffect, useRef } from 'preact/hooks';
import { DEFAULT_LOCALE, localizedHref, type Locale } from '../../i18n/locales';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import { describeGpuEvidence, describeMigDevices, describeProcesses, VERDICT_LINKS } from '../../diagnose/explain';
import { mountPlot } from '../charts/mount-plot';
import type { GpuAnalysis } from './analysers';
import { exampleFile } from './InputPanel';
import ToolFrame from './ToolFrame';
import UnreadList from './UnreadList';
import { useAnalysis } from './use-analysis';
import leakUrl from '../../diagnose/examples/nvidia-smi-leak.csv?url';
import spikeUrl from '../../diagnose/examples/nvidia-smi-spike-nounits.csv?url';
import nearLimitUrl from '../../diagnose/examples/nvidia-smi-near-limit.txt?url';
import '../widget.css';
import './diagnose.css';

function MemoryChart({ gpus, timed }: { gpus: GpuAnalysis[]; timed: boolean }) {
  const S = useMessages().diagnose.nvidiaSmi;
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const data = gpus.flatMap(({ series, chartSamples }) =>
      chartSamples.map((s) => ({ x: timed ? s.t / 1000 : s.t + 1, gib: s.usedBytes / GIB, gpu: `GPU ${series.index}` })),
    );
    const capacities = gpus.flatMap(({ series }) =>
      series.totalBytes === null ? [] : [{ gib: series.totalBytes / GIB, gpu: `GPU ${series.index}` }],
    );
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 280,
      marginLeft: 56,
      x: { label: timed ? S.xTime : S.xSample },
      y: { label: S.yUsed, grid: true, domain: [0, Math.max(...data.map((d) => d.gib), ...capacities.map((c) => c.gib)) * 1.05] },
      color: { legend: gpus.length > 1 },
      marks: [
        Plot.ruleY(capacities, { y: 'gib', stroke: 'gpu', strokeDasharray: '4,3' }),
        Plot.line(data, { x: 'x', y: 'gib', stroke: 'gpu' }),
      ],
    });
    return mountPlot(node, chart, S.chartLabel(gpus.length));
  }, [gpus, timed, S]);
  return <div class="diag-chart" ref={container} data-chart="memory" />;
}

/** Reads nvidia-smi output (CSV or tables), plots memory per GPU and names each GPU's pattern. */
export default function NvidiaSmiTool({ locale = DEFAULT_LOCALE }: { readonly locale?: Locale }) {
  return (
    <LocaleContext.Provider value={locale}>
      <NvidiaSmiReader />
    </LocaleContext.Provider>
  );
}

function NvidiaSmiReader() {
  const { nvidiaSmi: S, input: M, explain } = useMessages().diagnose;
  const locale = useContext(LocaleContext);
  const analysis = useAnalysis('nvidia-smi');
  const [state] = analysis;
  const examples = [
    { label: S.examples.leak, load: () => exampleFile(leakUrl, 'nvidia-smi-leak.csv') },
    { label: S.examples.spike, load: () => exampleFile(spikeUrl, 'nvidia-smi-spike-nounits.csv') },
    { label: S.examples.nearLimit, load: () => exampleFile(nearLimitUrl, 'nvidia-smi-near-limit.txt') },
  ];
  return (
    <ToolFrame
      analysis={analysis}
      tool="nvidia-smi"
      pastePlaceholder={S.placeholder}
      accept=".csv,.txt,.log,text/*"
      examples={examples}
    >
      {state.status === 'done' && (
        <div class="diag-results" aria-live="polite">
          {state.result.gpus.length === 0 &&
          state.result.log.processes.length === 0 &&
          state.result.log.migDevices.length === 0 ? (
            <p class="widget-error" role="alert">
              {S.noSamples}
            </p>
          ) : (
            <>
              {state.result.gpus.length > 0 && <MemoryChart gpus={state.result.gpus} timed={state.result.log.timed} />}
              {state.result.gpus.map(({ series, sampleCount, pattern }) => (
                <section
                  data-gpu={series.index}
                  data-verdict={pattern.verdict}
                  data-peak-used-bytes={pattern.evidence.peakUsedBytes}
                >
                  <h3>
                    {S.gpu(series.index, series.name)}
                    {M.labelEnd}
                    <span class="diag-verdict">{explain.verdicts[pattern.verdict].title}</span>
                  </h3>
                  <p>{explain.verdicts[pattern.verdict].meaning}</p>
                  <ul>
                    {describeGpuEvidence(pattern, state.result.log.timed, explain).map((line) => (
                      <li>{line}</li>
                    ))}
                  </ul>
                  <p>
                    {S.next}
                    {M.labelEnd}
                    <a href={localizedHref(locale, VERDICT_LINKS[pattern.verdict])}>
                      {explain.linkTitles[VERDICT_LINKS[pattern.verdict]]}
                    </a>{' '}
                    · {S.samples(sampleCount)}
                  </p>
                </section>
              ))}
              {state.result.log.processes.length > 0 && (
                <pre class="diag-listing" tabIndex={0} data-processes={state.result.log.processes.length}>
                  {describeProcesses(
                    state.result.log.processes,
                    state.result.gpus.map(({ series, chartSamples }) => ({ ...series, samples: chartSamples })),
                    explain,
                  )
                    .slice(1)
                    .join('\n')}
                </pre>
              )}
              {state.result.log.migDevices.length > 0 && (
                <pre class="diag-listing" tabIndex={0} data-mig-devices={state.result.log.migDevices.length}>
                  {describeMigDevices(state.result.log.migDevices, explain).slice(1).join('\n')}
                </pre>
              )}
            </>
          )}
          <UnreadList notes={state.result.log.unread} title={S.unread} />
        </div>
      )}
    </ToolFrame>
  );
}
