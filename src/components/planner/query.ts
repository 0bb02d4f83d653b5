/** The planner's state in the URL query: the flag vocabulary of `npm run plan`, plus `plan`, the plan a link points at. */
import { PLANNER_FLAG_NAMES, plannerFlagNamed, type RawFlagValues } from '../../planner/index';

/** Query name of the plan a link points at. */
export const PLAN_PARAM = 'plan';

const OWNED = new Set(PLANNER_FLAG_NAMES);

/** Raw flags from a query string: only the planner's names; a repeatable flag (`price`) may repeat. */
export function flagsFromQuery(search: string): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!OWNED.has(name)) continue;
    const current = raw[name];
    if (plannerFlagNamed(name)?.repeatable === true) raw[name] = [...(Array.isArray(current) ? current : []), value];
    else raw[name] = value;
  }
  return raw;
}

/** The query string of raw flags (empty values left out). */
export function queryFromFlags(raw: RawFlagValues): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || value === '' || value === false) continue;
    if (Array.isArray(value)) for (const item of value) query.append(name, item);
    else query.set(name, String(value));
  }
  return query.toString();
}
