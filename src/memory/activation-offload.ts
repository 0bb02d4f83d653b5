/**
 * Activation offloading: the tensors saved for backward are copied to host memory in the forward and brought back in
 * the backward, so the GPU holds only those in transit.
 *
 * - `streamed`: every saved activation of at least 1 KiB, layer after layer, on a side stream (torchtune 0.7.0
 *   training/_activation_offloading.py `OffloadActivations`, `min_offload_size=1024`, `max_fwd_stash_size=5`; recipes'
 *   `enable_activation_offloading: True`). torchtune's `get_act_offloading_ctx_manager` keeps the output head's input on
 *   the GPU (a NoOpManager around `model.output`), so the head and loss lines stay. Megatron-Core's fine-grained
 *   activation offloading and Transformer Engine's `get_cpu_offload_context` do the same per module.
 * - `checkpoints`: with full recompute, each checkpoint's input goes to the host and comes back when backward rebuilds
 *   its segment (Unsloth 2026.8.19 / unsloth_zoo gradient_checkpointing.py `Unsloth_Offloaded_Gradient_Checkpointer`:
 *   `hidden_states.to("cpu", non_blocking=True)` in forward, `.to(ctx.device)` in backward), which
 *   `use_gradient_checkpointing="unsloth"` turns on; axolotl's `gradient_checkpointing: offload` uses a copy of it.
 */

/** What is offloaded of the activations: nothing, every saved tensor as it is made, or the checkpointed layer inputs. */
export type ActivationOffload = 'none' | 'streamed' | 'checkpoints';

/** Every activation offload mode. */
export const ACTIVATION_OFFLOADS: readonly ActivationOffload[] = ['none', 'streamed', 'checkpoints'];

/** Where the saved activations of the layers live once offloaded, bytes. */
export interface OffloadedActivations {
  /** On the GPU: at most one layer's (or one checkpoint's) saved tensors in transit, in forward and in backward. */
  readonly onGpu: number;
  /** On the host, pinned (torchtune) or pageable (Unsloth): everything the layers keep. */
  readonly onHost: number;
}

/**
 * Split the layers' `kept` bytes under `mode`. `inTransit` is one layer's saved tensors (streamed) or one checkpoint's
 * input (checkpoints): torchtune's forward stash holds at most 5 tensors, fewer bytes than a layer saves, and its
 * backward brings tensors back one autograd node at a time; Unsloth moves one checkpoint at a time. Without offloading,
 * everything stays on the GPU.
 */
export function offloadActivations(mode: ActivationOffload, kept: number, inTransit: number): OffloadedActivations {
  if (mode === 'none') return { onGpu: kept, onHost: 0 };
  return { onGpu: Math.min(kept, inTransit), onHost: kept };
}
