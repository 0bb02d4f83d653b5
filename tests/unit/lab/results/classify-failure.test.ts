import { describe, expect, test } from 'vitest';
import { classifyFailure } from '../../../../src/lab/results/classify-failure';

describe('classifyFailure(message)', () => {
  test.each([
    ['GPUOutOfMemoryError: Failed to allocate buffer', 'out-of-memory'],
    ['RangeError: WebAssembly.Memory(): could not allocate memory (Out of memory)', 'out-of-memory'],
    ['Device was lost: reason destroyed', 'device-lost'],
    ['Buffer size (2147483648) exceeds the max buffer size limit (1073741824)', 'limits'],
    ['[WebGPU] The program requires f16 but the device does not support it', 'unsupported'],
    ['no available backend found. ERR: [webgpu] Failed to get GPU adapter', 'unsupported'],
    ['Unexpected input data type', 'error'],
  ] as const)('%s → %s', (message, kind) => {
    expect(classifyFailure(message)).toBe(kind);
  });
});
