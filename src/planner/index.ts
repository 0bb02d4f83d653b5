/**
 * The OOM planner: which combination of techniques makes a training job fit, and which is fastest
 * or cheapest. Pure (imports only src/memory); the CLI `plan` and the planner page call it.
 */
export {
  planTraining,
  planHardware,
  planModel,
  planDetails,
  planRun,
  rankMetric,
  type Plan,
  type PlanDetails,
  type SearchSummary,
  type PlanCost,
  type PlanOptions,
  type PlanResult,
  type Shortfall,
  type HardwareSuggestion,
} from './plan.ts';
export { parsePlanFlags, parsePrice, formatPrice, type PlanRequest, type ParsePlanResult } from './request.ts';
/** Raw flag values as a form, a URL query or argv gives them (`price` may repeat): the engine's type. */
export type { RawFlagValues } from '../memory/index.ts';
export {
  PLAN_FLAGS,
  PLAN_FLAG_TABLE,
  PLANNER_FLAG_NAMES,
  plannerFlagNamed,
  estimateCommandLine,
  planCommandLine,
  FIXED_ESTIMATE_FLAGS,
  MAX_GPUS,
  TASKS,
  RANKINGS,
  PLAN_DEFAULTS,
  TRAIN_TOKENS_FLAG,
  type PlanFlagKey,
  type RankBy,
  type Task,
} from './plan-flags.ts';
export {
  DIMENSIONS,
  MAX_TENSOR_PARALLEL,
  divisors,
  tensorParallelFits,
  type Choice,
  type Dimension,
  type SearchContext,
} from './dimensions.ts';
export { microBatchPreference, secondsLowerBound, type MicroBatchPreference } from './micro-batch.ts';
export { mergeParts, searchHardware } from './merge.ts';
export {
  searchParts,
  WHOLE_SEARCH,
  planFlags,
  planOptions,
  planKey,
  planLessons,
  REJECTION_ORDER,
  type FittingPlan,
  type Hardware,
  type HardwareSearch,
  type PlanChoice,
  type PartRejection,
  type RejectionGroup,
  type RejectionKind,
  type SearchPart,
  type SearchShare,
  type ShortOf,
} from './search.ts';
export {
  EXAMPLE_PRICES,
  EXAMPLE_PRICES_DATE,
  EXAMPLE_PRICES_SOURCE,
  PRICE_TIERS,
  costOf,
  formatCost,
  type GpuPrices,
  type PriceTable,
  type PriceTier,
} from './prices.ts';
export { changesNumerics, searchesLossyNumerics, LOSSY_OPTIMIZERS, LOSSY_PRECISIONS } from './numerics.ts';
export { orderLessons } from './order-lessons.ts';
export { PLANNER_WORDS, rejectionMessages, type PlannerWords } from './messages.ts';
export {
  BAND_RATIO,
  groupPlans,
  hardwareLabel,
  planSections,
  simplicityKey,
  type PlanDifference,
  type PlanGroup,
  type PlanSections,
} from './plan-groups.ts';
export {
  formatBanded,
  formatRunTime,
  runBudget,
  runBudgetLine,
  runBudgetText,
  stepsFor,
  type BandedAmount,
  type RunBudget,
  type RunBudgetInput,
} from './run-budget.ts';
