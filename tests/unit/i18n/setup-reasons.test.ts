import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { combineReadings, readTrainingConfig, reasonText, SETUP_REASONS, type FileReading } from '../../../src/setup/index';
import { MESSAGES } from '../../../src/i18n/messages/index';
import { HAN, ENGLISH_RUN } from '../../support/chinese-text';

/**
 * The training-config reader's reasons by code (src/setup/reasons.ts): each code worded in Chinese, and each reading
 * carrying, beside the English the terminal prints, the code and parameters that give back that very English.
 */
const ZH = MESSAGES['zh-cn'].trainingConfig.reasons;
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/training-configs');

/** Every fixture file's reading. */
function readFixtures(): FileReading[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) => readdirSync(join(FIXTURES, dir.name)).map((name) => join(dir.name, name)))
    .map((name) => {
      const outcome = readTrainingConfig(name, readFileSync(join(FIXTURES, name), 'utf8'));
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
      return outcome.reading;
    });
}

describe('the reader’s reasons in Chinese', () => {
  test('the catalogue words every code', () => {
    expect(Object.keys(ZH).sort()).toEqual(Object.keys(SETUP_REASONS).sort());
  });

  test.each(Object.keys(SETUP_REASONS))('%s reads as Chinese, its parameters kept', (code) => {
    const say = ZH[code as keyof typeof ZH] as (...params: (string | number)[]) => string;
    const english = SETUP_REASONS[code as keyof typeof SETUP_REASONS] as (...params: (string | number)[]) => string;
    // One distinct sample per parameter, so that a translation dropping one shows.
    const params = Array.from({ length: english.length }, (_, i) => (i % 2 === 0 ? `sample_${i}` : 7 + i));
    const text = say(...params);
    expect(text).toMatch(HAN);
    expect(text).not.toMatch(ENGLISH_RUN);
    for (const param of params) expect(text).toContain(String(param));
  });

  test('each line’s code and parameters give back the English the terminal prints', () => {
    const readings = readFixtures();
    const lines = [
      ...readings.flatMap((reading) => reading.lines),
      // Pairs fill DeepSpeed's "auto" keys and make conflicts.
      ...readings.flatMap((a) => readings.flatMap((b) => (a === b ? [] : combineReadings([a, b], { hidden: 2048 }).lines))),
    ];
    const worded = lines.flatMap((line) =>
      line.effect.kind === 'option' || line.effect.kind === 'names-file' ? [] : [line.effect],
    );
    // The fixtures reach many codes, not one sentence repeated.
    expect(new Set(worded.map((effect) => effect.reason.code)).size).toBeGreaterThan(5);
    for (const effect of worded)
      expect(reasonText(effect.reason)).toBe(effect.kind === 'not-modelled' ? effect.what : effect.why);
    const conflicts = readings.flatMap((a) => readings.flatMap((b) => (a === b ? [] : combineReadings([a, b]).conflicts)));
    expect(conflicts.length).toBeGreaterThan(0);
    for (const conflict of conflicts) expect(reasonText(conflict.reason)).toBe(conflict.why);
  });
});
