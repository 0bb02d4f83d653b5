/**
 * Why a model was not read (the previous model stays in use), in English: the modules that read a model (hub.ts,
 * model-loader.ts, model-link.ts) return these as field errors, worded by the words they are given (these by default).
 * The picker's other words are the catalogues' `modelSource`.
 */
export const MODEL_SOURCE_ERRORS_EN = {
  badId: (id: string): string =>
    `'${id}' is not a Hugging Face model id: expected namespace/name (letters, digits, - _ .), e.g. Qwen/Qwen3-8B`,
  notFound: (id: string, host: string): string => `${host} has no ${id}/config.json (HTTP 404): check the id and its spelling`,
  refused: (id: string, host: string, status: number): string =>
    `${host} refused ${id}/config.json (HTTP ${status}): the repository is gated, private or does not exist; download its config.json and paste it`,
  status: (id: string, host: string, status: number): string => `${host} answered HTTP ${status} for ${id}/config.json`,
  network: (host: string, reason: string): string =>
    `could not reach ${host} (${reason}): offline, blocked here, or refusing this site; try the other host, or paste the file`,
  tooBig: (bytes: number): string => `the file is ${bytes} bytes, over the 1 MB limit; a model's config.json is a few KB`,
  notText: 'the file is not UTF-8 text',
  badLink: (param: string): string => `the link's ${param} parameter is damaged (not base64url); pick the model again`,
};

/** The words a model's reading fails in. */
export type ModelSourceErrors = typeof MODEL_SOURCE_ERRORS_EN;
