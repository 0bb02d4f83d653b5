/// <reference lib="webworker" />
/**
 * Runs the planner's search off the page's thread, so typing never waits for it: one request per message
 * (planner-requests.ts), answered with the request's id so that the page keeps only the latest; after its first
 * answer the worker warms up, one piece per turn of its event loop.
 */
import { plannerWorkerHandler, type PlannerWorkerRequest } from './planner-requests';

const handle = plannerWorkerHandler(
  (response) => self.postMessage(response),
  (run) => setTimeout(run, 0),
);
self.onmessage = (event: MessageEvent<PlannerWorkerRequest>) => handle(event.data);
