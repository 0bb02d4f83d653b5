/** The whole OOM reading the page and the CLI share: read the figures, check them, then rank what to try. */
import { checkOomConsistency, type OomFinding } from './oom-consistency.ts';
import { parseOomMessage, type OomParse } from './oom-message.ts';
import { rankOomRemedies, type OomRemedyPlan } from './oom-remedies.ts';

/** The figures, what does not add up among them, and the case with its ranked remedies (null without a message). */
export interface OomAnalysis {
  parse: OomParse;
  findings: OomFinding[];
  plan: OomRemedyPlan | null;
}

/** Reads, checks and ranks the last OOM message in `text`; never throws. */
export function analyzeOomText(text: string): OomAnalysis {
  const parse = parseOomMessage(text);
  if (parse.message === null) return { parse, findings: [], plan: null };
  const findings = checkOomConsistency(parse.message);
  return { parse, findings, plan: rankOomRemedies(parse.message, findings) };
}
