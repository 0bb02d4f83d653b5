import type { Manifest } from '../../graphs/browser-safe';

/** Where the site serves the generated models (public/models/). */
export const MODELS_URL = `${import.meta.env.BASE_URL.replace(/\/?$/, '/')}models/`;

const loaded = new Map<string, Promise<unknown>>();

/**
 * A JSON file of the generated models folder, fetched once per page (a failed fetch is retried
 * on the next call). `what` names it in the error the reader sees.
 */
export function loadModelsJson<T>(file: string, what: string): Promise<T> {
  let pending = loaded.get(file);
  if (!pending) {
    pending = fetch(`${MODELS_URL}${file}`)
      .then((response) => {
        if (!response.ok) throw new Error(`Could not load ${what}: HTTP ${response.status}; run \`npm run models\`.`);
        return response.json() as Promise<unknown>;
      })
      .catch((error: unknown) => {
        loaded.delete(file);
        throw error;
      });
    loaded.set(file, pending);
  }
  return pending as Promise<T>;
}

/** The model manifest. */
export function loadManifest(): Promise<Manifest> {
  return loadModelsJson('manifest.json', 'the model manifest');
}
