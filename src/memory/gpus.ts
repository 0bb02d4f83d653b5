/**
 * GPU presets from vendor datasheets.
 *
 * Memory: `memoryBytes` is the total the driver reports (nvidia-smi "MiB" × 2^20, rocm-smi bytes),
 * because that is what `torch.cuda.mem_get_info()` calls total and what an OOM is measured against.
 * Marketed capacities mix units: "80GB" on the A100 is 80 GiB (81920 MiB), while the H100 80GB
 * reports 81559 MiB (79.6 GiB) because part of its HBM is reserved (ECC/firmware). `marketedMemory`
 * keeps the datasheet's wording for display.
 * Compute: dense (no sparsity) 16-bit tensor-core TFLOP/s with FP32 accumulate — the figure
 * training kernels can approach; datasheets often headline the 2× "with sparsity" number — and dense FP32.
 * Links: `hostLinkBytesPerSecond` is one direction of the PCIe link (datasheets quote both
 * directions together); `peerLinkBytesPerSecond` is one direction of NVLink / Infinity Fabric
 * per GPU, or the PCIe figure where the card has none; `networkBytesPerSecond` is one GPU's share of the
 * links between servers of GPUS_PER_SERVER, one direction, in the vendor's reference server or, for cards
 * without one, an 8-GPU cloud instance.
 */
import { MIB } from '../base/bytes.ts';

/** A GPU model. */
export interface GpuSpec {
  /** Lowercase-kebab id used by `--gpu` and `?gpu=`. */
  id: string;
  /** Marketing name. */
  name: string;
  /** Vendor. */
  vendor: 'nvidia' | 'amd';
  /** Device memory the driver reports as total, in bytes. */
  memoryBytes: number;
  /** Capacity as the datasheet states it, e.g. "80 GB HBM2e". */
  marketedMemory: string;
  /** Dense 16-bit (BF16, or FP16 where BF16 is missing) tensor throughput, TFLOP/s. */
  tensorTflops16: number;
  /**
   * Dense FP32 throughput, TFLOP/s: what fp32 matrix multiplies run at under PyTorch's default, which keeps TF32 off for
   * matmuls (`torch.backends.cuda.matmul.allow_tf32 = False` since 1.12; PyTorch docs, CUDA semantics, "TensorFloat-32
   * (TF32) on Ampere (and later) devices"). NVIDIA: CUDA-core FP32; AMD: FP32 matrix cores, which rocBLAS uses.
   */
  fp32Tflops: number;
  /** Whether the GPU has BF16 tensor cores (pre-Ampere GPUs do not). */
  bf16: boolean;
  /** Device-memory bandwidth, bytes per second. */
  memoryBandwidthBytesPerSecond: number;
  /** Host link (PCIe) bandwidth, one direction, bytes per second. */
  hostLinkBytesPerSecond: number;
  /** Host link name, e.g. "PCIe 4.0 x16". */
  hostLink: string;
  /** GPU-to-GPU bandwidth per GPU, one direction, bytes per second. */
  peerLinkBytesPerSecond: number;
  /** Peer link name, e.g. "NVLink 4 (900 GB/s total)". */
  peerLink: string;
  /** One GPU's share of the network between servers, one direction, bytes per second. */
  networkBytesPerSecond: number;
  /** That network, e.g. "400 Gb/s InfiniBand per GPU". */
  network: string;
  /** Where the network's figure comes from (one line). */
  networkSource: string;
  /** CUDA compute capability (major.minor), or null for non-NVIDIA GPUs. */
  computeCapability: number | null;
  /** Datasheet the figures come from (one line). */
  source: string;
}

