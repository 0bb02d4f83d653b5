/** Fetching a config.json from the Hub or a mirror: the URL asked, and one field error on `hub` for each way it fails. */
import { describe, expect, test } from 'vitest';
import { MAX_CONFIG_JSON_BYTES } from '../../../../src/memory/index';
import { fetchHubConfig, HUB_HOSTS, hubConfigUrl, isHubId, type HubHost } from '../../../../src/components/model-source/hub';

const [HUB, MIRROR] = HUB_HOSTS as [HubHost, HubHost];
const CONFIG = '{"model_type":"llama","hidden_size":256}';

/** A fake fetch that records each request and answers with `answer`. */
function fakeFetch(answer: (url: string) => Response | Promise<Response>) {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), init });
    return answer(String(input));
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

/** A body streamed in chunks of `chunk` bytes, `total` in all, with no Content-Length. */
function streamed(total: number, chunk: number): Response {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(chunk, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return new Response(body);
}

describe('isHubId', () => {
  test.each(['foo', 'foo/bar', '123', 'Foo-BAR_foo.bar123', 'Qwen/Qwen3-8B', 'meta-llama/Llama-3.1-8B'])(
    'accepts %s (valid in huggingface_hub 1.x utils/_validators.py validate_repo_id docstring or a real repository)',
    (id) => expect(isHubId(id)).toBe(true),
  );
  test.each(['datasets/foo/bar', '.repo_id', 'foo--bar', 'foo.git', 'other..repo..id', '', 'Qwen/Qwen3 8B', 'a'.repeat(97)])(
    'refuses %j (not valid in huggingface_hub 1.x validate_repo_id, or too long)',
    (id) => expect(isHubId(id)).toBe(false),
  );
});

describe('hubConfigUrl', () => {
  test('the resolve path of huggingface_hub constants.py HUGGINGFACE_CO_URL_TEMPLATE (commit cadb7a9e line 68), on the host picked', () => {
    expect(hubConfigUrl('Qwen/Qwen3-8B', HUB)).toBe('https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json');
    expect(hubConfigUrl('Qwen/Qwen3-8B', MIRROR)).toBe('https://hf-mirror.com/Qwen/Qwen3-8B/resolve/main/config.json');
  });
});

describe('fetchHubConfig', () => {
  test('returns the body, asked of the host picked with no cookies and no referrer', async () => {
    const { fetch, requests } = fakeFetch(() => new Response(CONFIG));
    expect(await fetchHubConfig('Qwen/Qwen3-8B', MIRROR, { fetch })).toEqual({ ok: true, text: CONFIG });
    expect(requests).toHaveLength(1);
    expect(new URL(requests[0]!.url).host).toBe('hf-mirror.com');
    expect(requests[0]!.init).toMatchObject({ credentials: 'omit', referrerPolicy: 'no-referrer' });
  });

  test('a malformed id is refused before any request', async () => {
    const { fetch, requests } = fakeFetch(() => new Response(CONFIG));
    const answer = await fetchHubConfig('not an id', HUB, { fetch });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error).toMatchObject({ field: 'hub', message: expect.stringContaining("'not an id'") });
    expect(requests).toHaveLength(0);
  });

  test.each([
    [401, /HTTP 401.*gated, private or does not exist/],
    [403, /HTTP 403.*gated, private or does not exist/],
    [404, /no org\/model\/config\.json \(HTTP 404\)/],
    [500, /answered HTTP 500/],
  ])('HTTP %i is one line on hub naming the host', async (status, message) => {
    const { fetch } = fakeFetch(() => new Response('{"error":"x"}', { status }));
    const answer = await fetchHubConfig('org/model', HUB, { fetch });
    if (answer.ok) throw new Error('expected a failure');
    expect(answer.error.field).toBe('hub');
    expect(answer.error.message).toMatch(message);
    expect(answer.error.message).toContain('huggingface.co');
    expect(answer.error.message).not.toContain('\n');
  });

  test('a network failure names the host and suggests the other one', async () => {
    const fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof globalThis.fetch;
    const answer = await fetchHubConfig('org/model', MIRROR, { fetch });
    if (answer.ok) throw new Error('expected a failure');
    expect(answer.error).toEqual({
      field: 'hub',
      message: expect.stringMatching(/^could not reach hf-mirror\.com \(Failed to fetch\)/),
    });
  });

  test('an abort rejects rather than reading as a network failure', async () => {
    const controller = new AbortController();
    controller.abort();
    const fetch = (() => Promise.reject(new DOMException('aborted', 'AbortError'))) as typeof globalThis.fetch;
    await expect(fetchHubConfig('org/model', HUB, { fetch, signal: controller.signal })).rejects.toThrow('aborted');
  });

  test('a Content-Length over 1 MB is refused without reading the body', async () => {
    const body = streamed(MAX_CONFIG_JSON_BYTES + 1, 1 << 16);
    const { fetch } = fakeFetch(
      () => new Response(body.body, { headers: { 'content-length': String(MAX_CONFIG_JSON_BYTES + 1) } }),
    );
    const answer = await fetchHubConfig('org/model', HUB, { fetch });
    if (answer.ok) throw new Error('expected a failure');
    expect(answer.error.message).toContain(`${MAX_CONFIG_JSON_BYTES + 1} bytes, over the 1 MB limit`);
  });

  test('a body without a length stops being read past 1 MB, and progress is reported per chunk until then', async () => {
    const { fetch } = fakeFetch(() => streamed(4 * MAX_CONFIG_JSON_BYTES, 1 << 18));
    const progress: number[] = [];
    const answer = await fetchHubConfig('org/model', HUB, { fetch, onProgress: (bytes) => progress.push(bytes) });
    if (answer.ok) throw new Error('expected a failure');
    expect(answer.error.message).toMatch(/over the 1 MB limit/);
    expect(progress).toEqual([1 << 18, 2 << 18, 3 << 18, 4 << 18]);
  });

  test('bytes that are not UTF-8 are refused', async () => {
    const { fetch } = fakeFetch(() => new Response(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])));
    const answer = await fetchHubConfig('org/model', HUB, { fetch });
    expect(answer).toEqual({ ok: false, error: { field: 'hub', message: 'the file is not UTF-8 text' } });
  });
});
