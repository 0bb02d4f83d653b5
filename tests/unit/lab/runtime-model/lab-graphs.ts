/**
 * The lab's MLP graphs as the runtime model reads them, built by the same graph builders that
 * write public/models/ (scripts/build-models.ts), so the tests follow the exact nodes the lab runs.
 */
import { createMlp } from '../../../../src/graphs/mlp.ts';
import { buildTrainStepGraph } from '../../../../src/graphs/variants.ts';
import type { GraphBuilder } from '../../../../src/graphs/builder.ts';
import type { GraphSchedule } from '../../../../src/lab/runtime-model/graph-schedule.ts';

/** The classes of every lab MLP (catalog.ts `MLP_DEFAULTS`). */
const CLASSES = 10;

/** A built graph as a `GraphSchedule`. */
export function scheduleOf(builder: GraphBuilder): GraphSchedule {
  return {
    inputs: [...builder.inputs],
    outputs: [...builder.outputs],
    initializers: [...builder.constants.keys()],
    nodes: builder.nodes.map(({ opType, inputs, outputs }) => ({ opType, inputs, outputs })),
    tensors: builder.tensors,
  };
}

/** The fp32 training-step graph (`train.keep.fp32`, or `train.acc.keep.fp32` when `accumulate`). */
export function trainStepSchedule(hidden: number, layers: number, accumulate: boolean): GraphSchedule {
  const model = createMlp({ hidden, layers, classes: CLASSES });
  return scheduleOf(buildTrainStepGraph(model, { precision: 'fp32', accumulate }));
}
