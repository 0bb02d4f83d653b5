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
 * Where a datasheet gives only the "with sparsity" figure, the entry halves it and its `source` says so; GeForce
 * cards without a whitepaper table take the whitepaper's per-SM rate of their architecture times their SM count and
 * boost clock, and their `source` shows the product. `memoryBytes` of every card added for issue #27 is the total
 * that nvidia-smi printed for it in public logs (its `source` gives the MiB).
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
const PCIE6 = { hostLinkBytesPerSecond: 128 * GBps, hostLink: 'PCIe 6.0 x16' };
/** The RTX 4060 Ti wires eight lanes only (NVIDIA GeForce RTX 4060 Family specifications: "PCIe 4.0 x8"). */
const PCIE4_X8 = { hostLinkBytesPerSecond: 16 * GBps, hostLink: 'PCIe 4.0 x8' };
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
    id: 'v100-16gb',
    name: 'NVIDIA V100 SXM2 16GB',
    vendor: 'nvidia',
    memoryBytes: 16384 * MIB,
    marketedMemory: '16 GB HBM2',
    tensorTflops16: 125,
    fp32Tflops: 15.7,
    bf16: false,
    memoryBandwidthBytesPerSecond: 900 * GBps,
    ...PCIE3,
    peerLinkBytesPerSecond: 150 * GBps,
    peerLink: 'NVLink 2 (300 GB/s total)',
    ...network(4 * 100, '4 × 100 Gb/s InfiniBand per 8 GPUs', 'NVIDIA DGX-1 datasheet: 4 × 100 Gb/s InfiniBand EDR'),
    computeCapability: 7.0,
    source: 'NVIDIA V100 Tensor Core GPU datasheet (SXM2: 125 TFLOPS deep learning; FP32 15.7 TFLOPS); nvidia-smi: 16384MiB',
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
    id: 'l20',
    name: 'NVIDIA L20',
    vendor: 'nvidia',
    memoryBytes: 46068 * MIB,
    marketedMemory: '48 GB GDDR6',
    tensorTflops16: 119.5,
    fp32Tflops: 59.8,
    bf16: true,
    memoryBandwidthBytesPerSecond: 864 * GBps,
    ...PCIE4,
    ...peerIsPcie(PCIE4),
    ...CLOUD_100G,
    computeCapability: 8.9,
    source:
      'NVIDIA L20 datasheet (FP16/BF16 tensor 239 TFLOPS with sparsity → 119.5 dense; FP32 59.8 TFLOPS; 864 GB/s); nvidia-smi: 46068MiB',
  },
  {
    id: 'l40s',
    name: 'NVIDIA L40S',
    vendor: 'nvidia',
    memoryBytes: 46068 * MIB,
    marketedMemory: '48 GB GDDR6',
    tensorTflops16: 362.05,
    fp32Tflops: 91.6,
    bf16: true,
    memoryBandwidthBytesPerSecond: 864 * GBps,
    ...PCIE4,
    ...peerIsPcie(PCIE4),
    ...CLOUD_100G,
    computeCapability: 8.9,
    source:
      'NVIDIA L40S datasheet (BF16 tensor 733 TFLOPS with sparsity, 362.05 dense; FP32 91.6 TFLOPS; 864 GB/s); nvidia-smi: 46068MiB',
  },
  {
    id: 'rtx-3060-12gb',
    name: 'NVIDIA GeForce RTX 3060 12GB',
    vendor: 'nvidia',
    memoryBytes: 12288 * MIB,
    marketedMemory: '12 GB GDDR6',
    tensorTflops16: 25.5,
    fp32Tflops: 12.7,
    bf16: true,
    memoryBandwidthBytesPerSecond: 360 * GBps,
    ...PCIE4,
    ...peerIsPcie(PCIE4),
    ...CLOUD_100G,
    computeCapability: 8.6,
    source:
      'NVIDIA Ampere GA102 GPU Architecture whitepaper per-SM rates (FP16/BF16 tensor with FP32 accumulate 512, FP32 256 FLOP/clock) × 28 SMs × 1.777 GHz boost (GeForce RTX 3060 specifications: 3584 CUDA cores); nvidia-smi: 12288MiB',
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
    id: 'rtx-4060-ti-16gb',
    name: 'NVIDIA GeForce RTX 4060 Ti 16GB',
    vendor: 'nvidia',
    memoryBytes: 16380 * MIB,
    marketedMemory: '16 GB GDDR6',
    tensorTflops16: 44.1,
    fp32Tflops: 22.1,
    bf16: true,
    memoryBandwidthBytesPerSecond: 288 * GBps,
    ...PCIE4_X8,
    ...peerIsPcie(PCIE4_X8),
    ...CLOUD_100G,
    computeCapability: 8.9,
    source:
      'NVIDIA Ada GPU Architecture whitepaper per-SM rates (FP16/BF16 tensor with FP32 accumulate 512, FP32 256 FLOP/clock) × 34 SMs × 2.535 GHz boost (GeForce RTX 4060 Ti specifications: 4352 CUDA cores, 288 GB/s); nvidia-smi: 16380MiB',
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
    id: 'rtx-4090-d',
    name: 'NVIDIA GeForce RTX 4090 D',
    vendor: 'nvidia',
    memoryBytes: 24564 * MIB,
    marketedMemory: '24 GB GDDR6X',
    tensorTflops16: 147.1,
    fp32Tflops: 73.5,
    bf16: true,
    memoryBandwidthBytesPerSecond: 1008 * GBps,
    ...PCIE4,
    ...peerIsPcie(PCIE4),
    ...CLOUD_100G,
    computeCapability: 8.9,
    source:
      'NVIDIA Ada GPU Architecture whitepaper per-SM rates (FP16/BF16 tensor with FP32 accumulate 512, FP32 256 FLOP/clock) × 114 SMs × 2.52 GHz boost (GeForce RTX 4090 D specifications: 14592 CUDA cores); nvidia-smi: 24564MiB',
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
    id: 'rtx-pro-6000',
    name: 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition',
    vendor: 'nvidia',
    memoryBytes: 97887 * MIB,
    marketedMemory: '96 GB GDDR7',
    tensorTflops16: 500,
    fp32Tflops: 125,
    bf16: true,
    memoryBandwidthBytesPerSecond: 1792 * GBps,
    ...PCIE5,
    ...peerIsPcie(PCIE5),
    ...CLOUD_100G,
    computeCapability: 12.0,
    source:
      'NVIDIA RTX PRO 6000 Blackwell datasheet (4,000 AI TOPS = FP4 with sparsity → 2,000 dense FP4 → 500 dense 16-bit, a quarter of the FP4 rate; FP32 125 TFLOPS; 1,792 GB/s); nvidia-smi: 97887MiB',
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
    id: 'a800-80gb',
    name: 'NVIDIA A800 SXM4 80GB',
    vendor: 'nvidia',
    memoryBytes: 81920 * MIB,
    marketedMemory: '80 GB HBM2e',
    tensorTflops16: 312,
    fp32Tflops: 19.5,
    bf16: true,
    memoryBandwidthBytesPerSecond: 2039 * GBps,
    ...PCIE4,
    peerLinkBytesPerSecond: 200 * GBps,
    peerLink: 'NVLink 3 (400 GB/s total)',
    ...HDR_PER_GPU,
    computeCapability: 8.0,
    source:
      'NVIDIA A800 Tensor Core GPU datasheet (80GB SXM: BF16 312 TFLOPS dense; 2,039 GB/s; NVLink 400 GB/s; FP32 19.5 TFLOPS); nvidia-smi: 81920MiB',
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
    // torchtitan's benchmark hardware (Meta's Grand Teton servers), which its published Llama 3.1 runs ran on
    // (step-time/published-runs.ts). NVIDIA publishes no datasheet for this part: the figures are the benchmark file's.
    id: 'h100-96gb',
    name: 'NVIDIA H100 SXM 96GB HBM2e (500 W)',
    vendor: 'nvidia',
    // No public nvidia-smi log of this part was found. The GH200's 96 GB reports 97871MiB (a public nvidia-smi log of a
    // GH200 480GB, driver 535.154.05), 96/80 of the H100 80GB's 81559MiB to the MiB: the same share of its HBM held
    // back, taken here.
    memoryBytes: 97871 * MIB,
    marketedMemory: '96 GB HBM2e',
    // The benchmark file's footnote 2: the peak lies "between SXM and NVL" and its exact value is unknown; its own MFU
    // uses the SXM's, as here: an upper bound, whose excess the calibrated efficiency absorbs for these runs.
    tensorTflops16: 989,
    fp32Tflops: 67,
    bf16: true,
    memoryBandwidthBytesPerSecond: 2400 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 450 * GBps,
    peerLink: 'NVLink 4 (900 GB/s total)',
    ...network(
      8 * 400,
      '400 Gb/s RDMA per GPU',
      'torchtitan 31a17bf benchmarks/llama3_h100_202412_torchtitan.md, Hardware: "backend RDMA network with 400 Gb/s per GPU"',
    ),
    computeCapability: 9.0,
    source:
      'torchtitan 31a17bf benchmarks/llama3_h100_202412_torchtitan.md, Hardware: "96GB HBM2e with 2.4 TB/sec peak memory bandwidth", 8 per host "fully connected with NVLink", 500W power limit; peak TFLOPS: the H100 SXM datasheet’s 989 dense BF16, 67 FP32 (an upper bound: footnote 2)',
  },
  {
    id: 'h800',
    name: 'NVIDIA H800 SXM5 80GB',
    vendor: 'nvidia',
    memoryBytes: 81559 * MIB,
    marketedMemory: '80 GB HBM3',
    tensorTflops16: 989,
    fp32Tflops: 67,
    bf16: true,
    memoryBandwidthBytesPerSecond: 3350 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 200 * GBps,
    peerLink: 'NVLink 4 (400 GB/s total)',
    ...network(
      8 * 400,
      '400 Gb/s InfiniBand per GPU',
      'DeepSeek-V3 technical report (arXiv 2412.19437), its H800 cluster: one 400 Gb/s InfiniBand NIC per GPU, 8 GPUs a node',
    ),
    computeCapability: 9.0,
    source:
      'NVIDIA H800 Tensor Core GPU datasheet (SXM: BF16 1,979 TFLOPS with sparsity → 989 dense; NVLink 400 GB/s; FP32 67 TFLOPS); nvidia-smi: 81559MiB',
  },
  {
    id: 'h20',
    name: 'NVIDIA H20 96GB',
    vendor: 'nvidia',
    memoryBytes: 97871 * MIB,
    marketedMemory: '96 GB HBM3',
    tensorTflops16: 148,
    fp32Tflops: 44,
    bf16: true,
    memoryBandwidthBytesPerSecond: 4000 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 450 * GBps,
    peerLink: 'NVLink 4 (900 GB/s total)',
    ...NDR_PER_GPU,
    computeCapability: 9.0,
    source:
      'NVIDIA H20 Tensor Core GPU datasheet (BF16/FP16 148 TFLOPS dense; 4.0 TB/s; NVLink 900 GB/s; FP32 44 TFLOPS); nvidia-smi: 97871MiB',
  },
  {
    id: 'h100-nvl',
    name: 'NVIDIA H100 NVL 94GB',
    vendor: 'nvidia',
    memoryBytes: 95830 * MIB,
    marketedMemory: '94 GB HBM3',
    tensorTflops16: 835.5,
    fp32Tflops: 60,
    bf16: true,
    memoryBandwidthBytesPerSecond: 3900 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 300 * GBps,
    peerLink: 'NVLink bridge (600 GB/s total)',
    ...CLOUD_100G,
    computeCapability: 9.0,
    source:
      'NVIDIA H100 Tensor Core GPU datasheet (H100 NVL: BF16 1,671 TFLOPS with sparsity → 835.5 dense, FP8 3,341 with sparsity; 3.9 TB/s; NVLink 600 GB/s; FP32 60 TFLOPS); nvidia-smi: 95830MiB',
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
    id: 'gb200',
    name: 'NVIDIA GB200 (one Blackwell GPU of NVL72)',
    vendor: 'nvidia',
    memoryBytes: 189471 * MIB,
    marketedMemory: '186 GB HBM3e',
    tensorTflops16: 2500,
    fp32Tflops: 80,
    bf16: true,
    memoryBandwidthBytesPerSecond: 8000 * GBps,
    hostLinkBytesPerSecond: 225 * GBps,
    hostLink: 'NVLink-C2C to Grace (900 GB/s total, shared by 2 GPUs)',
    peerLinkBytesPerSecond: 900 * GBps,
    peerLink: 'NVLink 5 (1.8 TB/s total)',
    ...network(
      8 * 400,
      '400 Gb/s InfiniBand per GPU',
      'NVIDIA multi-node NVLink tuning guide: GB200 NVL72 compute trays of 4 GPUs with ConnectX-7 (400 Gb/s), one per GPU',
    ),
    computeCapability: 10.0,
    source:
      'NVIDIA GB200 NVL72 datasheet ÷ 72 GPUs (FP16/BF16 360 PFLOPS with sparsity → 2.5 dense per GPU; 576 TB/s → 8 TB/s; FP32 5,760 → 80 TFLOPS; NVLink-C2C 900 GB/s per Grace); nvidia-smi: 189471MiB',
  },
  {
    id: 'b300',
    name: 'NVIDIA B300 (HGX)',
    vendor: 'nvidia',
    memoryBytes: 275040 * MIB,
    marketedMemory: '288 GB HBM3e',
    tensorTflops16: 2250,
    fp32Tflops: 75,
    bf16: true,
    memoryBandwidthBytesPerSecond: 8000 * GBps,
    ...PCIE6,
    peerLinkBytesPerSecond: 900 * GBps,
    peerLink: 'NVLink 5 (1.8 TB/s total)',
    ...network(8 * 800, '800 Gb/s per GPU', 'NVIDIA HGX B300 datasheet: one 800 Gb/s ConnectX-8 SuperNIC per GPU'),
    computeCapability: 10.3,
    source:
      'NVIDIA HGX B300 datasheet ÷ 8 GPUs (FP16/BF16 36 PFLOPS with sparsity → 2.25 dense per GPU; 8 TB/s; FP32 600 → 75 TFLOPS); nvidia-smi: 275040MiB',
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
  {
    // The MI325X is the MI300X's compute die with 256 GB of HBM3E, sold as a drop-in replacement for the MI300X
    // platform (same 8-OAM baseboard, seven Infinity Fabric links, PCIe Gen 5 x16): its links and server network are
    // the MI300X's. The total is the one a real card's amdgpu driver reported (sysfs `mem_info_vram_total`); it is 320 MiB
    // under 256 GiB, as the MI300X's 205,822,885,888 B here is 320 MiB under 192 GiB.
    id: 'mi325x',
    name: 'AMD Instinct MI325X',
    vendor: 'amd',
    memoryBytes: 274_542_362_624,
    marketedMemory: '256 GB HBM3E',
    tensorTflops16: 1307.4,
    fp32Tflops: 163.4,
    bf16: true,
    memoryBandwidthBytesPerSecond: 6000 * GBps,
    ...PCIE5,
    peerLinkBytesPerSecond: 448 * GBps,
    peerLink: 'Infinity Fabric (7 links × 64 GB/s per direction)',
    ...network(
      8 * 400,
      '400 Gb/s InfiniBand per GPU',
      'as the MI300X platform it replaces (Azure ND MI300X v5: 8 × 400 Gb/s InfiniBand, one per GPU); no MI325X instance network was sourced',
    ),
    computeCapability: null,
    source:
      'AMD Instinct MI325X data sheet (BF16 1,307.4 TFLOPS dense; 6 TB/s; FP32 matrix 163.4 TFLOPS; 256 GB HBM3E); sysfs mem_info_vram_total on a DigitalOcean MI325X Droplet (amdgpu 6.19.14, ROCm 7.14): 274542362624 B',
  },
];

/** Look up a GPU preset by id; undefined when unknown. */
export function getGpuPreset(id: string): GpuSpec | undefined {
  return GPUS_BY_ID.get(id);
}
// A map, not a scan: every estimate looks its GPU up.
const GPUS_BY_ID: ReadonlyMap<string, GpuSpec> = new Map(GPU_PRESETS.map((g) => [g.id, g]));
