/**
 * The model picker's loading, as a small state machine without the DOM: a pasted text, a dropped file or a Hub fetch
 * goes idle → (fetching →) loaded or failed. A new request supersedes one in flight (its fetch aborted, its answer
 * dropped), so the model shown is always the last the reader asked for; a failure never replaces the model in use.
 */
import { MAX_CONFIG_JSON_BYTES, type ShownFieldError } from '../../memory/index';
import { fetchHubConfig, hubConfigUrl, type HubHost } from './hub';
import { readLoadedModel, type LoadedModel, type ModelReading } from './loaded-model';
import { MODEL_SOURCE_ERRORS_EN, type ModelSourceErrors } from '../../i18n/messages/model-source/en';

/** Where loading stands. */
export type ModelLoadState =
  | { readonly status: 'idle' }
  | { readonly status: 'fetching'; readonly url: string; readonly receivedBytes: number }
  | { readonly status: 'loaded'; readonly model: LoadedModel }
  | { readonly status: 'failed'; readonly errors: readonly ShownFieldError[] };

/** The loader's requests. */
export interface ModelLoader {
  /** Read config.json text the reader pasted. */
  paste(text: string): void;
  /** Read a file the reader dropped or chose: its size is checked before a byte of it is read. */
  file(file: Blob): Promise<void>;
  /** Fetch `id`'s config.json from `host`. */
  fetchHub(id: string, host: HubHost): Promise<void>;
}

/**
 * A loader that reports every state through `onState`, fetching with `fetch` (the page's, or a test's fake), its own
 * errors worded in `errors` (the page's language).
 */
export function createModelLoader(
  fetch: typeof globalThis.fetch,
  onState: (state: ModelLoadState) => void,
  errors: ModelSourceErrors = MODEL_SOURCE_ERRORS_EN,
): ModelLoader {
  let current: AbortController | null = null;
  /** Starts a request: the one before it is aborted, and `isCurrent` tells whether this one is still the latest. */
  const start = () => {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    return { signal: controller.signal, isCurrent: () => current === controller };
  };
  // A reading, or a fetch's error worded in `errors`.
  const settle = (reading: ModelReading | { readonly ok: false; readonly errors: readonly ShownFieldError[] }) =>
    onState(reading.ok ? { status: 'loaded', model: reading.model } : { status: 'failed', errors: reading.errors });

  return {
    paste(text) {
      start();
      settle(readLoadedModel(text, null));
    },
    async file(file) {
      const { isCurrent } = start();
      if (file.size > MAX_CONFIG_JSON_BYTES) {
        onState({ status: 'failed', errors: [{ field: 'config', message: errors.tooBig(file.size) }] });
        return;
      }
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
      } catch {
        if (isCurrent()) onState({ status: 'failed', errors: [{ field: 'config', message: errors.notText }] });
        return;
      }
      if (isCurrent()) settle(readLoadedModel(text, null));
    },
    async fetchHub(id, host) {
      const { signal, isCurrent } = start();
      const url = hubConfigUrl(id, host);
      onState({ status: 'fetching', url, receivedBytes: 0 });
      let fetched;
      try {
        fetched = await fetchHubConfig(id, host, {
          fetch,
          errors,
          signal,
          onProgress: (receivedBytes) => {
            if (isCurrent()) onState({ status: 'fetching', url, receivedBytes });
          },
        });
      } catch (error) {
        // Only an abort rejects: a newer request took over, and reports for itself.
        if (signal.aborted) return;
        throw error;
      }
      if (!isCurrent()) return;
      settle(fetched.ok ? readLoadedModel(fetched.text, id) : { ok: false, errors: [fetched.error] });
    },
  };
}
