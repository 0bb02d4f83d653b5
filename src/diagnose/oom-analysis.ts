/**
 * The whole OOM reading the page and the CLI share: read the figures, check them, then rank what to try. A
 * memory_summary pasted with the message (fairseq and others log one after every OOM) is read too and checked
 * against it; a summary that cannot be read never costs the message its reading.
 */
import { looksLikeMemorySummary, parseMemorySummary, type MemorySummary } from './memory-summary.ts';
import { checkOomConsistency, checkSummaryAgainstOom, type OomFinding } from './oom-consistency.ts';
import { parseOomMessage, type OomParse } from './oom-message.ts';
import { rankOomRemedies, type OomRemedyPlan } from './oom-remedies.ts';

/** The figures, what does not add up among them, the case with its ranked remedies, and a summary pasted alongside. */
export interface OomAnalysis {
  parse: OomParse;
  findings: OomFinding[];
  plan: OomRemedyPlan | null;
  /** The memory_summary in the same paste, or null when there is none. */
  summary: MemorySummary | null;
}

/** Reads, checks and ranks the last OOM message in `text`, with any memory_summary beside it; never throws. */
export function analyzeOomText(text: string): OomAnalysis {
  const parse = parseOomMessage(text);
  const summary = looksLikeMemorySummary(text) ? parseMemorySummary(text) : null;
  if (parse.message === null) return { parse, findings: [], plan: null, summary };
  const findings = [...checkOomConsistency(parse.message), ...(summary ? checkSummaryAgainstOom(parse.message, summary) : [])];
  return { parse, findings, plan: rankOomRemedies(parse.message, findings), summary };
}
