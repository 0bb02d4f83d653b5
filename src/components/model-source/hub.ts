/**
 * Fetching a model's config.json from the Hugging Face Hub or a mirror of it, for the model picker's Load button and
 * nothing else. Pure apart from the `fetch` it is given, so the tests hand it a fake.
 */
import { MAX_CONFIG_JSON_BYTES, type ShownFieldError } from '../../memory/index';
import { MODEL_SOURCE_ERRORS_EN, type ModelSourceErrors } from '../../i18n/messages/model-source/en';

/** A host that serves Hugging Face repositories' files. */
export interface HubHost {
  readonly id: 'huggingface' | 'hf-mirror';
  /** Scheme and host, no trailing slash. */
  readonly origin: string;
}

/**
 * The hosts a reader may pick. hf-mirror.com mirrors the Hub under the same paths: it is what readers set `HF_ENDPOINT`
 * to where huggingface.co is blocked (as in China), and huggingface_hub builds every file URL from that endpoint alone
 * (huggingface_hub `src/huggingface_hub/constants.py` at commit cadb7a9e, line 68:
 * `HUGGINGFACE_CO_URL_TEMPLATE = ENDPOINT + "/{repo_id}/resolve/{revision}/{filename}"`, `ENDPOINT` being
 * `os.getenv("HF_ENDPOINT")` or https://huggingface.co).
 */
export const HUB_HOSTS: readonly HubHost[] = [
  { id: 'huggingface', origin: 'https://huggingface.co' },
  { id: 'hf-mirror', origin: 'https://hf-mirror.com' },
];

/**
 * A repository id as the Hub accepts it: `name` or `namespace/name`, each of letters, digits, `-`, `_`, `.`, not starting
 * or ending with `-` or `.`, at most 96 characters, no `--` or `..`, not ending in `.git` (huggingface_hub 1.x
 * `utils/_validators.py` `REPO_ID_REGEX` and `validate_repo_id`). Checked before any request, so nothing malformed is sent.
 */
const REPO_ID = /^(?:[\w.-]+\/)?[\w.-]{1,96}$/;

/** Whether `id` is a repository id the Hub could hold. */
export function isHubId(id: string): boolean {
  const edges = id.split('/').every((part) => /^\w/.test(part) && /\w$/.test(part));
  return REPO_ID.test(id) && edges && !id.includes('--') && !id.includes('..') && !id.endsWith('.git');
}

/** The URL of `id`'s config.json on its main branch at `host` (the Hub's `resolve` path, as `from_pretrained` asks it). */
export function hubConfigUrl(id: string, host: HubHost): string {
  return `${host.origin}/${id}/resolve/main/config.json`;
}

/** What a fetch gave: the file's text, or a field error on `hub` in one line. */
export type HubFetch = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: ShownFieldError };

/** How to fetch: the function (the page's `fetch`, a test's fake), an abort signal, and a callback per chunk received. */
export interface HubFetchOptions {
  readonly fetch: typeof globalThis.fetch;
  readonly signal?: AbortSignal;
  readonly onProgress?: (receivedBytes: number) => void;
  /** The words of its errors (the page's language; English by default). */
  readonly errors?: ModelSourceErrors;
}

const hubError = (message: string): HubFetch => ({ ok: false, error: { field: 'hub', message } });

/**
 * Fetch `id`'s config.json from `host`: no cookies or referrer sent, the body read in chunks and dropped past 1 MB (a
 * real config.json is a few KB), and every failure (refused, missing, unreachable, too big, not text) one line on `hub`.
 * An abort rejects, as `fetch` does, so a superseded request is not mistaken for a failure.
 */
export async function fetchHubConfig(id: string, host: HubHost, options: HubFetchOptions): Promise<HubFetch> {
  const words = options.errors ?? MODEL_SOURCE_ERRORS_EN;
  if (!isHubId(id)) return hubError(words.badId(id));
  const name = new URL(host.origin).host;
  // Called unbound: a browser's fetch throws "Illegal invocation" when called as a method of another object.
  const { fetch } = options;
  let response: Response;
  try {
    response = await fetch(hubConfigUrl(id, host), {
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    return hubError(words.network(name, error instanceof Error ? error.message : String(error)));
  }
  // The Hub answers 401 both for a gated or private repository and for a missing one, so one message covers all three
  // (huggingface_hub `utils/_http.py` hf_raise_for_status: "401 is misleading as it is returned for private and gated
  // repos if user is not authenticated, missing repos").
  if (response.status === 401 || response.status === 403) return hubError(words.refused(id, name, response.status));
  if (response.status === 404) return hubError(words.notFound(id, name));
  if (!response.ok) return hubError(words.status(id, name, response.status));
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_CONFIG_JSON_BYTES) return hubError(words.tooBig(declared));
  const bytes = await readCapped(response, options.onProgress);
  if (typeof bytes === 'number') return hubError(words.tooBig(bytes));
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return hubError(words.notText);
  }
}

/** The body's bytes, or the count received when it passed the limit (reading stops there). */
async function readCapped(response: Response, onProgress?: (receivedBytes: number) => void): Promise<Uint8Array | number> {
  if (response.body === null) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > MAX_CONFIG_JSON_BYTES) {
      await reader.cancel();
      return received;
    }
    chunks.push(value);
    onProgress?.(received);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
