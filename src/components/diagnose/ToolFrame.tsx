import type { ComponentChildren } from 'preact';
import AnalysisStatus from './AnalysisStatus';
import { useState } from 'preact/hooks';
import { commandLine } from '../../base/command-line';
import CopyCommand from '../CopyCommand';
import InputPanel, { PASTED_FILE_NAME, type InputPanelProps } from './InputPanel';
import { useMessages } from '../../i18n/use-messages';
import type { AnalysisState } from './use-analysis';

/** Props of the frame every diagnose tool shares. */
export interface ToolFrameProps<R> extends Omit<InputPanelProps, 'onFile' | 'busy'> {
  /** `useAnalysis`'s state, file handler and readiness. */
  readonly analysis: readonly [AnalysisState<R>, (file: File) => void, boolean];
  /** The `data-state` to show when it differs from the analysis state (a refused file reads as `error`). */
  readonly shownState?: string;
  /** The tool's results. */
  readonly children: ComponentChildren;
  /** Flags the reader set on the page, for "Copy as command" (`--gpus 8`). */
  readonly commandFlags?: readonly string[];
}

/**
 * One diagnose tool: the input panel, the progress or failure line, then the tool's own results, with the
 * `data-tool`, `data-state` and `data-worker` attributes the browser tests read.
 */
export default function ToolFrame<R>({
  analysis: [state, onFile, ready],
  shownState,
  children,
  commandFlags = [],
  ...input
}: ToolFrameProps<R>) {
  const S = useMessages().diagnose.input;
  // What the reader gave, as the terminal command takes it: the file's name, or - for a paste (standard input).
  const [source, setSource] = useState('FILE');
  const read = (file: File) => {
    setSource(file.name === PASTED_FILE_NAME ? '-' : file.name);
    onFile(file);
  };
  return (
    <div class="widget" data-tool={input.tool} data-state={shownState ?? state.status} data-worker={ready ? 'ready' : 'starting'}>
      <InputPanel {...input} onFile={read} busy={state.status === 'working'} />
      <AnalysisStatus state={state} />
      {children}
      <CopyCommand
        command={commandLine('diagnose', [source, ...commandFlags])}
        intro={S.terminal}
        copy={S.copyCommand}
        copied={S.copiedCommand}
      />
    </div>
  );
}
