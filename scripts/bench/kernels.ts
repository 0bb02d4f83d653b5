/**
 * Why the model factory writes matrix products as Einsum (src/graphs/einsum-lowering.ts): the
 * first run of one matrix product on SwiftShader (pipeline compile + run) and the mean of the
 * next five, as onnxruntime-web's tiled Gemm and as its Einsum, for the three products of a
 * linear layer's training step. Rerun it when onnxruntime-web is upgraded.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphBuilder } from '../../src/graphs/builder.ts';
import * as op from '../../src/graphs/ops.ts';
import { serializeModel } from '../../src/graphs/serialize.ts';
import { launchBrowser } from '../browser/browser.ts';
import { startStaticServer } from '../browser/static-server.ts';

/** A batch and width where both kernels finish quickly; the compile time does not depend on them. */
const [M, H] = [64, 256];

const PRODUCTS = [
  { name: 'forward x·W', a: [M, H], b: [H, H], transA: false, transB: false },
  { name: 'input grad dy·Wᵀ', a: [M, H], b: [H, H], transA: false, transB: true },
  { name: 'weight grad xᵀ·dy', a: [M, H], b: [M, H], transA: true, transB: false },
] as const;

/** The product as the factory writes it (Einsum), or as a tiled Gemm: alpha = 1 keeps the lowering off. */
function productModel(product: (typeof PRODUCTS)[number], kernel: 'Gemm' | 'Einsum'): Uint8Array {
  const b = new GraphBuilder(product.name);
  const x = b.input('a', 'float32', [...product.a]);
  const y = b.input('b', 'float32', [...product.b]);
  const rows = product.transA ? product.a[1] : product.a[0];
  const cols = product.transB ? product.b[0] : product.b[1];
  const out =
    kernel === 'Einsum'
      ? op.gemm(b, x, y, { transA: product.transA, transB: product.transB }, 'out')
      : (b.node('Gemm', [x, y], [{ dtype: 'float32', shape: [rows, cols], name: 'out' }], {
          transA: { int: product.transA ? 1 : 0 },
          transB: { int: product.transB ? 1 : 0 },
          alpha: { float: 1 },
        })[0] ?? '');
  b.output(out);
  return serializeModel(b);
}

const PAGE = `<script type="module">
import * as ort from './ort.jspi.bundle.min.mjs';
ort.env.wasm.numThreads = 1;
window.time = async (file, a, b) => {
  const session = await ort.InferenceSession.create(file, { executionProviders: ['webgpu'] });
  const feeds = {
    a: new ort.Tensor('float32', new Float32Array(a[0] * a[1]).fill(0.01), a),
    b: new ort.Tensor('float32', new Float32Array(b[0] * b[1]).fill(0.01), b),
  };
  let start = performance.now();
  await session.run(feeds);
  const first = performance.now() - start;
  start = performance.now();
  for (let i = 0; i < 5; i++) await session.run(feeds);
  const next = (performance.now() - start) / 5;
  await session.release();
  return { first, next };
};
</script>`;

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kernels-'));
  const dist = join(import.meta.dirname, '../../node_modules/onnxruntime-web/dist');
  for (const file of ['ort.jspi.bundle.min.mjs', 'ort-wasm-simd-threaded.jspi.wasm'])
    copyFileSync(join(dist, file), join(dir, file));
  writeFileSync(join(dir, 'index.html'), PAGE);
  mkdirSync(join(dir, 'm'));
  const KERNELS = ['Gemm', 'Einsum'] as const;
  // The static server lists its files when it starts, so the models are written first.
  for (const kernel of KERNELS)
    for (const [i, product] of PRODUCTS.entries())
      writeFileSync(join(dir, `m/${kernel}-${i}.onnx`), productModel(product, kernel));
  const server = await startStaticServer(dir);
  const browser = await launchBrowser({ name: 'webgpu-on', webgpu: true });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => 'time' in window);
    console.log(`kernels: one ${M}×${H} product on SwiftShader, ms (first run compiles the pipeline)`);
    console.log('product              kernel  first run  next runs');
    for (const kernel of KERNELS) {
      for (const [i, product] of PRODUCTS.entries()) {
        const args: [string, number[], number[]] = [`m/${kernel}-${i}.onnx`, [...product.a], [...product.b]];
        const { first, next } = await page.evaluate(
          ([f, a, b]) =>
            (
              window as unknown as { time: (f: string, a: number[], b: number[]) => Promise<{ first: number; next: number }> }
            ).time(f, a, b),
          args,
        );
        console.log(
          `${product.name.padEnd(20)} ${kernel.padEnd(7)} ${first.toFixed(0).padStart(9)}  ${next.toFixed(1).padStart(9)}`,
        );
      }
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
