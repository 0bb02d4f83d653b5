import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sourcePathOf } from './support/translations';
import { estimateFor, valueAt } from '../../../src/components/estimate/estimate-figure';
import { getGpuPreset } from '../../../src/memory/gpus';
import { busBandwidth, gatherShare } from '../../../src/memory/step-time/collectives';

/**
 * No page types a step time by hand. A step time is an estimate with an error band, so it is an `<Estimate … unit="seconds"/>`
 * computed at build time, and the component prints the band; a part of a step is an `<Estimate show="time.<id>" unit="share"/>`,
 * its share of that banded step (lesson-figures.test.ts checks both). What may stay typed is listed below, each with why:
 * a published measurement with its source, or a transfer bound that the sentence derives from bytes and a link rate.
 * Where prose compares generated times in words (the parallelism lesson's two-server example), the words are checked here too.
 */
const CONTENT_DIR = join(import.meta.dirname, '../../../content/docs');

/** A time figure a page may type, on one page, and why it is not a typed step time. */
interface AllowedTime {
  /** The page, under content/docs. */
  readonly page: string;
  /** The figure as the scan finds it: number, then unit. */
  readonly figure: string;
  /** A published measurement (with its source) or the bytes ÷ rate arithmetic the sentence shows. */
  readonly why: string;
}

const ALLOWED: readonly AllowedTime[] = [
  { page: 'lessons/offload.mdx', figure: '3 s', why: 'bound: 96 GB of fp32 master weights and moments ÷ PCIe 4.0 x16 at 31.5 GB/s' },
  { page: 'lessons/offload.mdx', figure: '0.51 s', why: 'bound: 16 GB of 16-bit weights ÷ PCIe 4.0 x16 at 31.5 GB/s' },
  { page: 'lessons/offload.mdx', figure: '0.25 s', why: 'bound: 16 GB of 16-bit weights ÷ PCIe 5.0 x16 at 63 GB/s' },
  {
    page: 'lessons/offload.mdx',
    figure: '0.78 s',
    why: 'bound: 241 GB of CPU-Adam traffic ÷ eight DDR5-4800 channels at 307 GB/s',
  },
  {
    page: 'lessons/offload.mdx',
    figure: '2.7 s',
    why: 'bound: 241 GB of CPU-Adam traffic ÷ two DDR5-5600 channels at 89.6 GB/s',
  },
  {
    page: 'lessons/offload.mdx',
    figure: '8.2 s',
    why: 'published: DeepSpeed pull request #735, CPU-Adam on an 11.6B GPT-2 (src/memory/step-time/cpu-adam.ts)',
  },
  { page: 'lessons/offload.mdx', figure: '56 s', why: 'published: DeepSpeed pull request #735, torch.optim.Adam on the same host' },
  {
    page: 'lessons/offload.mdx',
    figure: '0.71 s',
    why: 'published: DeepSpeed pull request #735, 8.2 s ÷ 11.6 billion parameters, the rate cpu-adam.ts uses',
  },
  { page: 'lessons/offload.mdx', figure: '4.5 s', why: 'bound: 141 GB of bf16 weights ÷ PCIe 4.0 x16 at 31.5 GB/s' },
  { page: 'lessons/offload.mdx', figure: '2.2 s', why: 'bound: 141 GB ÷ PCIe 5.0 x16 at 63 GB/s' },
  { page: 'lessons/offload.mdx', figure: '0.31 s', why: 'bound: 141 GB ÷ NVLink-C2C at 450 GB/s' },
  { page: 'lessons/offload.mdx', figure: '0.042 s', why: 'bound: 141 GB ÷ HBM3 at 3.35 TB/s' },
  { page: 'lessons/offload.mdx', figure: '10 s', why: 'bound: 96 GB of fp32 states ÷ a PCIe 4.0 x4 NVMe link at 7.9 GB/s' },
  { page: 'lessons/offload.mdx', figure: '0.83$ s', why: 'bound: 26 GB ÷ 31.5 GB/s, the arithmetic in the answer' },
  { page: 'lessons/offload.mdx', figure: '0.058$ s', why: 'bound: 26 GB ÷ 450 GB/s, the arithmetic in the answer' },
  {
    page: 'renting-gpus.mdx',
    figure: '30 seconds',
    why: 'published: Google Cloud Spot VMs preemption process, 30 s from soft to hard power-off (linked on the page)',
  },
  {
    page: 'renting-gpus.mdx',
    figure: '5 seconds',
    why: 'published: AWS spot-instance-termination-notices, how often to poll instance metadata',
  },
  {
    page: 'tools/snapshot.mdx',
    figure: '5 s',
    why: 'measured: the snapshot reader on the ~96 MB pickle of scripts/bench/diagnose.ts, not a training step',
  },
];

