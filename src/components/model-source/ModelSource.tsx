import type { ComponentChildren } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import { formatBinarySize } from '../../base/bytes';
import { wordNotice } from '../../memory/index';
import WidgetField from '../WidgetField';
import { HUB_HOSTS, type HubHost } from './hub';
import type { LoadedModel } from './loaded-model';
import { fieldErrorsLine } from '../field-errors';
import { createModelLoader, type ModelLoadState } from './model-loader';
import { useMessages } from '../../i18n/use-messages';
import '../widget.css';
import './model-source.css';

/** A choice of the select other than a loaded model: a preset, or a widget's own entry such as the calculators' Custom…. */
export interface ModelOption {
  readonly id: string;
  readonly label: string;
}

/** Props of the model picker. */
export interface ModelSourceProps {
  /** The select's label. */
  readonly label: ComponentChildren;
  /** The presets, then the widget's own entries, in the order listed. */
  readonly options: readonly ModelOption[];
  /** The option selected while no model is loaded. */
  readonly selected: string;
  /** The model read from a config.json, in use instead of an option; null while an option is. */
  readonly loaded: LoadedModel | null;
  /** The widget's error for the model (a link's damaged model, a flag), shown under the select. */
  readonly error?: string | undefined;
  /** Attributes for the select, e.g. the calculators' `data-flag`. */
  readonly selectAttributes?: Readonly<Record<string, string>>;
  /** An option was picked: the widget drops the loaded model and uses it. */
  readonly onSelect: (id: string) => void;
  /** A config.json was read: the widget uses it. A failure calls nothing, so the model in use stays. */
  readonly onLoad: (model: LoadedModel) => void;
}

/** The select's value for the loaded model. */
const LOADED = 'loaded';

/**
 * The one way every widget picks a model: a preset from the select, or a config.json pasted, dropped, chosen or fetched
 * from the Hugging Face Hub (or the mirror picked) when the reader presses Load, and from nowhere else. The model read
 * from a file shows in the select under its name, with the reader's warnings under it.
 */
export default function ModelSource(props: ModelSourceProps) {
  const messages = useMessages();
  const text = messages.modelSource;
  const { label, options, selected, loaded, error, selectAttributes, onSelect, onLoad } = props;
  const [state, setState] = useState<ModelLoadState>({ status: 'idle' });
  const [pasted, setPasted] = useState('');
  const [hubId, setHubId] = useState('');
  const [hostId, setHostId] = useState<HubHost['id']>('huggingface');
  // The latest onLoad, so the loader made once calls the widget's current handler.
  const onLoadRef = useRef(onLoad);
  onLoadRef.current = onLoad;
  const loader = useMemo(
    () =>
      createModelLoader(
        (input, init) => fetch(input, init),
        (next) => {
          setState(next);
          if (next.status === 'loaded') onLoadRef.current(next.model);
        },
        messages.modelSourceErrors,
      ),
    [messages],
  );
  const host = HUB_HOSTS.find((h) => h.id === hostId) ?? HUB_HOSTS[0]!;
  const hostName = new URL(host.origin).host;
  const load = () => void loader.fetchHub(hubId.trim(), host);
  const readFile = (file: File | undefined) => {
    if (file !== undefined) void loader.file(file);
  };
  const loadError = state.status === 'failed' ? fieldErrorsLine(state.errors, messages.engine.fieldError) : undefined;

  return (
    <div class="model-source">
      <WidgetField label={label} error={error}>
        <select
          {...selectAttributes}
          value={loaded === null ? selected : LOADED}
          aria-invalid={error ? 'true' : undefined}
          onChange={(e) => {
            const value = (e.currentTarget as HTMLSelectElement).value;
            if (value !== LOADED) onSelect(value);
          }}
        >
          {loaded !== null && <option value={LOADED}>{text.loadedOption(loaded.hubId)}</option>}
          {options.map((o) => (
            <option value={o.id}>{o.label}</option>
          ))}
        </select>
      </WidgetField>
      {loaded !== null && loaded.notices.length > 0 && (
        <ul class="model-warnings" data-model-warnings>
          {loaded.notices.map((notice) => (
            <li>{wordNotice(notice, messages.engine.warnings)}</li>
          ))}
        </ul>
      )}
      <details class="model-source-panel">
        <summary>{text.otherModel}</summary>
        <WidgetField label={text.paste.label}>
          <textarea
            rows={4}
            spellcheck={false}
            placeholder={text.paste.placeholder}
            value={pasted}
            data-model-paste
            onInput={(e) => setPasted((e.currentTarget as HTMLTextAreaElement).value)}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              readFile(e.dataTransfer?.files[0]);
            }}
          />
        </WidgetField>
        <div class="model-source-row">
          <button type="button" data-action="use-paste" onClick={() => loader.paste(pasted)}>
            {text.paste.use}
          </button>
          <label class="model-source-file">
            <span>{text.paste.file}</span>{' '}
            <input
              type="file"
              accept=".json,application/json"
              onChange={(e) => readFile((e.currentTarget as HTMLInputElement).files?.[0])}
            />
          </label>
        </div>
        <p class="model-source-note">{text.paste.note}</p>
        <div class="model-source-row">
          <WidgetField label={text.hub.id}>
            <input
              type="text"
              spellcheck={false}
              autocomplete="off"
              placeholder={text.hub.placeholder}
              value={hubId}
              data-model-hub-id
              onInput={(e) => setHubId((e.currentTarget as HTMLInputElement).value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') load();
              }}
            />
          </WidgetField>
          <WidgetField label={text.hub.host}>
            <select
              value={hostId}
              data-model-hub-host
              onChange={(e) => setHostId((e.currentTarget as HTMLSelectElement).value as HubHost['id'])}
            >
              {HUB_HOSTS.map((h) => (
                <option value={h.id}>{text.hub.hosts[h.id]}</option>
              ))}
            </select>
          </WidgetField>
        </div>
        <button type="button" data-action="load-hub" disabled={state.status === 'fetching'} onClick={load}>
          {text.hub.load(hostName)}
        </button>
        <p class="model-source-note">{text.hub.note(hostName)}</p>
        <p class="model-source-status" aria-live="polite" data-load-state={state.status}>
          {state.status === 'fetching' && text.hub.fetching(state.url, formatBinarySize(state.receivedBytes))}
          {state.status === 'loaded' && text.hub.loaded(text.loadedName(state.model.hubId))}
        </p>
        {loadError !== undefined && (
          <p class="widget-error" role="alert" data-load-error>
            {loadError}
          </p>
        )}
      </details>
    </div>
  );
}
