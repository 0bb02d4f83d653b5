import { describe, expect, test } from 'vitest';
import { labMethodFigures } from '../../../../src/components/estimate/lab-method-figures';
import { tracedRuntimeVersion } from '../../../../src/components/estimate/trace-figure';

describe('labMethodFigures(): what "How the lab measures" states, computed from the rules the lab applies', () => {
  const figures = labMethodFigures();

  test('size classes 64 B to 160 MiB, 1.14× to 4× apart (onnxruntime buffer_manager.cc BUCKET_DEFAULT_LIMIT_TABLE at 0568e2b: 64 MiB over 56.25 MiB, 2 KiB over 512 B)', () => {
    expect([figures.smallestClass, figures.largestClass]).toEqual(['64 B', '160 MiB']);
    expect([figures.closestClasses, figures.widestClasses]).toEqual(['1.14×', '4×']);
  });

  test('sizes above the largest class round up to 16 B (buffer_manager.cc NormalizeBufferSize: (size + 15) / 16 * 16)', () => {
    expect(figures.alignment).toBe('16 B');
  });

  test('a flush every 16 dispatches (onnxruntime webgpu_context.h max_num_pending_dispatches_ = 16)', () => {
    expect(figures.dispatchesPerFlush).toBe(16);
  });

  test('the sources are linked at the release tag of the onnxruntime-web version the traces were recorded with', () => {
    const tag = `/blob/v${tracedRuntimeVersion('gradient-accumulation')}/`;
    for (const url of [figures.bufferManagerUrl, figures.webGpuContextUrl, figures.webGpuContextHeaderUrl]) {
      expect(url).toContain(`https://github.com/microsoft/onnxruntime${tag}onnxruntime/core/providers/webgpu/`);
    }
  });
});
