/**
 * A loaded model in a page's URL, so a shared link reproduces it with no server and no second fetch: `config` holds the
 * config.json cut down to the keys the shape was read from (`shapeJson`), as base64url JSON, and `hub` the Hugging
 * Face id it came from, for its name only. The config.json keys rather than the engine's `ModelConfig` go in the link
 * so that opening it runs the same reader and checks as a pasted file, and a link still opens after `ModelConfig`
 * changes shape.
 */
import type { ShownFieldError } from '../../memory/index';
import { isHubId } from './hub';
import { readLoadedModel, type LoadedModel } from './loaded-model';
import { MODEL_SOURCE_ERRORS_EN, type ModelSourceErrors } from '../../i18n/messages/model-source/en';

/** Query name of the config.json keys, base64url JSON. */
export const CONFIG_PARAM = 'config';
/** Query name of the Hugging Face id the model was loaded from. */
export const HUB_PARAM = 'hub';

/** The query parameters that carry `model`. */
export function modelLinkParams(model: LoadedModel): [name: string, value: string][] {
  const params: [string, string][] = [[CONFIG_PARAM, toBase64Url(JSON.stringify(model.shapeJson))]];
  if (model.hubId !== null) params.push([HUB_PARAM, model.hubId]);
  return params;
}

/** What a link's query says about the model: none given, the model it carries, or the field errors why not. */
export type LinkedModel =
  | { readonly kind: 'none' }
  | { readonly kind: 'model'; readonly model: LoadedModel }
  | { readonly kind: 'error'; readonly errors: readonly ShownFieldError[] };

/**
 * The model a query carries, read through the same reader and checks as a pasted config.json; a damaged link's error
 * worded in `errors` (the page's language).
 */
export function modelFromLink(query: URLSearchParams, errors: ModelSourceErrors = MODEL_SOURCE_ERRORS_EN): LinkedModel {
  const encoded = query.get(CONFIG_PARAM);
  if (encoded === null) return { kind: 'none' };
  const hubId = query.get(HUB_PARAM);
  if (hubId !== null && !isHubId(hubId)) return { kind: 'error', errors: [{ field: HUB_PARAM, message: errors.badId(hubId) }] };
  let text: string;
  try {
    text = fromBase64Url(encoded);
  } catch {
    return { kind: 'error', errors: [{ field: CONFIG_PARAM, message: errors.badLink(CONFIG_PARAM) }] };
  }
  // As text, so the reader's own size limit and JSON errors apply.
  const reading = readLoadedModel(text, hubId);
  return reading.ok ? { kind: 'model', model: reading.model } : { kind: 'error', errors: reading.errors };
}

/** UTF-8 text as base64url without padding (RFC 4648 § 5): safe in a query without escaping. */
function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The text of base64url (padded or not); throws on anything else, or on bytes that are not UTF-8. */
function fromBase64Url(encoded: string): string {
  if (!/^[\w-]*={0,2}$/.test(encoded)) throw new Error('not base64url');
  const binary = atob(encoded.replaceAll('-', '+').replaceAll('_', '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
