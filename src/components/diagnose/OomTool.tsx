import { describeRemedy, LINK_TITLES } from '../../diagnose/explain';
import { formatBinarySize } from '../../base/bytes';
import { exampleFile } from './InputPanel';
import ToolFrame from './ToolFrame';
import { OOM_STRINGS as S } from './strings';
import UnreadList from './UnreadList';
import { useAnalysis } from './use-analysis';
import currentUrl from '../../diagnose/examples/oom-current.txt?url';
import otherUrl from '../../diagnose/examples/oom-other-process.txt?url';
import legacyUrl from '../../diagnose/examples/oom-legacy.txt?url';
import '../widget.css';
import './diagnose.css';

const size = (bytes: number | null) => (bytes === null ? S.absent : formatBinarySize(bytes));

/** Decodes a CUDA out-of-memory message into its figures and ranks what to try. */
export default function OomTool() {
  const analysis = useAnalysis('oom-message');
  const [state] = analysis;
  const examples = [
    { label: S.examples.current, load: () => exampleFile(currentUrl, 'oom-current.txt') },
    { label: S.examples.otherProcess, load: () => exampleFile(otherUrl, 'oom-other-process.txt') },
    { label: S.examples.legacy, load: () => exampleFile(legacyUrl, 'oom-legacy.txt') },
  ];
  const m = state.status === 'done' ? state.result.parse.message : null;
  return (
    <ToolFrame
      analysis={analysis}
      tool="oom-message"
      pastePlaceholder={S.placeholder}
      accept=".txt,.log,text/*"
      examples={examples}
    >
      {state.status === 'done' && (
        <div class="diag-results" aria-live="polite">
          {m === null ? (
            <p class="widget-error" role="alert">
              {S.notFound}
            </p>
          ) : (
            <>
              <p>
                {S.wording[m.wording]}
                {m.gpuIndex === null ? '' : `, GPU ${m.gpuIndex}`}
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
                  </tr>
                </thead>
                <tbody>
                  {(
                    [
                      [S.rows.tried, size(m.triedToAllocateBytes)],
                      [S.rows.total, size(m.totalBytes)],
                      [S.rows.free, size(m.freeBytes)],
                      [S.rows.process, size(m.processInUseBytes)],
                      [S.rows.allocated, size(m.allocatedBytes)],
                      [S.rows.reservedUnallocated, size(m.reservedUnallocatedBytes)],
                      ...(m.privatePoolsBytes === null ? [] : [[S.rows.privatePools, size(m.privatePoolsBytes)]]),
                      ...(m.allowedBytes === null ? [] : [[S.rows.allowed, size(m.allowedBytes)]]),
                      ...(m.nonPyTorchBytes === null ? [] : [[S.rows.nonPyTorch, size(m.nonPyTorchBytes)]]),
                      ...m.otherProcesses.map((p) => [S.rows.otherProcess(p.pid), formatBinarySize(p.bytes)]),
                      ...(m.fragmentationShare === null
                        ? []
                        : [[S.rows.fragmentation, `${(m.fragmentationShare * 100).toFixed(1)} %`]]),
                    ] as [string, string][]
                  ).map(([label, value]) => (
                    <tr>
                      <th scope="row">{label}</th>
                      <td>{value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p class="diag-note">{S.rounding}</p>
              <h3>{S.remedies}</h3>
              <ol data-remedies={state.result.remedies.map((r) => r.id).join(' ')}>
                {state.result.remedies.map((r) => {
                  const { title, reason } = describeRemedy(r);
                  return (
                    <li data-remedy={r.id} data-sufficient={String(r.sufficient)}>
                      <strong>{title}</strong>. {reason} <a href={r.href}>{LINK_TITLES[r.href]}</a>
                    </li>
                  );
                })}
              </ol>
            </>
          )}
          <UnreadList notes={state.result.parse.unread} title={S.unread} />
        </div>
      )}
    </ToolFrame>
  );
}
