/**
 * Property tests: whatever a reader pastes or drops, every parser returns a result (never throws),
 * every size it reports is a non-negative safe integer, and what it skipped is listed.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { diagnoseCommand } from '../../../src/cli/diagnose-command.ts';
import { classifyGpuPattern } from '../../../src/diagnose/gpu-pattern.ts';
import { parseMemorySummary } from '../../../src/diagnose/memory-summary.ts';
import { MAX_NOTES } from '../../../src/diagnose/notes.ts';
import { parseNvidiaSmi } from '../../../src/diagnose/nvidia-smi.ts';
import { analyzeOomText } from '../../../src/diagnose/oom-analysis.ts';
import { unpickle } from '../../../src/diagnose/pickle.ts';
import { readSnapshot } from '../../../src/diagnose/snapshot.ts';
import { exampleText, fixtureBytes } from './fixtures.ts';

const isSize = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);

const TEXT_FIXTURES = [
  'nvidia-smi-leak.csv',
  'nvidia-smi-spike-nounits.csv',
  'nvidia-smi-near-limit.txt',
  'oom-current.txt',
  'oom-legacy.txt',
  'oom-other-process.txt',
  'memory-summary.txt',
].map(exampleText);

/** A fixture, cut, with locale number formats, absurd values or random lines mixed in. */
const mangledText = fc.oneof(
  fc.string({ maxLength: 2000 }),
  fc.string({ unit: 'binary', maxLength: 500 }),
  fc
    .tuple(fc.constantFrom(...TEXT_FIXTURES), fc.nat(), fc.nat())
    .map(([t, a, b]) => t.slice(Math.min(a, b) % t.length, Math.max(a, b) % (t.length + 1))),
  fc.constantFrom(...TEXT_FIXTURES).map((t) => t.replace(/(\d)\.(\d)/g, '$1,$2')), // decimal commas: "1,23 GiB"
  fc
    .constantFrom(...TEXT_FIXTURES)
    .map((t) => t.replace(/(\d+) MiB/g, (_, n: string) => `${Number(n).toLocaleString('de-DE')},5 MiB`)), // "1.234,5 MiB"
  fc
    .tuple(
      fc.constantFrom(...TEXT_FIXTURES),
      fc.constantFrom('99999999999999999999', '-5', 'NaN', 'Infinity', '1e400', '0x10', ''),
    )
    .map(([t, v]) => t.replace(/\d+(?:\.\d+)?(?= ?(?:MiB|GiB|KiB|B ))/g, v)),
  fc.tuple(fc.constantFrom(...TEXT_FIXTURES), fc.array(fc.string({ maxLength: 80 }), { maxLength: 20 })).map(([t, junk]) => {
    const lines = t.split('\n');
    junk.forEach((j, i) => lines.splice((i * 7919) % (lines.length + 1), 0, j));
    return lines.join('\n');
  }),
);

describe('fuzz: text parsers', () => {
  test('parseNvidiaSmi + classifyGpuPattern: sizes are non-negative integers, verdicts one of five, notes capped', () => {
    fc.assert(
      fc.property(mangledText, (text) => {
        const log = parseNvidiaSmi(text);
        expect(log.unread.length).toBeLessThanOrEqual(MAX_NOTES + 1);
        for (const gpu of log.gpus) {
          expect(isSize(gpu.totalBytes)).toBe(true);
          for (const s of gpu.samples) expect(isSize(s.usedBytes) && Number.isFinite(s.t)).toBe(true);
          const pattern = classifyGpuPattern(gpu.samples, gpu.totalBytes);
          expect(['flat', 'leak', 'spike', 'near-limit', 'no-timeline']).toContain(pattern?.verdict);
          for (const v of Object.values(pattern?.evidence ?? {}))
            if (typeof v === 'number') expect(Number.isFinite(v) && v >= 0).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('analyzeOomText: every figure a size or null, shares within [0, 1], remedies freeing a size or null', () => {
    fc.assert(
      fc.property(mangledText, (text) => {
        const { parse, plan } = analyzeOomText(text);
        const { message, unread } = parse;
        if (message === null) {
          expect(unread.length).toBe(1);
          return;
        }
        for (const key of [
          'triedToAllocateBytes',
          'totalBytes',
          'freeBytes',
          'processInUseBytes',
          'allocatedBytes',
          'reservedUnallocatedBytes',
          'reservedBytes',
          'privatePoolsBytes',
          'allowedBytes',
          'nonPyTorchBytes',
        ] as const) {
          expect(isSize(message[key]), key).toBe(true);
        }
        if (message.fragmentationShare !== null)
          expect(message.fragmentationShare >= 0 && message.fragmentationShare <= 1).toBe(true);
        for (const r of plan?.remedies ?? []) expect(isSize(r.freesBytes)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test('parseMemorySummary: every figure a non-negative integer', () => {
    fc.assert(
      fc.property(mangledText, (text) => {
        const summary = parseMemorySummary(text);
        for (const metric of Object.values(summary.metrics)) {
          for (const figures of [metric.all, metric.largePool, metric.smallPool]) {
            if (figures) for (const v of Object.values(figures)) expect(isSize(v)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test('the CLI on any bytes: exit 0 with output, or exit 2 with one line', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          mangledText.map((t) => new TextEncoder().encode(t)),
          fc.uint8Array({ maxLength: 400 }),
        ),
        (bytes) => {
          const { code, stdout, stderr } = runCommand(diagnoseCommand, ['f'], { read: () => bytes });
          if (code === 0) expect(stdout.length).toBeGreaterThan(0);
          else {
            expect(code).toBe(2);
            expect(stderr.trimEnd().split('\n')).toHaveLength(1);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('fuzz: the unpickler and the snapshot viewer', () => {
  const snapshot = fixtureBytes('snapshot-oom.pickle');

  test('random bytes after a PROTO header: a value or an error with an offset inside the file', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 6 }), (body, protocol) => {
        const bytes = new Uint8Array([0x80, protocol, ...body]);
        const result = unpickle(bytes);
        if (!result.ok) {
          expect(result.error.message.length).toBeGreaterThan(0);
          expect(result.error.offset).toBeLessThanOrEqual(bytes.length);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('the example snapshot cut anywhere, or with bytes flipped: never throws, refusals are flagged', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: snapshot.length }),
        fc.array(fc.tuple(fc.nat({ max: snapshot.length - 1 }), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        (cut, flips) => {
          const bytes = snapshot.slice(0, Math.max(cut, 2));
          for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value;
          const read = readSnapshot(bytes);
          if (read.ok) expect(isSize(read.analysis.peakActiveBytes)).toBe(true);
          else expect(read.message.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a pickle of nested MARKs and DUPs as long as its bytes stays bounded (each opcode consumes a byte)', () => {
    const bytes = new Uint8Array(200_000).fill(0x28);
    bytes[0] = 0x80;
    bytes[1] = 4;
    const result = unpickle(bytes);
    expect(result.ok).toBe(false);
  });
});