/** A number followed by a time unit; the number may close a `$…$` formula ("$26 / 31.5 \approx 0.83$ s"). */
const TIME_FIGURE = /(?<![\w.,])\d[\d,]*(?:\.\d+)?\$?\s?(?:ms|s|µs|seconds?|milliseconds?|microseconds?)\b/g;

/**
 * The prose of an MDX page with what is not typed prose removed: the front matter, code blocks and inline code (commands
 * and logs), and component tags (`<Estimate …/>` computes its figure).
 */
function proseOf(mdx: string): string {
  return mdx
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '')
    .replace(/<[A-Z]\w*\b[^>]*?\/>/gs, '');
}

/** Every time figure typed in an MDX page's prose, as written (newlines as spaces). */
function typedTimes(mdx: string): string[] {
  return [...proseOf(mdx).matchAll(TIME_FIGURE)].map((m) => m[0].replace(/\s+/g, ' '));
}

function listPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listPages(path) : /\.mdx?$/.test(entry.name) ? [path] : [];
  });
}

const pages = listPages(CONTENT_DIR).map((path) => ({ page: relative(CONTENT_DIR, path), text: readFileSync(path, 'utf8') }));

describe('no page types a step time', () => {
  test.each(pages.map((p) => [p.page, p.text] as const))('%s types only allowed time figures', (page, text) => {
    // A translation may type what its English page may (its figures are the English page's, in Chinese prose).
    const allowed = new Set(ALLOWED.filter((a) => a.page === sourcePathOf(page)).map((a) => a.figure));
    expect(typedTimes(text).filter((figure) => !allowed.has(figure))).toEqual([]);
  });

  test.each(ALLOWED.map((a) => [`${a.page}: ${a.figure}`, a] as const))('%s is still on its page', (_name, allowed) => {
    const page = pages.find((p) => p.page === allowed.page);
    expect(page, allowed.page).toBeDefined();
    expect(typedTimes(page?.text ?? '')).toContain(allowed.figure);
    expect(allowed.why).toMatch(/^(published|bound|measured): /);
  });
});

describe('the scan catches what it is meant to', () => {
  test('a typed step time in prose or a table is found', () => {
    expect(typedTimes('at 40% utilisation the step takes about 3.5 s of compute')).toEqual(['3.5 s']);
    expect(typedTimes('| Large batch | ≥ 1.39 s | 62 ms |')).toEqual(['1.39 s', '62 ms']);
    expect(typedTimes('that is $84 / 31.5 \\approx 2.7$ s each way')).toEqual(['2.7$ s']);
    expect(typedTimes('a notice 30 seconds before')).toEqual(['30 seconds']);
  });

  test('generated figures, code, GPU names and rates are not', () => {
    const mdx = [
      '---',
      'title: 9 s',
      '---',
      'It takes <Estimate flags="--model gpt2 --gpu h100-80gb" show="stepTime.totalSeconds" unit="seconds" /> on 8 H100s.',
      '```',
      'step 10 took 1.2 s',
      '```',
      'Run `sleep 5s` over 400 Gb/s at 989 TFLOP/s on 512 V100s.',
    ].join('\n');
    expect(typedTimes(mdx)).toEqual([]);
  });
});

