import { describe, expect, test } from 'vitest';
import { cublasWorkspaceBytes, getGpuPreset, GPU_PRESETS } from '../../../src/memory/index.ts';
import { GIB } from '../../../src/base/bytes.ts';

describe('GPU_PRESETS', () => {
  test.each([
    't4',
    'v100-32gb',
    'a10',
    'l4',
    'rtx-3090',
    'rtx-4090',
    'rtx-5090',
    'a100-40gb',
    'a100-80gb',
    'h100-80gb',
    'h200',
    'b200',
    'mi300x',
    'mi325x',
    'h20',
    'h800',
    'a800-80gb',
    'l20',
    'l40s',
    'rtx-4060-ti-16gb',
    'rtx-3060-12gb',
    'rtx-4090-d',
    'rtx-pro-6000',
    'h100-nvl',
    'v100-16gb',
    'gb200',
    'b300',
  ])('getGpuPreset(%j) exists with a datasheet source and positive figures', (id) => {
    const gpu = getGpuPreset(id);
    expect(gpu?.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(gpu?.source).toMatch(/datasheet|whitepaper|data sheet/i);
    for (const n of [
      gpu?.memoryBytes,
      gpu?.tensorTflops16,
      gpu?.fp32Tflops,
      gpu?.memoryBandwidthBytesPerSecond,
      gpu?.hostLinkBytesPerSecond,
      gpu?.networkBytesPerSecond,
    ]) {
      expect(n).toBeGreaterThan(0);
    }
    expect(Number.isSafeInteger(gpu?.memoryBytes)).toBe(true);
  });

  // NVIDIA's data sheets print Hopper's 16-bit tensor rates with 2:4 sparsity (a footnote); the engine times dense
  // matmuls, so every Hopper preset takes half, and none can exceed the H100 SXM's 989 TFLOP/s at 700 W.
  test("no Hopper preset carries a sparse 16-bit tensor rate: at most the H100 SXM's dense 989 TFLOP/s", () => {
    const hopper = GPU_PRESETS.filter((gpu) => gpu.computeCapability === 9);
    expect(hopper.map((gpu) => gpu.id)).toContain('h100-nvl');
    for (const gpu of hopper) expect(gpu.tensorTflops16, gpu.id).toBeLessThanOrEqual(989);
    // The H100 NVL's data sheet: BF16 1,671 TFLOPS with sparsity.
    expect(getGpuPreset('h100-nvl')?.tensorTflops16).toBe(1671 / 2);
  });

  test('A100 80GB is 80 GiB as nvidia-smi reports it: 81920 MiB = 85,899,345,920 bytes', () => {
    expect(getGpuPreset('a100-80gb')?.memoryBytes).toBe(85_899_345_920);
  });

  test('H100 80GB reports 81559 MiB, less than 80 GiB', () => {
    expect(getGpuPreset('h100-80gb')?.memoryBytes).toBe(81559 * 2 ** 20);
  });

  test('H100 96GB holds torchtitan’s benchmark hardware (llama3_h100_202412_torchtitan.md, Hardware: 2.4 TB/s, 400 Gb/s per GPU)', () => {
    const gpu = getGpuPreset('h100-96gb');
    expect(gpu?.memoryBandwidthBytesPerSecond).toBe(2.4e12);
    expect(gpu?.networkBytesPerSecond).toBe(400e9 / 8);
    // The same share of the HBM held back as the H100 80GB's 81559 MiB of 80 GB: the GH200 96GB's nvidia-smi 97871 MiB.
    expect(Math.round((81559 * 96) / 80) * 2 ** 20).toBe(gpu?.memoryBytes);
    // What torchtitan measured on it fits: 84.5 GiB, its largest reading (Table 2, FSDP 1, CP 8).
    expect(84.5 * GIB).toBeLessThan(gpu?.memoryBytes ?? 0);
  });

  test('MI325X holds the total a real card reported (sysfs mem_info_vram_total 274542362624 B = 261824 MiB, DigitalOcean MI325X Droplet)', () => {
    expect(getGpuPreset('mi325x')?.memoryBytes).toBe(261824 * 2 ** 20);
  });

  test('MI325X and MI300X both report 320 MiB under their marketed GiB (256 GB and 192 GB HBM, data sheets)', () => {
    const GIB = 2 ** 30;
    expect(256 * GIB - getGpuPreset('mi325x')!.memoryBytes).toBe(320 * 2 ** 20);
    expect(192 * GIB - getGpuPreset('mi300x')!.memoryBytes).toBe(320 * 2 ** 20);
  });

  test('a source that quotes nvidia-smi’s total holds that total, in bytes', () => {
    const quoted = GPU_PRESETS.filter((gpu) => /nvidia-smi: \d+MiB/.test(gpu.source));
    expect(quoted.length).toBeGreaterThanOrEqual(13);
    for (const gpu of quoted) {
      const mib = Number(/nvidia-smi: (\d+)MiB/.exec(gpu.source)?.[1]);
      expect(gpu.memoryBytes, gpu.id).toBe(mib * 2 ** 20);
    }
  });

  test.each<[string, number, RegExp]>([
    // DGX H100/H200/B200 datasheets: eight single-port ConnectX-7 at 400 Gb/s, one per GPU.
    ['h100-80gb', 50e9, /400 Gb\/s InfiniBand per GPU/],
    ['h200', 50e9, /400 Gb\/s InfiniBand per GPU/],
    ['b200', 50e9, /400 Gb\/s InfiniBand per GPU/],
    // DGX A100 datasheet: eight single-port ConnectX-6 at 200 Gb/s HDR.
    ['a100-80gb', 25e9, /200 Gb\/s InfiniBand per GPU/],
    // DGX-1 (V100): four 100 Gb/s EDR ports for eight GPUs.
    ['v100-32gb', 6.25e9, /4 × 100 Gb\/s InfiniBand per 8 GPUs/],
    // No reference server: an 8-GPU cloud instance's 100 Gb/s, shared.
    ['rtx-4090', 1.5625e9, /100 Gb\/s Ethernet per 8 GPUs/],
  ])('%s: each GPU’s share of the network between servers is %d bytes/s, one direction', (id, bytes, name) => {
    expect(getGpuPreset(id)?.networkBytesPerSecond).toBe(bytes);
    expect(getGpuPreset(id)?.network).toMatch(name);
    expect(getGpuPreset(id)?.networkSource).toMatch(/datasheet|AWS|Azure/);
  });

  test('every preset’s network between servers is slower than its link inside a server', () => {
    for (const gpu of GPU_PRESETS) expect(gpu.networkBytesPerSecond, gpu.id).toBeLessThan(gpu.peerLinkBytesPerSecond);
  });

  test('ids are unique', () => {
    expect(new Set(GPU_PRESETS.map((g) => g.id)).size).toBe(GPU_PRESETS.length);
  });

  test.each<[string | null, number]>([
    ['h100-80gb', 32],
    ['a100-80gb', 4],
    ['l4', 1],
    ['t4', 1],
    [null, 32],
  ])('cublasWorkspaceBytes(%s) = %d MiB (PyTorch CUDABlas.cpp)', (id, mib) => {
    expect(cublasWorkspaceBytes(id === null ? null : (getGpuPreset(id) ?? null))).toBe(mib * 2 ** 20);
  });
});
