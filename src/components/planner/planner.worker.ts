/// <reference lib="webworker" />
/**
 * Runs the planner's search off the page's thread, so typing never waits for it: one request per message
 * (planner-requests.ts), answered with the request's id so that the page keeps only the latest.
 */
import { createPlannerResponder, type PlannerWorkerRequest } from './planner-requests';

const answer = createPlannerResponder();
self.onmessage = (event: MessageEvent<PlannerWorkerRequest>) => {
  self.postMessage(answer(event.data));
};
