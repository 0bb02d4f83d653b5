import type { Manifest } from '../graphs/manifest';

/** Where the site serves the generated models (public/models/). */
export const MODELS_URL = `${import.meta.env.BASE_URL.replace(/\/?$/, '/')}models/`;

let manifest: Promise<Manifest<unknown>> | undefined;

/** The model manifest, fetched once per page. */
export function loadManifest(): Promise<Manifest<unknown>> {
  manifest ??= fetch(`${MODELS_URL}manifest.json`)
    .then((response) => {
      if (!response.ok) throw new Error(`Could not load the model manifest: HTTP ${response.status}`);
      return response.json() as Promise<Manifest<unknown>>;
    })
    .catch((error: unknown) => {
      manifest = undefined;
      throw error;
    });
  return manifest;
}
