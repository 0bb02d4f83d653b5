import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TERMS_ZH_CN, zhHeadword } from '../../../src/i18n/terms-zh-cn';

const DOCS = join(import.meta.dirname, '../../../content/docs');

/** The `###` headings of a page, in order: the glossary's headwords. */
function headwords(path: string): string[] {
  return [...readFileSync(join(DOCS, path), 'utf8').matchAll(/^### (.+)$/gm)].map((match) => match[1]!.trim());
}

/**
 * The terms the translation rules of issue #33 fix, each with the table entry that must carry it: a page translated
 * with the table then uses the word Chinese practitioners use.
 */
const RULE_TERMS: readonly { readonly en: string; readonly zh: string }[] = [
  { en: 'GPU memory', zh: '显存' },
  { en: 'Mixed precision', zh: '混合精度' },
  { en: 'Gradient accumulation', zh: '梯度累积' },
  { en: 'Gradient checkpointing', zh: '梯度检查点' },
  { en: 'Activation recomputation', zh: '激活重计算' },
  { en: 'Data parallelism', zh: '数据并行' },
  { en: 'Tensor parallelism', zh: '张量并行' },
  { en: 'Pipeline parallelism', zh: '流水线并行' },
  { en: 'ZeRO (stages 1, 2, 3)', zh: '零冗余优化器' },
  { en: 'Offload', zh: '卸载' },
  { en: 'Distillation (knowledge distillation)', zh: '知识蒸馏' },
  { en: 'Quantization', zh: '量化' },
  { en: 'Peak memory (of a step)', zh: '峰值显存' },
  { en: 'Optimizer states', zh: '优化器状态' },
  { en: 'Activations', zh: '激活值' },
  { en: 'Fragmentation', zh: '显存碎片' },
  { en: 'Micro-batch', zh: '微批次' },
  { en: 'Global batch', zh: '全局批次' },
  { en: 'Weights', zh: '权重' },
  { en: 'Gradients', zh: '梯度' },
  { en: 'Master weights', zh: '主权重' },
  { en: 'KV cache', zh: 'KV 缓存' },
];

describe('the zh-CN terminology table', () => {
  it('carries every term the translation rules fix, in the Chinese they give', () => {
    const zhOf = new Map(TERMS_ZH_CN.map((term) => [term.en, term.zh]));
    for (const rule of RULE_TERMS) expect(zhOf.get(rule.en), rule.en).toBe(rule.zh);
  });

  it('has one entry per English term', () => {
    const seen = new Set<string>();
    const repeated = TERMS_ZH_CN.map((term) => term.en.toLowerCase()).filter((en) => seen.has(en) || !seen.add(en));
    expect(repeated).toEqual([]);
  });

  it("holds every English glossary headword, in the glossary's order", () => {
    const glossary = headwords('glossary.mdx');
    expect(TERMS_ZH_CN.map((term) => term.en).filter((en) => glossary.includes(en))).toEqual(glossary);
  });

  it('files each term the glossary lacks where it falls alphabetically', () => {
    const glossary = new Set(headwords('glossary.mdx'));
    const misplaced = TERMS_ZH_CN.flatMap((term, index) => {
      if (glossary.has(term.en)) return [];
      const before = TERMS_ZH_CN[index - 1]?.en ?? '';
      const after = TERMS_ZH_CN[index + 1]?.en;
      const inOrder = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' }) <= 0;
      return inOrder(before, term.en) && (after === undefined || inOrder(term.en, after)) ? [] : [term.en];
    });
    expect(misplaced).toEqual([]);
  });

  it("heads the Chinese glossary's entries with the table's terms, in the English glossary's order", () => {
    const glossary = new Set(headwords('glossary.mdx'));
    const expected = TERMS_ZH_CN.filter((term) => glossary.has(term.en)).map(zhHeadword);
    expect(headwords('zh-cn/glossary.mdx')).toEqual(expected);
  });
});