// The parallelism lesson's two-server sentences word its figures: the second server adds "a little traffic, not ten
// times as much", one card's pricing "would take about ten times longer", ZeRO-1 "leaves more on the step than FSDP",
// FSDP's exposed traffic "grows" under accumulation, and HSDP buys "no time" on this network. The words stay true
// only while the model does. The flags are those of the lesson's tables.
describe("the parallelism lesson's two-server example says what the model says", () => {
  const base = '--model llama-3.1-8b --seq 2048 --gpu h100-80gb --precision mixed-bf16 --stack pytorch';
  const flags = `${base} --zero 1`;
  const dataParallelSeconds = (dp: number): number => Number(valueAt(estimateFor(`${flags} --dp ${dp}`), 'time.data-parallel'));
  const fsdp = (more: string, show: string): number => Number(valueAt(estimateFor(`${base} --zero 3 ${more}`), show));

  test('ZeRO-1 leaves more data-parallel traffic on the step than FSDP, on one server and on two', () => {
    expect(dataParallelSeconds(8)).toBeGreaterThan(fsdp('--dp 8', 'time.data-parallel'));
    expect(dataParallelSeconds(16)).toBeGreaterThan(fsdp('--dp 16', 'time.data-parallel'));
  });

  test("FSDP's exposed traffic grows with 8 micro-batches of accumulation, since it gathers in each", () => {
    expect(fsdp('--dp 16 --grad-accum 8', 'time.data-parallel')).toBeGreaterThan(fsdp('--dp 16', 'time.data-parallel'));
  });

  // "stays at N % of the step, while ZeRO-1's, paid once per step, falls to M %": the shares the lesson prints.
  test("with 8 micro-batches FSDP's share of the step holds while ZeRO-1's falls to under half", () => {
    const share = (layout: string, more: string): number => {
      const { stepTime } = estimateFor(`${base} ${layout} --dp 16 ${more}`);
      return Number(stepTime?.lines.find((l) => l.id === 'data-parallel')?.seconds) / Number(stepTime?.totalSeconds);
    };
    expect(share('--zero 3', '--grad-accum 8')).toBeGreaterThan(0.9 * share('--zero 3', ''));
    expect(share('--zero 1', '--grad-accum 8')).toBeLessThan(0.5 * share('--zero 1', ''));
  });

  test('HSDP over two servers is not faster than FSDP over 16 by the estimate, and holds more per GPU', () => {
    const hsdp = '--dp 16 --shard-group 8';
    expect(fsdp(hsdp, 'stepTime.totalSeconds')).toBeGreaterThanOrEqual(fsdp('--dp 16', 'stepTime.totalSeconds'));
    expect(fsdp(hsdp, 'perGpu.total')).toBeGreaterThan(fsdp('--dp 16', 'perGpu.total'));
    expect(fsdp(hsdp, 'perGpu.total')).toBe(fsdp('--dp 8', 'perGpu.total'));
  });

  test('16 H100s over two servers leave less than 1.5 times the traffic of 8 in one', () => {
    const ratio = dataParallelSeconds(16) / dataParallelSeconds(8);
    expect(ratio).toBeGreaterThan(1);
    expect(ratio).toBeLessThan(1.5);
  });

  test("one card's 50 GB/s would make the all-gather about ten times slower on 16 than NVLink on 8", () => {
    const h100 = getGpuPreset('h100-80gb');
    if (h100 === undefined) throw new Error('no h100-80gb preset');
    const oneCard = gatherShare(16) / busBandwidth(h100, true, 1);
    const inServer = gatherShare(8) / busBandwidth(h100, false, 8);
    expect(oneCard / inServer).toBeGreaterThan(8);
    expect(oneCard / inServer).toBeLessThan(12);
  });
});
