/**
 * How matrix products are written into the ONNX files: every 2-D MatMul and Gemm becomes an
 * Einsum. The graphs are built and differentiated with MatMul and Gemm (their gradient rules are
 * the textbook ones); only the emitted op changes, so the arithmetic and every tensor the step
 * keeps are the same.
 *
 * Why: onnxruntime-web's WebGPU MatMul and Gemm use tiled shaders with workgroup barriers, one
 * pipeline per transpose/bias/vector-width combination, and a training step needs six to ten of
 * them; compiling them is most of a run on SwiftShader, the software adapter our browser tests
 * run on. Its Einsum kernel is a plain loop per output element, one pipeline per equation: far
 * quicker to compile, somewhat slower per run (why: see docs/PERFORMANCE.md § Kernels).
 */
import { intAttribute, type GraphBuilder, type NodeRecord } from './builder.ts';

/** Einsum equations for op(A)·op(B), indexed by [transA][transB]. */
const EQUATIONS = [
  ['ik,kj->ij', 'ik,jk->ij'],
  ['ki,kj->ij', 'ki,jk->ij'],
] as const;

const flag = (node: NodeRecord, name: string): 0 | 1 => (intAttribute(node, name, 0) !== 0 ? 1 : 0);

/**
 * The node as it is written to the file: an Einsum for a 2-D matrix product without a bias
 * term or scaling (Gemm's C, alpha, beta), which is all the graph builder emits; anything else
 * unchanged.
 */
export function lowerMatrixProduct(b: GraphBuilder, node: NodeRecord): NodeRecord {
  if (node.opType !== 'MatMul' && node.opType !== 'Gemm') return node;
  if (node.inputs.length !== 2 || node.inputs.some((name) => b.info(name).shape.length !== 2)) return node;
  if ('alpha' in node.attributes || 'beta' in node.attributes) return node;
  const equation = EQUATIONS[flag(node, 'transA')][flag(node, 'transB')];
  return { ...node, opType: 'Einsum', attributes: { equation: { string: equation } } };
}
