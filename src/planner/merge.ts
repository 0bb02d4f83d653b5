/**
 * A search's shares merged into the whole: the page runs one share per worker (src/components/planner), the CLI and
 * the tests one share that is the whole search.
 */
import type { ModelConfig } from '../memory/index.ts';
import { DIMENSIONS, type Dimension } from './dimensions.ts';
import { PLANNER_WORDS, type PlannerWords } from './messages.ts';
import type { PlanRequest } from './request.ts';
import {
  REJECTION_ORDER,
  searchParts,
  WHOLE_SEARCH,
  type FittingPlan,
  type Hardware,
  type HardwareSearch,
  type PartRejection,
  type RejectionKind,
  type SearchPart,
} from './search.ts';

/**
 * Search every combination of `dimensions` on each set of GPUs in `hardware` (of one size) for `request` (whose model
 * resolved to `model`): one search each, in one walk (searchParts), its choices and reasons in `words`.
 */
export function searchHardware(
  request: PlanRequest,
  hardware: readonly Hardware[],
  model: ModelConfig,
  dimensions: readonly Dimension[] = DIMENSIONS,
  words: PlannerWords = PLANNER_WORDS,
): HardwareSearch[] {
  return searchParts(request, hardware, model, dimensions, WHOLE_SEARCH, words).map((part) => mergeParts([part]));
}

/**
 * The search's shares merged: plans together in the order of the whole walk, rejection groups of one reason added up, each keeping the closest
 * combination of its shares (the earliest in the walk on a tie, as the whole search keeps the first it meets).
 */
export function mergeParts(parts: readonly SearchPart[]): HardwareSearch {
  const first = parts[0];
  if (first === undefined) throw new Error('a search has at least one part');
  const groups = new Map<string, PartRejection>();
  for (const part of parts) {
    for (const group of part.rejected) {
      const id = `${group.kind}\u0000${group.reason}`;
      const seen = groups.get(id);
      if (seen === undefined) {
        groups.set(id, group);
        continue;
      }
      const closer =
        group.smallestGap !== null &&
        (seen.smallestGap === null ||
          group.smallestGap < seen.smallestGap ||
          (group.smallestGap === seen.smallestGap && (group.closestAt ?? Infinity) < (seen.closestAt ?? Infinity)));
      groups.set(id, { ...(closer ? group : seen), count: seen.count + group.count });
    }
  }
  const order = (kind: RejectionKind) => REJECTION_ORDER.indexOf(kind);
  const rejected = [...groups.values()]
    .sort((a, b) => order(a.kind) - order(b.kind) || b.count - a.count || a.reason.localeCompare(b.reason))
    .map(({ closestAt: _, ...group }) => group);
  return {
    hardware: first.hardware,
    plans: parts.length === 1 ? first.plans : inWalkOrder(parts),
    rejected,
    combinations: parts.reduce((sum, p) => sum + p.combinations, 0),
    evaluations: parts.reduce((sum, p) => sum + p.evaluations, 0),
  };
}

/** The parts' plans in the order the whole search meets them (each part's are in walk order already). */
function inWalkOrder(parts: readonly SearchPart[]): FittingPlan[] {
  const found = parts.flatMap((part) => part.plans.map((plan, i) => ({ plan, at: part.plansAt[i] ?? 0 })));
  return found.sort((a, b) => a.at - b.at).map(({ plan }) => plan);
}
