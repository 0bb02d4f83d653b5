/// <reference lib="webworker" />
/**
 * Runs the planner's search off the page's thread, so typing never waits for it: one request per message
 * (planner-requests.ts), answered with the request's id so that the page keeps only the latest.
 */
import { answerPlannerRequest, type PlannerWorkerRequest } from './planner-requests';

self.onmessage = (event: MessageEvent<PlannerWorkerRequest>) => {
  self.postMessage(answerPlannerRequest(event.data));
};
