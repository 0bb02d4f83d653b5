/** The planner's state in the URL query: the flag vocabulary of `npm run plan`, plus `plan`, the plan a link points at. */
import { FIXED_ESTIMATE_FLAGS, PLAN_FLAG_SPECS, type RawPlanFlags } from '../../planner/index';

/** Query name of the plan a link points at. */
export const PLAN_PARAM = 'plan';

const OWNED = new Set([...FIXED_ESTIMATE_FLAGS, ...PLAN_FLAG_SPECS.map((spec) => spec.name)]);

/** Raw flags from a query string: only the planner's names; `price` may repeat. */
export function flagsFromQuery(search: string): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!OWNED.has(name)) continue;
    const current = raw[name];
    if (name === 'price') raw[name] = [...(Array.isArray(current) ? current : []), value];
    else raw[name] = value;
  }
  return raw;
}

/** The query string of raw flags (empty values left out). */
export function queryFromFlags(raw: RawPlanFlags): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || value === '' || value === false) continue;
    if (Array.isArray(value)) for (const item of value) query.append(name, item);
    else query.set(name, String(value));
  }
  return query.toString();
}
