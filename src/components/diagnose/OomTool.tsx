import {
  describeFigureSource,
  describeFinding,
  describePlatform,
  describeRemedy,
  describeSummary,
  describeTraceback,
} from '../../diagnose/explain';
import type { OomFigure } from '../../diagnose/oom-message';
import { rankOomRemedies } from '../../diagnose/oom-remedies';
import { useContext, useState } from 'preact/hooks';
import { DEFAULT_LOCALE, localizedHref, type Locale } from '../../i18n/locales';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import type { DiagnoseMessages } from '../../i18n/messages/diagnose/en';
import { formatBinarySize } from '../../base/bytes';
import { exampleFile } from './InputPanel';
import SummaryTable from './SummaryTable';
import ToolFrame from './ToolFrame';
import UnreadList from './UnreadList';
import { useAnalysis } from './use-analysis';
import currentUrl from '../../diagnose/examples/oom-current.txt?url';
import otherUrl from '../../diagnose/examples/oom-other-process.txt?url';
import legacyUrl from '../../diagnose/examples/oom-legacy.txt?url';
import '../widget.css';
import './diagnose.css';

/** The figure rows, in the order the message gives them, each with the key of its label. */
const FIGURE_ROWS: readonly [keyof DiagnoseMessages['oom']['rows'], OomFigure][] = [
  ['tried', 'triedToAllocateBytes'],
  ['total', 'totalBytes'],
  ['free', 'freeBytes'],
  ['process', 'processInUseBytes'],
  ['allocated', 'allocatedBytes'],
  ['reserved', 'reservedBytes'],
  ['reservedUnallocated', 'reservedUnallocatedBytes'],
  ['privatePools', 'privatePoolsBytes'],
  ['allowed', 'allowedBytes'],
  ['nonPyTorch', 'nonPyTorchBytes'],
];

/** Decodes an out-of-memory message into its figures, checks them against each other, and ranks what to try. */
export default function OomTool({ locale = DEFAULT_LOCALE }: { readonly locale?: Locale }) {
  return (
    <LocaleContext.Provider value={locale}>
      <OomReader />
    </LocaleContext.Provider>
  );
}

