/**
 * The layer rules of eslint.config.js (ARCHITECTURE.md § Layers), each tried on one import it must refuse and one it
 * must allow, from a file in the folder it guards. A rule that stopped matching (a renamed folder, a block that a later
 * block overrides) fails here rather than letting the layers drift apart unseen.
 */
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const eslint = new ESLint();

/** The no-restricted-imports messages ESLint reports for `import` in a file at `filePath` (the file need not exist). */
async function restrictions(filePath: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import '${specifier}';\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('eslint.config.js layer rules', () => {
  test.each([
    ['src/base/new.ts', './bytes', '../memory/index'],
    ['src/memory/new.ts', '../base/bytes', '../planner/index'],
    ['src/memory/new.ts', './estimate', 'node:fs'],
    ['src/diagnose/new.ts', '../base/bytes', '../memory/index'],
    ['src/planner/new.ts', '../memory/index', '../diagnose/detect'],
    ['src/setup/new.ts', '../memory/index', '../planner/index'],
    ['src/setup/new.ts', 'yaml', 'node:fs'],
    ['src/cli/new.ts', '../setup/index', '../components/setup/TrainingConfigReader'],
    ['src/cli/new.ts', '../memory/index', '../i18n/messages/index'],
    ['src/lab/experiments/new.ts', '../../memory/index', '../../components/lab/lab-links'],
    ['src/lab/experiments/new.ts', '../worker/channel', '../../planner/index'],
    ['src/lab/worker/new.ts', '../page/progress', '../experiments/settings'],
    ['src/lab/page/new.ts', '../results/compare', '../worker/channel'],
    ['src/lab/results/new.ts', '../measure/executor', '../page/progress'],
    ['src/lab/measure/new.ts', '../../graphs/browser-safe', '../results/compare'],
    ['src/lab/measure/new.ts', './executor', '../../graphs/factory'],
    ['src/components/lab/New.tsx', '../../lab/page/progress', '../../cli/command'],
    ['src/components/lab/New.tsx', '../../graphs/browser-safe', '../../graphs/factory'],
    ['src/cli/new.ts', '../planner/index', '../components/planner/plan-text'],
    ['src/graphs/new.ts', 'onnx-proto', '../memory/index'],
    ['scripts/new.ts', '../src/memory/index', '../tests/unit/support/plan-request'],
    ['src/diagnose/new.ts', './detect', '../../tests/fixtures/diagnose/x'],
  ])('%s may import %s, not %s', async (filePath, allowed, refused) => {
    expect(await restrictions(filePath, allowed)).toEqual([]);
    expect(await restrictions(filePath, refused)).toHaveLength(1);
  });
});
