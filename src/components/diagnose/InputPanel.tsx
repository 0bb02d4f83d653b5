import { useState } from 'preact/hooks';
import { useMessages } from '../../i18n/use-messages';

/** An example input, loaded only when the reader asks for it. */
export interface ExampleInput {
  label: string;
  load: () => Promise<File>;
}

/** Props of the input panel. */
export interface InputPanelProps {
  /** Tool id, used for the element ids. */
  tool: string;
  /** Shows a textarea for pasted text when set, with this placeholder. */
  pastePlaceholder?: string;
  /** File types the chooser offers (the `accept` attribute). */
  accept?: string;
  examples: ExampleInput[];
  onFile: (file: File) => void;
  busy: boolean;
}

/** The name of the File a paste becomes: the terminal reads a paste from standard input instead. */
export const PASTED_FILE_NAME = 'pasted.txt';

/**
 * Where the reader gives a tool its input: a file chooser that also takes a dropped file, a
 * textarea for pasted text, and example buttons. Nothing here reads the file: the tool does.
 */
export default function InputPanel({ tool, pastePlaceholder, accept, examples, onFile, busy }: InputPanelProps) {
  const S = useMessages().diagnose.input;
  const [dragging, setDragging] = useState(false);
  const [text, setText] = useState('');
  const take = (file: File | undefined) => {
    if (file) onFile(file);
  };
  return (
    <div
      class={`diag-input${dragging ? ' diag-dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        take(e.dataTransfer?.files[0]);
      }}
    >
      <p class="diag-privacy">{S.privacy}</p>
      <label class="widget-field">
        <span>{dragging ? S.dropHere : S.chooseFile}</span>
        <input
          type="file"
          accept={accept}
          data-input="file"
          disabled={busy}
          onChange={(e) => take((e.currentTarget as HTMLInputElement).files?.[0])}
        />
      </label>
      {pastePlaceholder !== undefined && (
        <div class="diag-paste">
          <label class="widget-field" for={`${tool}-paste`}>
            <span>{S.pasteLabel}</span>
          </label>
          <textarea
            id={`${tool}-paste`}
            data-input="paste"
            rows={6}
            spellcheck={false}
            placeholder={pastePlaceholder}
            value={text}
            onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <button
            type="button"
            data-action="analyse"
            disabled={busy || text.trim() === ''}
            onClick={() => onFile(new File([text], PASTED_FILE_NAME, { type: 'text/plain' }))}
          >
            {S.analyse}
          </button>
        </div>
      )}
      <p class="diag-examples">
        {S.examples}{' '}
        {examples.map((example, i) => (
          <button type="button" data-example={i} disabled={busy} onClick={() => void example.load().then(onFile)}>
            {example.label}
          </button>
        ))}
      </p>
    </div>
  );
}

/** Loads a file shipped with the site (an example) as a File, from this site's own origin. */
export async function exampleFile(url: string, name: string): Promise<File> {
  const response = await fetch(url);
  return new File([await response.blob()], name);
}
