import { useMemo, useState } from 'preact/hooks';
import { formatEstimateFlags } from '../../memory/index';
import { estimateCommandLine } from '../../planner/index';
import { combineReadings, conflictLine, effectText, readTrainingConfig, wordSetupProblem } from '../../setup/index';
import CopyCommand from '../CopyCommand';
import WidgetField from '../WidgetField';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { messagesFor } from '../../i18n/messages/index';
import { LocaleContext } from '../../i18n/use-messages';
import '../widget.css';
import './setup.css';

/** One file the reader gave: its name and text. Nothing is uploaded: a dropped file is read with `File.text()`. */
interface GivenFile {
  readonly name: string;
  readonly text: string;
}

/**
 * Training configuration files in (pasted, dropped or chosen; they stay in the browser), the same mapping as
 * `estimate --training-config` out: key → value → engine option with the rule's source, conflicts with their winner,
 * and the estimate command that reproduces the setup.
 */
export default function TrainingConfigReader({ locale = DEFAULT_LOCALE }: { readonly locale?: Locale }) {
  const S = messagesFor(locale).trainingConfig;
  const [files, setFiles] = useState<readonly GivenFile[]>([]);
  const [pasted, setPasted] = useState('');
  const [pastedName, setPastedName] = useState('config.yaml');
  const add = (given: readonly GivenFile[]) =>
    setFiles((old) => [...old.filter((file) => !given.some((g) => g.name === file.name)), ...given]);
  const addFiles = (list: FileList | null) => {
    if (list === null) return;
    void Promise.all([...list].map(async (file) => ({ name: file.name, text: await file.text() }))).then(add);
  };

  const outcomes = useMemo(() => files.map((file) => readTrainingConfig(file.name, file.text)), [files]);
  const readings = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.reading] : []));
  const errors = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.error]));
  const mapping = useMemo(() => (readings.length === 0 ? null : combineReadings(readings)), [outcomes]);

  return (
    <LocaleContext.Provider value={locale}>
      <div class="widget training-config not-content" data-widget="training-config">
        <WidgetField label={S.pasteLabel}>
          <textarea
            rows={8}
            value={pasted}
            placeholder={S.pastePlaceholder}
            data-field="paste"
            onInput={(event) => setPasted(event.currentTarget.value)}
          />
        </WidgetField>
        <div class="training-config-actions">
          <WidgetField label={S.fileName}>
            <input value={pastedName} data-field="name" onInput={(event) => setPastedName(event.currentTarget.value)} />
          </WidgetField>
          <button
            type="button"
            data-action="read"
            disabled={pasted.trim() === ''}
            onClick={() => {
              add([{ name: pastedName.trim() === '' ? 'config' : pastedName.trim(), text: pasted }]);
              setPasted('');
            }}
          >
            {S.add}
          </button>
          <label
            class="training-config-drop"
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              addFiles(event.dataTransfer?.files ?? null);
            }}
          >
            {S.drop}
            <input type="file" multiple data-field="files" onChange={(event) => addFiles(event.currentTarget.files)} />
          </label>
          {files.length > 0 && (
            <button type="button" data-action="clear" onClick={() => setFiles([])}>
              {S.clear}
            </button>
          )}
        </div>

        {errors.map((error) => (
          // The terminal's line (`FILE: KEY: message`), with the page's colon and the error worded in its language.
          <p class="widget-error" role="alert" data-error>
            <code>{error.file}</code>
            {S.colon}
            {error.key !== '' && (
              <>
                <code>{error.key}</code>
                {S.colon}
              </>
            )}
            {wordSetupProblem(error.problem, S.errors)}
          </p>
        ))}

        {mapping !== null && (
          <div class="training-config-result" aria-live="polite">
            <p>
              <strong>{S.files}</strong>
              {S.colon}
              {readings.map((r) => `${r.file} (${r.tool})`).join(S.listSeparator)}
              {mapping.stack !== null && (
                <>
                  {' · '}
                  <strong>{S.stack}</strong>
                  {S.colon}
                  <span data-stack>{mapping.stack}</span>
                </>
              )}
            </p>
            <div class="widget-scroll scroll-shadows" tabIndex={0} role="region" aria-label={S.tableCaption}>
              <table class="widget-table" data-mapping>
                <caption>{S.tableCaption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{S.key}</th>
                    <th scope="col">{S.value}</th>
                    <th scope="col">{S.effect}</th>
                    <th scope="col">{S.source}</th>
                  </tr>
                </thead>
                <tbody>
                  {mapping.lines.map((line) => (
                    <tr data-kind={line.effect.kind}>
                      <td>
                        <code>{readings.length > 1 ? `${line.file}: ${line.key}` : line.key}</code>
                      </td>
                      <td>
                        <code>{line.value}</code>
                      </td>
                      <td>{effectText(line, S.setup, S.reasons)}</td>
                      <td lang="en">{line.source}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {mapping.conflicts.map((conflict) => (
              <p data-conflict>
                <strong>{S.conflict}</strong>
                {S.colon}
                {conflictLine(conflict, S.setup, S.reasons)}
              </p>
            ))}
            {mapping.missing.map((missing) => (
              <p data-missing>{S.missing(missing.file, missing.key)}</p>
            ))}
            {mapping.unknown.length > 0 && (
              <p data-unknown>
                <strong>{S.unknown}</strong>
                {S.colon}
                {mapping.unknown.map((k) => k.key).join(S.listSeparator)}
              </p>
            )}
            {mapping.ignored.length > 0 && (
              <p>
                <strong>{S.ignored}</strong>
                {S.colon}
                {mapping.ignored.map((k) => k.key).join(S.listSeparator)}
              </p>
            )}
            <p>
              <strong>{S.mergeOrder}</strong>
              {S.colon}
              {S.flagsWin(S.setup.mergeOrder)}
            </p>
            <CopyCommand
              command={estimateCommandLine(
                formatEstimateFlags({ ...(mapping.stack === null ? {} : { stack: mapping.stack }), ...mapping.options }),
              )}
              intro={S.copyIntro}
              copy={S.copy}
              copied={S.copied}
            />
          </div>
        )}
      </div>
    </LocaleContext.Provider>
  );
}