const GBps = 1e9;
const PCIE3 = { hostLinkBytesPerSecond: 16 * GBps, hostLink: 'PCIe 3.0 x16' };
const PCIE4 = { hostLinkBytesPerSecond: 32 * GBps, hostLink: 'PCIe 4.0 x16' };
const PCIE5 = { hostLinkBytesPerSecond: 64 * GBps, hostLink: 'PCIe 5.0 x16' };
/**
 * GPUs per server: the 8 of NVIDIA's DGX/HGX and AMD's MI300X platform, and of the largest cloud instances of the
 * PCIe cards (AWS g4dn.metal: 8 × T4; g5.48xlarge: 8 × A10G; Google Cloud g2-standard-96: 8 × L4). Tensor and data
 * parallel groups larger than this cross the network between servers (src/memory/time.ts).
 */
export const GPUS_PER_SERVER = 8;

/** A network between servers: gigabits per second per server, shared by its GPUS_PER_SERVER GPUs. */
const network = (gigabitsPerServer: number, name: string, source: string) => ({
  networkBytesPerSecond: (gigabitsPerServer * GBps) / 8 / GPUS_PER_SERVER,
  network: name,
  networkSource: source,
});
const NDR_PER_GPU = network(
  8 * 400,
  '400 Gb/s InfiniBand per GPU',
  'NVIDIA DGX H100, H200 and B200 datasheets: 8 single-port ConnectX-7, 400 Gb/s, one per GPU',
);
const HDR_PER_GPU = network(
  8 * 200,
  '200 Gb/s InfiniBand per GPU',
  'NVIDIA DGX A100 datasheet: 8 single-port ConnectX-6, 200 Gb/s HDR, one per GPU',
);
/** Cards without a reference server: the network of an 8-GPU cloud instance. */
const CLOUD_100G = network(
  100,
  '100 Gb/s Ethernet per 8 GPUs',
  'AWS g4dn.metal (8 × T4), g5.48xlarge (8 × A10G), Google Cloud g2-standard-96 (8 × L4): 100 Gb/s per instance',
);

const peerIsPcie = (link: { hostLinkBytesPerSecond: number; hostLink: string }) => ({
  peerLinkBytesPerSecond: link.hostLinkBytesPerSecond,
  peerLink: link.hostLink,
});

