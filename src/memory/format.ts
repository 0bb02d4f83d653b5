/** Printing counts and times for people; sizes are printed by src/base/bytes.ts. */
import { stepTimeBand } from './step-time/band.ts';

/** Format a parameter count with thousands separators, e.g. "6,738,415,616". */
export function formatCount(count: number): string {
  // By hand rather than a regular expression or Intl: the engine labels every line on each estimate, and the planner
  // runs thousands of estimates per search (npm run bench -- planner).
  const digits = Math.round(Math.abs(count)).toString();
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return count < 0 && digits !== '0' ? `-${out}` : out;
}

/** Format seconds for people: "850 ms", "2.41 s", "3.2 min". */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return 'invalid';
  if (seconds === 0) return '0 s';
  if (seconds < 1e-3) return `${(seconds * 1e6).toFixed(0)} µs`;
  if (seconds < 1) return `${(seconds * 1e3).toFixed(seconds < 0.01 ? 2 : 0)} ms`;
  if (seconds < 120) return `${seconds.toFixed(2)} s`;
  return `${(seconds / 60).toFixed(1)} min`;
}

/**
 * A step time with its measured error band, "2.41 s (2.15 s–3.05 s)": every step time the site and the CLI print carries
 * the band (step-time/band.ts); without one (inference), the time alone.
 */
export function formatStepTime(seconds: number, band: { low: number; high: number } | null = stepTimeBand(seconds)): string {
  if (band === null) return formatSeconds(seconds);
  return `${formatSeconds(seconds)} (${formatSeconds(band.low)}–${formatSeconds(band.high)})`;
}

/**
 * One part of a step (compute, a collective, the optimizer, …) as its share of the step, "12 %", "0.4 %", "<0.1 %".
 * The error band was measured on whole steps only (step-time/band.ts), so a part has no band of its own to print with
 * seconds; its share of the banded total is what the model can honestly say about it.
 */
export function formatStepShare(partSeconds: number, stepSeconds: number): string {
  if (!Number.isFinite(partSeconds) || partSeconds < 0 || !(stepSeconds > 0) || !Number.isFinite(stepSeconds)) return 'invalid';
  if (partSeconds === 0) return '0 %';
  const percent = (100 * partSeconds) / stepSeconds;
  if (percent < 0.05) return '<0.1 %';
  // One decimal under 1 % (where it would round to "1.0", the whole number reads the same and shorter).
  return `${percent < 0.95 ? percent.toFixed(1) : percent.toFixed(0)} %`;
}
