import { describe, expect, test } from 'vitest';
import { backendReasonWords, fallbackCauseWords, type BackendChoice } from '../../../../src/lab/page/choose-backend';
import { MESSAGES } from '../../../../src/i18n/messages/index';

const wasm = (fallback: BackendChoice['fallback'], adapterName: string | null = null): BackendChoice => ({
  backend: 'wasm',
  fallback,
  adapterName,
  software: false,
});

describe('backendReasonWords and fallbackCauseWords: the choice as data, worded by the page', () => {
  // The sentences the page showed before the choice became data: the English must not change.
  test.each([
    [
      wasm('no-webgpu'),
      'This browser has no WebGPU (navigator.gpu is missing), so the model ran on the CPU through WebAssembly.',
    ],
    [
      wasm('no-adapter'),
      'WebGPU is present but offered no adapter (a blocklisted or missing GPU driver), so the model ran through WebAssembly.',
    ],
    [
      wasm('no-f16', 'google swiftshader'),
      'The WebGPU adapter (google swiftshader) has no 16-bit shaders (shader-f16), so both variants ran through WebAssembly, which runs the 16-bit model with casts to fp32 compute.',
    ],
    [
      { backend: 'webgpu', fallback: null, adapterName: null, software: true },
      'Ran on WebGPU (your GPU, a software adapter: every kernel ran on the CPU).',
    ],
    [{ backend: 'webgpu', fallback: null, adapterName: 'nvidia ampere', software: false }, 'Ran on WebGPU (nvidia ampere).'],
  ] as const)('%o in English', (choice, reason) => {
    expect(backendReasonWords(choice)).toBe(reason);
  });

  test('on WebGPU there is no fallback cause; without it the cause starts the reason', () => {
    expect(fallbackCauseWords({ backend: 'webgpu', fallback: null, adapterName: null, software: false })).toBeNull();
    const choice = wasm('no-f16', 'apple m2');
    expect(backendReasonWords(choice).startsWith(fallbackCauseWords(choice) ?? '∅')).toBe(true);
  });

  test.each(['no-webgpu', 'no-adapter', 'no-f16'] as const)('%s in Chinese keeps the adapter and API names', (fallback) => {
    const words = MESSAGES['zh-cn'].lab.backend;
    const reason = backendReasonWords(wasm(fallback, 'apple m2'), words);
    expect(reason).toMatch(/\p{Script=Han}/u);
    expect(reason).toContain('WebAssembly');
    if (fallback === 'no-f16') expect(reason).toContain('apple m2');
    expect(reason).not.toContain('so the model ran');
  });
});
