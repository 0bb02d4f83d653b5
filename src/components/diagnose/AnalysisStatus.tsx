import { formatBinarySize } from '../../base/bytes';
import { useMessages } from '../../i18n/use-messages';
import type { AnalysisState } from './use-analysis';

/** Progress while a file is read, or why the analysis stopped. Nothing once there is a result. */
export default function AnalysisStatus<R>({ state }: { state: AnalysisState<R> }) {
  const S = useMessages().diagnose.input;
  if (state.status === 'working') {
    const text = S.progress(formatBinarySize(state.bytesRead), formatBinarySize(state.totalBytes));
    return (
      <p>
        <progress value={state.bytesRead} max={Math.max(1, state.totalBytes)} aria-label={text} /> {text}
      </p>
    );
  }
  if (state.status === 'failed') {
    return (
      <p class="widget-error" role="alert">
        {S.failed(state.browserReason)}
      </p>
    );
  }
  return null;
}
