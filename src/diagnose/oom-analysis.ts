/**
 * The whole OOM reading the page and the CLI share: read the figures, check them, then rank what to try. The
 * traceback above the message says which phase died, and the reader may say how many GPUs they have; both change
 * the ranking. A memory_summary pasted with the message (fairseq and others log one after every OOM) is read too and
 * checked against it; a summary that cannot be read never costs the message its reading.
 */
import { looksLikeMemorySummary, parseMemorySummary, type MemorySummary } from './memory-summary.ts';
import { checkOomConsistency, checkSummaryAgainstOom, type OomFinding } from './oom-consistency.ts';
import { oomMessageLine, parseOomMessage, type OomParse } from './oom-message.ts';
import { rankOomRemedies, type OomContext, type OomRemedyPlan } from './oom-remedies.ts';
import { readOomTraceback, type OomTraceback } from './oom-traceback.ts';
import { cleanPaste } from './paste-cleanup.ts';

/** The figures, what does not add up among them, the case with its ranked remedies, and what the paste held around them. */
export interface OomAnalysis {
  parse: OomParse;
  findings: OomFinding[];
  plan: OomRemedyPlan | null;
  /** The memory_summary in the same paste, or null when there is none. */
  summary: MemorySummary | null;
  /** The traceback above the message, or null when the paste has none. */
  traceback: OomTraceback | null;
  /** The phase and GPU count the ranking used. */
  context: OomContext;
}

/** What the reader says that the paste cannot. */
export interface OomReaderFacts {
  /** How many GPUs the job has, or null when not said. */
  gpus: number | null;
}

/** Reads, checks and ranks the last OOM message in `text`, with the traceback and any memory_summary around it; never throws. */
export function analyzeOomText(text: string, facts: OomReaderFacts = { gpus: null }): OomAnalysis {
  const parse = parseOomMessage(text);
  const summary = looksLikeMemorySummary(text) ? parseMemorySummary(text) : null;
  const lines = cleanPaste(text).linesAsPasted.split('\n');
  const traceback = readOomTraceback(lines, oomMessageLine(lines));
  const context: OomContext = { phase: traceback?.phase ?? null, gpus: facts.gpus };
  if (parse.message === null) return { parse, findings: [], plan: null, summary, traceback, context };
  const findings = [...checkOomConsistency(parse.message), ...(summary ? checkSummaryAgainstOom(parse.message, summary) : [])];
  return { parse, findings, plan: rankOomRemedies(parse.message, findings, context), summary, traceback, context };
}
