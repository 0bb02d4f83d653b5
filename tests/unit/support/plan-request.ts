/** The planner tests' requests: flags as `plan` takes them, parsed with the example prices. */
import { EXAMPLE_PRICES, parsePlanFlags, type PlanRequest, type RawFlagValues } from '../../../src/planner/index.ts';

/** The request `raw` parses to; a test case with bad flags throws with the parser's errors. */
export function planRequest(raw: RawFlagValues): PlanRequest {
  const parsed = parsePlanFlags(raw, EXAMPLE_PRICES);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.request;
}