/** Every GPU preset. */
export const GPU_PRESETS: readonly GpuSpec[] = [
  {
    id: 't4',
    name: 'NVIDIA T4',
    vendor: 'nvidia',
    memoryBytes: 15360 * MIB,
    marketedMemory: '16 GB GDDR6',
    tensorTflops16: 65,
    fp32Tflops: 8.1,
    bf16: false,
    memoryBandwidthBytesPerSecond: 320 * GBps,
    ...PCIE3,
    ...peerIsPcie(PCIE3),
    ...CLOUD_100G,
    computeCapability: 7.5,
    source: 'NVIDIA T4 Tensor Core GPU datasheet (65 TFLOPS mixed FP16/FP32; FP32 8.1 TFLOPS)',
  },
  {
    id: 'v100-32gb',
    name: 'NVIDIA V100 SXM2 32GB',
    vendor: 'nvidia',
    memoryBytes: 32768 * MIB,
    marketedMemory: '32 GB HBM2',
    tensorTflops16: 125,
    fp32Tflops: 15.7,
    bf16: false,
    memoryBandwidthBytesPerSecond: 900 * GBps,
    ...PCIE3,
    peerLinkBytesPerSecond: 150 * GBps,
    peerLink: 'NVLink 2 (300 GB/s total)',
    ...network(4 * 100, '4 × 100 Gb/s InfiniBand per 8 GPUs', 'NVIDIA DGX-1 datasheet: 4 × 100 Gb/s InfiniBand EDR'),
    computeCapability: 7.0,
    source: 'NVIDIA V100 Tensor Core GPU datasheet (SXM2: 125 TFLOPS deep learning; FP32 15.7 TFLOPS)',
  },
  {
    id: 'a10',
    name: 'NVIDIA A10',
    vendor: 'nvidia',
    memoryBytes: 23028 * MIB,
    marketedMemory: '24 GB GDDR6',
    tensorTflops16: 125,
    fp32Tflops: 31.2,
    bf16: true,
    memoryBandwidthBytesPerSecond: 600 * GBps,
    ...PCIE4,
    ...peerIsPcie(PCIE4),
    ...CLOUD_100G,
    computeCapability: 8.6,
    source: 'NVIDIA A10 Tensor Core GPU datasheet (BF16 125 TF dense, 250 TF sparse; FP32 31.2 TF)',
  },
  {
    id: 'l4',
    name: 'NVIDIA L4',
    vendor: 'nvidia',
    memoryBytes: 23034 * MIB,
    marketedMemory: '24 GB GDDR6',
    tensorTflops16: 121,
    fp32Tflops: 30.3,
    bf16: true,
    memoryBandwidthBytesPerSecond: 300 * GBps,
    ...PCIE4,
    ...peerIsPcie(PCIE4),
    ...CLOUD_100G,
    computeCapability: 8.9,
    source: 'NVIDIA L4 Tensor Core GPU datasheet (BF16 242 TFLOPS with sparsity → 121 dense; FP32 30.3 TFLOPS)',
  },
  {
    id: 'rtx-3090',
    name: 'NVIDIA GeForce RTX 3090',
    vendor: 'nvidia',
    memoryBytes: 24576 * MIB,
    marketedMemory: '24 GB GDDR6X',
    tensorTflops16: 71,
    fp32Tflops: 35.6,
    bf16: true,
    memoryBandwidthBytesPerSecond: 936 * GBps,
    ...PCIE4,
    ...peerIsPcie(PCIE4),
    ...CLOUD_100G,
    computeCapability: 8.6,
    source: 'NVIDIA Ampere GA102 GPU Architecture whitepaper (FP16/BF16 tensor, FP32 accumulate: 71 dense; FP32 35.6 TFLOPS)',
  },
  {
    id: 'rtx-4090',
    name: 'NVIDIA GeForce RTX 4090',
    vendor: 'nvidia',
    memoryBytes: 24564 * MIB,
    marketedMemory: '24 GB GDDR6X',
    tensorTflops16: 165.2,
    fp32Tflops: 82.6,
    bf16: true,
    memoryBandwidthBytesPerSecond: 1008 * GBps,
    ...PCIE4,
    ...peerIsPcie(PCIE4),
    ...CLOUD_100G,
    computeCapability: 8.9,
    source: 'NVIDIA Ada GPU Architecture whitepaper (FP16/BF16 tensor, FP32 accumulate: 165.2 dense; FP32 82.6 TFLOPS)',
  },
  {
    id: 'rtx-5090',
    name: 'NVIDIA GeForce RTX 5090',
    vendor: 'nvidia',
    memoryBytes: 32607 * MIB,
    marketedMemory: '32 GB GDDR7',
    tensorTflops16: 209.5,
    fp32Tflops: 104.8,
    bf16: true,
    memoryBandwidthBytesPerSecond: 1792 * GBps,
    ...PCIE5,
    ...peerIsPcie(PCIE5),
    ...CLOUD_100G,
    computeCapability: 12.0,
    source: 'NVIDIA RTX Blackwell GPU Architecture whitepaper (FP16/BF16 tensor: 209.5 dense; FP32 104.8 TFLOPS)',
  },
  {
    id: 'a100-40gb',
    name: 'NVIDIA A100 SXM4 40GB',
    vendor: 'nvidia',
    memoryBytes: 40960 * MIB,
    marketedMemory: '40 GB HBM2',
    tensorTflops16: 312,
    fp32Tflops: 19.5,
    bf16: true,
    memoryBandwidthBytesPerSecond: 1555 * GBps,
    ...PCIE4,
    peerLinkBytesPerSecond: 300 * GBps,
    peerLink: 'NVLink 3 (600 GB/s total)',
    ...HDR_PER_GPU,
    computeCapability: 8.0,
    source: 'NVIDIA A100 Tensor Core GPU datasheet (BF16 312 TFLOPS dense; FP32 19.5 TFLOPS)',
  },
  {
    id: 'a100-80gb',
    name: 'NVIDIA A100 SXM4 80GB',
    vendor: 'nvidia',
    memoryBytes: 81920 * MIB,
    marketedMemory: '80 GB HBM2e',
    tensorTflops16: 312,
    fp32Tflops: 19.5,
    bf16: true,
    memoryBandwidthBytesPerSecond: 2039 * GBps,
    ...PCIE4,
    peerLinkBytesPerSecond: 300 * GBps,
    peerLink: 'NVLink 3 (600 GB/s total)',
    ...HDR_PER_GPU,
    computeCapability: 8.0,
    source: 'NVIDIA A100 Tensor Core GPU datasheet (80GB SXM: 2,039 GB/s; FP32 19.5 TFLOPS)',
  },
  {
    id: 'h100-80gb',
    name: 'NVIDIA H100 SXM5 80GB',
    vendor: 'nvidia',
    memoryBytes: 81559 * MIB,
    marketedMemory: '80 GB HBM3',
    tensorTflops16: 989,
    fp32Tflops: 67,
    bf16: true,
    memoryBandwidthBytesPerSecond: 3350 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 450 * GBps,
    peerLink: 'NVLink 4 (900 GB/s total)',
    ...NDR_PER_GPU,
    computeCapability: 9.0,
    source: 'NVIDIA H100 Tensor Core GPU datasheet (SXM: BF16 1,979 TFLOPS with sparsity → 989 dense; FP32 67 TFLOPS)',
  },
  {
    id: 'h200',
    name: 'NVIDIA H200 SXM 141GB',
    vendor: 'nvidia',
    memoryBytes: 143771 * MIB,
    marketedMemory: '141 GB HBM3e',
    tensorTflops16: 989,
    fp32Tflops: 67,
    bf16: true,
    memoryBandwidthBytesPerSecond: 4800 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 450 * GBps,
    peerLink: 'NVLink 4 (900 GB/s total)',
    ...NDR_PER_GPU,
    computeCapability: 9.0,
    source: 'NVIDIA H200 Tensor Core GPU datasheet (BF16 1,979 TFLOPS with sparsity → 989 dense; 4.8 TB/s; FP32 67 TFLOPS)',
  },
  {
    id: 'b200',
    name: 'NVIDIA B200 (HGX)',
    vendor: 'nvidia',
    memoryBytes: 183359 * MIB,
    marketedMemory: '180 GB HBM3e',
    tensorTflops16: 2250,
    fp32Tflops: 75,
    bf16: true,
    memoryBandwidthBytesPerSecond: 8000 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 900 * GBps,
    peerLink: 'NVLink 5 (1.8 TB/s total)',
    ...NDR_PER_GPU,
    computeCapability: 10.0,
    source: 'NVIDIA HGX B200 datasheet (per GPU: BF16 4.5 PFLOPS with sparsity → 2.25 dense; 8 TB/s; FP32 75 TFLOPS)',
  },
  {
    id: 'mi300x',
    name: 'AMD Instinct MI300X',
    vendor: 'amd',
    memoryBytes: 205_822_885_888,
    marketedMemory: '192 GB HBM3',
    tensorTflops16: 1307.4,
    fp32Tflops: 163.4,
    bf16: true,
    memoryBandwidthBytesPerSecond: 5300 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 448 * GBps,
    peerLink: 'Infinity Fabric (7 links × 64 GB/s per direction)',
    ...network(8 * 400, '400 Gb/s InfiniBand per GPU', 'Azure ND MI300X v5: 8 × 400 Gb/s InfiniBand, one per GPU'),
    computeCapability: null,
    source: 'AMD Instinct MI300X data sheet (BF16 1,307.4 TFLOPS dense; 5.3 TB/s; FP32 matrix 163.4 TFLOPS)',
  },
];

/** Look up a GPU preset by id; undefined when unknown. */
export function getGpuPreset(id: string): GpuSpec | undefined {
  return GPUS_BY_ID.get(id);
}
// A map, not a scan: every estimate looks its GPU up.
const GPUS_BY_ID: ReadonlyMap<string, GpuSpec> = new Map(GPU_PRESETS.map((g) => [g.id, g]));
