/**
 * The names graph inputs and outputs go by, shared by the graph builders (build time) and the
 * lab that feeds and reads them (browser). One place, so a renamed tensor cannot leave a feed
 * behind. Pure strings: the browser may import this module (through browser-safe.ts).
 */

/** The MLP's input features. */
export const FEATURES = 'x';
/** The tiny GPT's input token ids. */
export const TOKENS = 'tokens';
/** Class (MLP) or next-token (GPT) labels. */
export const LABELS = 'labels';
/** The scalar loss. */
export const LOSS = 'loss';
/** The scalar the loss is multiplied by in accumulation graphs (1/k for k micro-batches). */
export const LOSS_SCALE = 'loss_scale';
/** The SGD learning-rate input. */
export const LEARNING_RATE = 'lr';
/** The model's logits (inference and distillation graphs). */
export const LOGITS = 'logits';
/** The distillation step's inputs: the teacher's logits, the temperature T and the soft-term weight α. */
export const TEACHER_LOGITS = 'teacher_logits';
/** See `TEACHER_LOGITS`. */
export const TEMPERATURE = 'temperature';
/** See `TEACHER_LOGITS`. */
export const ALPHA = 'alpha';

/** The inputs and outputs of Adam's flat-vector update graph (optimizer.ts). */
export const ADAM_TENSORS = {
  param: 'p',
  grad: 'g',
  m: 'm',
  v: 'v',
  stepSize: 'step_size',
  bias2Sqrt: 'bias2_sqrt',
  nextParam: 'p_next',
  nextM: 'm_next',
  nextV: 'v_next',
} as const;

/** The inputs and output of the flat-vector accumulation graph (optimizer.ts): sum = a + b. */
export const ACCUMULATE_TENSORS = { a: 'a', b: 'b', sum: 'sum' } as const;

const GRAD_PREFIX = 'grad.';
const ACC_IN_PREFIX = 'acc_in.';
const ACC_OUT_PREFIX = 'acc_out.';
const NEXT_PREFIX = 'next.';

/** The gradient of tensor `name` (a parameter's, or an activation's between stages). */
export const gradName = (name: string): string => GRAD_PREFIX + name;
/** The gradients accumulated before this micro-batch, fed to an accumulation graph. */
export const accInName = (parameter: string): string => ACC_IN_PREFIX + parameter;
/** The gradients accumulated including this micro-batch, output by an accumulation graph. */
export const accOutName = (parameter: string): string => ACC_OUT_PREFIX + parameter;
/** A parameter after the SGD update. */
export const nextName = (parameter: string): string => NEXT_PREFIX + parameter;
/** The activation entering layer `layer` (the output of layer `layer − 1`); stages pass these. */
export const activationName = (layer: number): string => `act${layer}`;

/** The tensor a gradient name is the gradient of, or undefined for any other name. */
export function gradientOf(name: string): string | undefined {
  return name.startsWith(GRAD_PREFIX) ? name.slice(GRAD_PREFIX.length) : undefined;
}

/** Whether `name` is an accumulation graph's input (the gradients accumulated so far). */
export const isAccIn = (name: string): boolean => name.startsWith(ACC_IN_PREFIX);

/** Whether `name` is an accumulation graph's output. */
export const isAccOut = (name: string): boolean => name.startsWith(ACC_OUT_PREFIX);

/** Whether `name` is an SGD step's updated parameter. */
export const isNext = (name: string): boolean => name.startsWith(NEXT_PREFIX);