function OomReader() {
  const { oom: S, input: M, explain, knownErrors } = useMessages().diagnose;
  const locale = useContext(LocaleContext);
  const analysis = useAnalysis('oom-message');
  const [state] = analysis;
  const examples = [
    { label: S.examples.current, load: () => exampleFile(currentUrl, 'oom-current.txt') },
    { label: S.examples.otherProcess, load: () => exampleFile(otherUrl, 'oom-other-process.txt') },
    { label: S.examples.legacy, load: () => exampleFile(legacyUrl, 'oom-legacy.txt') },
  ];
  const result = state.status === 'done' ? state.result : null;
  const m = result?.parse.message ?? null;
  const platformNote = m === null ? null : describePlatform(m, explain);
  // The GPU count only changes the ranking, which is pure and small: it is redone here rather than in the worker.
  const [gpusText, setGpusText] = useState('');
  const gpus = /^\d{1,7}$/.test(gpusText) && Number(gpusText) >= 1 ? Number(gpusText) : null;
  const context = result === null ? null : { ...result.context, gpus };
  const plan =
    m === null || result === null || result.plan === null || context === null
      ? null
      : gpus === null
        ? result.plan
        : rankOomRemedies(m, result.findings, context);
  const summaryRows = result?.summary ? describeSummary(result.summary, explain) : [];
  return (
    <ToolFrame
      analysis={analysis}
      tool="oom-message"
      pastePlaceholder={S.placeholder}
      accept=".txt,.log,text/*"
      examples={examples}
      commandFlags={gpus === null ? [] : ['--gpus', String(gpus)]}
    >
      <label class="widget-field">
        {S.gpus}
        <input
          type="number"
          min="1"
          step="1"
          inputMode="numeric"
          value={gpusText}
          data-input="gpus"
          onInput={(event) => setGpusText(event.currentTarget.value)}
        />
      </label>
      <p class="diag-note">{S.gpusHint}</p>
      {result && (
        <div class="diag-results" aria-live="polite">
          {m === null || plan === null || context === null ? (
            <p class="widget-error" role="alert">
              {result.knownError === null ? S.notFound : S.knownError(knownErrors[result.knownError])}
            </p>
          ) : (
            <>
              <p data-platform={m.platform} data-wording={m.wording}>
                {[
                  S.platform[m.platform],
                  explain.wordings[m.wording],
                  ...(m.gpuIndex === null ? [] : [`GPU ${m.gpuIndex}`]),
                ].join(M.listSeparator)}
              </p>
              <table
                class="widget-table"
                data-tried-bytes={m.triedToAllocateBytes ?? ''}
                data-reserved-unallocated-bytes={m.reservedUnallocatedBytes ?? ''}
              >
                <thead>
                  <tr>
                    <th scope="col">{S.figure}</th>
                    <th scope="col">{S.value}</th>
                    <th scope="col">{S.source}</th>
                  </tr>
                </thead>
                <tbody>
                  {FIGURE_ROWS.filter(([, figure]) => m[figure] !== null).map(([row, figure]) => (
                    <tr data-figure={figure}>
                      <th scope="row">{S.rows[row]}</th>
                      <td>{formatBinarySize(m[figure] ?? 0)}</td>
                      <td>{describeFigureSource(m, figure, explain)}</td>
                    </tr>
                  ))}
                  {m.otherProcesses.map((p) => (
                    <tr>
                      <th scope="row">{S.rows.otherProcess(p.pid)}</th>
                      <td>{formatBinarySize(p.bytes)}</td>
                      <td>{S.read}</td>
                    </tr>
                  ))}
                  {m.fragmentationShare !== null && (
                    <tr>
                      <th scope="row">{S.rows.fragmentation}</th>
                      <td>{(m.fragmentationShare * 100).toFixed(1)} %</td>
                      <td>{describeFigureSource(m, 'fragmentationShare', explain)}</td>
                    </tr>
                  )}
                </tbody>
              </table>
              <p class="diag-note">{S.rounding}</p>
              {result.findings.length > 0 && (
                <>
                  <h3>{S.findings}</h3>
                  <ul data-findings={result.findings.map((f) => f.id).join(' ')}>
                    {result.findings.map((f) => (
                      <li data-finding={f.id}>{describeFinding(f, m, explain)}</li>
                    ))}
                  </ul>
                </>
              )}
              <p data-case={plan.case}>
                <strong>
                  {S.verdict}
                  {M.labelEnd}
                </strong>
                {explain.cases[plan.case]}
              </p>
              {platformNote !== null && <p class="diag-note">{platformNote}</p>}
              {result.traceback !== null && (
                <p data-phase={result.traceback.phase ?? ''} data-op={result.traceback.op ?? ''}>
                  <strong>
                    {S.traceback}
                    {M.labelEnd}
                  </strong>
                  {describeTraceback(result.traceback, explain)}
                </p>
              )}
              <h3>{S.remedies}</h3>
              <ol data-remedies={plan.remedies.map((r) => r.id).join(' ')}>
                {plan.remedies.map((r) => {
                  const { title, reason } = describeRemedy(r, m, context, explain);
                  return (
                    <li data-remedy={r.id} data-sufficient={String(r.sufficient)} data-condition={r.condition ?? ''}>
                      <strong>{title}</strong>
                      {M.titleEnd}
                      {reason} <a href={localizedHref(locale, r.href)}>{explain.linkTitles[r.href]}</a>
                    </li>
                  );
                })}
              </ol>
              {result.summary !== null && (
                <section data-summary-device={result.summary.deviceId ?? ''}>
                  <h3>{S.summary(result.summary.deviceId)}</h3>
                  {summaryRows.length === 0 ? (
                    <p class="diag-note">{S.summaryUnreadable}</p>
                  ) : (
                    <SummaryTable summary={result.summary} />
                  )}
                  <UnreadList notes={result.summary.unread} title={S.summaryUnread} />
                </section>
              )}
            </>
          )}
          <UnreadList notes={result.parse.unread} title={S.unread} />
        </div>
      )}
    </ToolFrame>
  );
}
