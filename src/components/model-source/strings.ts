/** The name of a config.json pasted, dropped or chosen, which has none of its own. */
const YOUR_FILE = 'Your config.json';

/** Every word of the model picker (preset, pasted config.json or Hugging Face id), in one place for translation. */
export const STRINGS = {
  /** The name of a model read from a config.json: its Hugging Face id, or for a file pasted or dropped, the file. */
  loadedName: (hubId: string | null) => hubId ?? YOUR_FILE,
  /** The select's entry for the model read from a config.json. */
  loadedOption: (hubId: string | null) => (hubId === null ? YOUR_FILE : `${hubId} (config.json)`),
  /** A parameter count for people: "8.19 B", "124.4 M". */
  parameterCount: (count: number) => (count >= 1e9 ? `${(count / 1e9).toFixed(2)} B` : `${(count / 1e6).toFixed(1)} M`),
  /** The line next to the model: its name, parameter counts and architecture family, as the engine computed them. */
  modelParams: (name: string, count: string, active: string | null, family: string | null) =>
    `${name} · ${count} parameters${active === null ? '' : `, ${active} active per token`}${family === null ? '' : ` (${family})`}`,
  otherModel: 'Another model: paste its config.json, or load it from the Hugging Face Hub',
  paste: {
    label: 'config.json (paste it, or drop the file here)',
    placeholder: '{ "model_type": "qwen3", "hidden_size": 4096, … }',
    use: 'Use this config.json',
    file: 'Or choose the file',
    note: 'Read in this browser; nothing is uploaded.',
  },
  hub: {
    id: 'Hugging Face Hub id',
    placeholder: 'Qwen/Qwen3-8B',
    host: 'Fetch from',
    hosts: { huggingface: 'huggingface.co (the Hub)', 'hf-mirror': 'hf-mirror.com (a mirror, reachable from China)' },
    load: (host: string) => `Load config.json from ${host}`,
    note: (host: string) =>
      `Only this button sends a request: to ${host}, for the model's config.json and nothing else. The page asks no other host.`,
    fetching: (url: string, received: string) => `Fetching ${url}… ${received} received`,
    loaded: (name: string) => `Loaded ${name}.`,
  },
  /** Why a model was not read; the previous model stays in use. */
  errors: {
    badId: (id: string) =>
      `'${id}' is not a Hugging Face model id: expected namespace/name (letters, digits, - _ .), e.g. Qwen/Qwen3-8B`,
    notFound: (id: string, host: string) => `${host} has no ${id}/config.json (HTTP 404): check the id and its spelling`,
    refused: (id: string, host: string, status: number) =>
      `${host} refused ${id}/config.json (HTTP ${status}): the repository is gated, private or does not exist; download its config.json and paste it`,
    status: (id: string, host: string, status: number) => `${host} answered HTTP ${status} for ${id}/config.json`,
    network: (host: string, reason: string) =>
      `could not reach ${host} (${reason}): offline, blocked here, or refusing this site; try the other host, or paste the file`,
    tooBig: (bytes: number) => `the file is ${bytes} bytes, over the 1 MB limit; a model's config.json is a few KB`,
    notText: 'the file is not UTF-8 text',
    badLink: (param: string) => `the link's ${param} parameter is damaged (not base64url); pick the model again`,
  },
} as const;
