import { describe, expect, test } from 'vitest';
import { STUDENT_SPEC, TEACHER_SPEC } from '../../../../../src/graphs/distillation/spec.ts';
import { createMlp } from '../../../../../src/graphs/mlp.ts';
import { allParameters } from '../../../../../src/graphs/model.ts';
import { parameterCount } from '../../../../../src/graphs/params.ts';
import {
  forwardEstimateOptions,
  predictForwardBytes,
  predictWeightBytes,
} from '../../../../../src/lab/experiments/distillation/predict.ts';
import { countParams, estimateMemory } from '../../../../../src/memory/index.ts';
import { mlpModelConfig } from '../../../support/mlp-model-config.ts';

describe('distillation predictions', () => {
  test.each([
    ['teacher', TEACHER_SPEC],
    ['student', STUDENT_SPEC],
  ] as const)('the engine counts the %s graph’s parameters exactly', (_name, spec) => {
    const outcome = estimateMemory(forwardEstimateOptions(spec, 'fp32', 64));
    expect(outcome.ok).toBe(true);
    const graphCount = parameterCount(allParameters(createMlp(spec)));
    expect(predictWeightBytes(spec, 'fp32')).toBe(4 * graphCount);
    expect(countParams(mlpModelConfig({ ...spec, inputs: spec.inputs ?? spec.hidden })).total).toBe(graphCount);
  });

  test('predictForwardBytes(teacher, fp32, 64) = weights + 2·4·b·h + 4·b·classes', () => {
    expect(predictForwardBytes(TEACHER_SPEC, 'fp32', 64)).toBe(4 * 137_992 + 2 * 4 * 64 * 256 + 4 * 64 * 8);
  });

  test('int8 weights are LLM.int8: a byte per weight and an fp32 scale per output column, the head and biases 16-bit', () => {
    const quantized = 16 * 256 + 4 * 256 + 2 * (256 * 256 + 4 * 256);
    const kept = 256 * 8 + 8 + 3 * 256;
    expect(predictWeightBytes(TEACHER_SPEC, 'int8')).toBe(quantized + 2 * kept);
  });

  test('the student predicts far below either teacher', () => {
    const student = predictForwardBytes(STUDENT_SPEC, 'fp32', 64);
    expect(student).toBeLessThan(predictForwardBytes(TEACHER_SPEC, 'int8', 64) / 10);
  });
});
