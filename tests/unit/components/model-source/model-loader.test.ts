/** The model picker's loading states, driven by a fake fetch: what the reader sees at each step, and what is kept. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { MAX_CONFIG_JSON_BYTES } from '../../../../src/memory/index';
import { HUB_HOSTS, type HubHost } from '../../../../src/components/model-source/hub';
import { createModelLoader, type ModelLoadState } from '../../../../src/components/model-source/model-loader';

const [HUB, MIRROR] = HUB_HOSTS as [HubHost, HubHost];
const QWEN3_8B = readFileSync(new URL('../../../../src/memory/model-configs/qwen3-8b.json', import.meta.url), 'utf8');

/** A loader whose fetch answers each request with `answer`, and the states it reported. */
function loaderWith(answer: (url: string, signal: AbortSignal | undefined) => Promise<Response>) {
  const states: ModelLoadState[] = [];
  const requested: string[] = [];
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    requested.push(String(input));
    return answer(String(input), init?.signal ?? undefined);
  }) as typeof globalThis.fetch;
  return { loader: createModelLoader(fetch, (state) => states.push(state)), states, requested };
}

const statuses = (states: readonly ModelLoadState[]) => states.map((s) => s.status);

describe('createModelLoader', () => {
  test('a Hub load reports fetching with its URL, then the model with its id and the reader’s shape', async () => {
    const { loader, states, requested } = loaderWith(async () => new Response(QWEN3_8B));
    await loader.fetchHub('Qwen/Qwen3-8B', HUB);
    expect(requested).toEqual(['https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json']);
    expect(states[0]).toEqual({ status: 'fetching', url: requested[0], receivedBytes: 0 });
    expect(statuses(states).at(-1)).toBe('loaded');
    const last = states.at(-1);
    if (last?.status !== 'loaded') throw new Error('expected a model');
    expect(last.model.hubId).toBe('Qwen/Qwen3-8B');
    expect(last.model.config.family).toBe('qwen3');
    expect(last.model.config.hidden).toBe((JSON.parse(QWEN3_8B) as { hidden_size: number }).hidden_size);
  });

  test('the mirror picked is the host asked', async () => {
    const { loader, requested } = loaderWith(async () => new Response(QWEN3_8B));
    await loader.fetchHub('Qwen/Qwen3-8B', MIRROR);
    expect(new URL(requested[0]!).host).toBe('hf-mirror.com');
  });

  test('a 404 ends failed on hub, never loaded', async () => {
    const { loader, states } = loaderWith(async () => new Response('Entry not found', { status: 404 }));
    await loader.fetchHub('Qwen/No-Such-Model', HUB);
    expect(statuses(states)).toEqual(['fetching', 'failed']);
    expect(states[1]).toMatchObject({ status: 'failed', errors: [{ field: 'hub' }] });
  });

  test('a body that is not JSON ends failed, naming config.json', async () => {
    const { loader, states } = loaderWith(async () => new Response('<html>Sign in</html>'));
    await loader.fetchHub('org/model', HUB);
    expect(states.at(-1)).toMatchObject({
      status: 'failed',
      errors: [{ field: 'config', message: expect.stringMatching(/^config\.json is not valid JSON/) }],
    });
  });

  test('a config.json with a bad key ends failed on that key', async () => {
    const broken = JSON.stringify({ ...(JSON.parse(QWEN3_8B) as object), num_key_value_heads: 0 });
    const { loader, states } = loaderWith(async () => new Response(broken));
    await loader.fetchHub('org/model', HUB);
    expect(states.at(-1)).toMatchObject({ status: 'failed', errors: [{ field: 'num_key_value_heads' }] });
  });

  test('a newer request supersedes one in flight: the first is aborted and its answer never reported', async () => {
    const gates: ((response: Response) => void)[] = [];
    const aborted: boolean[] = [];
    const { loader, states } = loaderWith(
      (_url, signal) =>
        new Promise((resolve, reject) => {
          signal?.addEventListener('abort', () => {
            aborted.push(true);
            reject(new DOMException('aborted', 'AbortError'));
          });
          gates.push(resolve);
        }),
    );
    const first = loader.fetchHub('org/first', HUB);
    const second = loader.fetchHub('org/second', HUB);
    gates[1]!(new Response(QWEN3_8B));
    await Promise.all([first, second]);
    expect(aborted).toEqual([true]);
    expect(statuses(states)).toEqual(['fetching', 'fetching', 'fetching', 'loaded']);
    expect(states.at(-1)).toMatchObject({ model: { hubId: 'org/second' } });
  });

  test('a paste is read at once; a broken paste fails on config and reports no model', () => {
    const { loader, states } = loaderWith(() => Promise.reject(new Error('no fetch expected')));
    loader.paste(QWEN3_8B);
    loader.paste('{ "hidden_size": ');
    expect(statuses(states)).toEqual(['loaded', 'failed']);
    expect(states[0]).toMatchObject({ model: { hubId: null } });
    expect(states[1]).toMatchObject({ errors: [{ field: 'config' }] });
  });

  test('a dropped file over 1 MB is refused by its size, before it is read', async () => {
    const { loader, states } = loaderWith(() => Promise.reject(new Error('no fetch expected')));
    const file = new Blob([new Uint8Array(MAX_CONFIG_JSON_BYTES + 1)]);
    file.arrayBuffer = () => Promise.reject(new Error('read a file over the limit'));
    await loader.file(file);
    expect(states).toEqual([
      { status: 'failed', errors: [{ field: 'config', message: expect.stringContaining('over the 1 MB limit') }] },
    ]);
  });

  test('a dropped config.json is read like a paste', async () => {
    const { loader, states } = loaderWith(() => Promise.reject(new Error('no fetch expected')));
    await loader.file(new Blob([QWEN3_8B]));
    expect(states).toMatchObject([{ status: 'loaded', model: { hubId: null, config: { family: 'qwen3' } } }]);
  });
});
