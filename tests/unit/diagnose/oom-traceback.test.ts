/**
 * The traceback above an OOM message (class 9 of issue #29), read from real pastes (tests/fixtures/diagnose/README.md
 * names each source): which phase died, in which op, and from which line of the reader's own code.
 */
import { describe, expect, test } from 'vitest';
import { analyzeOomText } from '../../../src/diagnose/oom-analysis.ts';
import { readOomTraceback } from '../../../src/diagnose/oom-traceback.ts';
import { pasteText } from './fixtures.ts';

const tracebackOf = (name: string) => analyzeOomText(pasteText(name)).traceback;

describe('readOomTraceback on real pastes', () => {
  test.each([
    ['09-optimizer-1.txt', 'optimizer-step', 'torch._foreach_sqrt'],
    ['09-backward-1.txt', 'backward', 'torch.autograd.backward'],
    ['09-backward-2.txt', 'backward', 'torch.autograd.backward'],
    ['02-mps-6.txt', 'backward', 'torch.autograd.backward'],
    ['09-evaluation-1.txt', 'evaluation', 'torch.cat'],
    ['09-evaluation-2.txt', 'evaluation', 'torch.bmm'],
    ['09-forward-1.txt', 'forward', 'torch.relu'],
    ['05-processes-1.txt', 'forward', 'F.linear'],
  ])('%s died in %s, asked for by %s', (name, phase, op) => {
    expect(tracebackOf(name)).toMatchObject({ phase, op });
  });

  test("the reader's own line is the innermost frame outside installed packages", () => {
    expect(tracebackOf('09-evaluation-1.txt')?.userFrame).toEqual({
      file: 'C:\\Users\\Omar\\Desktop\\CARN-pytorch\\carn\\model\\carn.py',
      line: 30,
      function: 'forward',
      code: 'c3 = torch.cat([c2, b3], dim=1)',
    });
    // Every frame of the optimizer paste is under site-packages: no line of the reader's to name.
    expect(tracebackOf('09-optimizer-1.txt')?.userFrame).toBeNull();
  });

  test('a traceback printed after the message belongs to another error and is not read', () => {
    expect(tracebackOf('09-trailing-traceback-1.txt')).toBeNull();
  });

  test('frames without a phase in them give no phase, but still the op', () => {
    expect(tracebackOf('03-cached-6.txt')).toMatchObject({ phase: null, op: '_VF.threshold', frames: 1 });
  });

  test('the frames of a real generate() traceback name the generate phase', () => {
    // oobabooga/textgen#963: the frames a later error printed from inside model.generate, read as if the message followed.
    const lines = pasteText('09-trailing-traceback-1.txt').split('\n').slice(2);
    expect(readOomTraceback(lines, lines.length)?.phase).toBe('generate');
  });
});

describe('the phase changes the ranking', () => {
  const ids = (name: string) => analyzeOomText(pasteText(name)).plan?.remedies.map((r) => r.id) ?? [];

  test('optimizer step: its own remedy leads a shortage', () => {
    expect(ids('09-optimizer-1.txt')[0]).toBe('optimizer-step-peak');
  });

  test('evaluation: no gradient checkpointing (there is no backward), no_grad leads', () => {
    expect(ids('09-evaluation-1.txt')[0]).toBe('inference-memory');
    expect(ids('09-evaluation-1.txt')).not.toContain('reduce-activations');
  });

  test('backward: activations are kept, so the activation remedies stay', () => {
    expect(ids('09-backward-2.txt')).toContain('reduce-activations');
    expect(ids('09-backward-2.txt')).not.toContain('inference-memory');
  });
});

describe("the reader's GPU count settles the sharding advice", () => {
  const shard = (gpus: number | null) =>
    analyzeOomText(pasteText('09-backward-2.txt'), { gpus }).plan?.remedies.filter((r) => /model-states/.test(r.id));

  test('unknown: sharding is offered on the condition of several GPUs', () => {
    expect(shard(null)).toMatchObject([{ id: 'shard-model-states', condition: 'several-gpus' }]);
  });

  test('eight GPUs: sharding without condition; one GPU: offload instead', () => {
    expect(shard(8)).toMatchObject([{ id: 'shard-model-states', condition: null }]);
    expect(shard(1)).toMatchObject([{ id: 'offload-model-states', condition: null }]);
  });
});
