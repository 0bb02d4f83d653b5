"""Small GPT-2- and Llama-shaped causal LMs written out along Hugging Face Transformers' code paths, and the site's
lab MLP.

Sources (transformers 4.46–4.5x): models/gpt2/modeling_gpt2.py (GPT2Attention, eager_attention_forward,
GPT2MLP, GPT2Block, GPT2Model, GPT2LMHeadModel), pytorch_utils.py (Conv1D), activations.py (NewGELUActivation),
models/llama/modeling_llama.py (LlamaRMSNorm, LlamaRotaryEmbedding, rotate_half, apply_rotary_pos_emb,
repeat_kv, eager_attention_forward, LlamaMLP, LlamaDecoderLayer, LlamaModel._update_causal_mask,
LlamaForCausalLM), integrations/sdpa_attention.py (sdpa_attention_forward), loss/loss_utils.py
(ForCausalLMLoss, fixed_cross_entropy). LoRA follows PEFT's tuners/lora/layer.py (Linear.forward,
reset_lora_parameters). Only what changes memory is kept: no caches, no head masks, no padding masks.
"""
import functools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


def has_sdpa():
    """True where torch ships F.scaled_dot_product_attention (torch >= 2.0)."""
    return hasattr(F, "scaled_dot_product_attention")


def causal_lm_loss(logits, labels, vocab_size, ignore_index=-100):
    """transformers loss_utils.ForCausalLMLoss: fp32 upcast, labels shifted by padding, mean cross-entropy."""
    logits = logits.float()
    labels = F.pad(labels, (0, 1), value=ignore_index)
    shift_labels = labels[..., 1:].contiguous()
    logits = logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1)
    return F.cross_entropy(logits, shift_labels, ignore_index=ignore_index, reduction="mean")


def _sdpa(query, key, value, dropout_p):
    """integrations/sdpa_attention.py with no mask: is_causal for s > 1; output back to (b, s, heads, d)."""
    out = F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=dropout_p,
                                         is_causal=query.shape[2] > 1)
    return out.transpose(1, 2).contiguous()


# ---------------------------------------------------------------- GPT-2

class Conv1D(nn.Module):
    """pytorch_utils.Conv1D: a Linear with the weight stored (in, out), applied with addmm."""

    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


def gelu_new(x):
    """activations.NewGELUActivation: the tanh GELU written in Python (several saved 4h-wide tensors)."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class Dropout(nn.Module):
    """kernels='eager': nn.Dropout (F.dropout; on CPU it saves a full-width noise tensor, on CUDA it calls
    native_dropout). kernels='fused', or dropoutKernel='native' (what F.dropout runs on CUDA, for CPU runs that
    stand in for CUDA): torch.native_dropout, which saves a 1-byte bool mask, as Megatron."""

    def __init__(self, p, cfg):
        super().__init__()
        self.p = p
        self.native = cfg["kernels"] == "fused" or cfg.get("dropoutKernel") == "native"

    def forward(self, x):
        if not self.training or self.p == 0:
            return x
        if self.native:
            return torch.native_dropout(x, self.p, True)[0]
        return F.dropout(x, self.p, True)


class GPT2Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h, n_pos = cfg["hidden"], cfg["positions"]
        self.heads, self.head_dim = cfg["heads"], h // cfg["heads"]
        self.attention = cfg["attention"]
        self.attn_p = cfg["attnDropout"]
        # GPT2Attention.bias: the causal mask as a bool buffer (n_positions²), not persistent.
        self.register_buffer("bias", torch.tril(torch.ones((n_pos, n_pos), dtype=torch.bool))
                             .view(1, 1, n_pos, n_pos), persistent=False)
        self.c_attn = Conv1D(3 * h, h)
        self.c_proj = Conv1D(h, h)
        self.attn_dropout = Dropout(cfg["attnDropout"], cfg)
        self.resid_dropout = Dropout(cfg["residDropout"], cfg)

    def _eager(self, query, key, value):
        """modeling_gpt2.eager_attention_forward: scores, causal where, softmax (fp32 under autocast),
        cast to value's dtype, dropout, A·V."""
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        attn_weights = attn_weights / torch.full([], value.size(-1) ** 0.5, dtype=attn_weights.dtype,
                                                 device=attn_weights.device)
        q_len, k_len = query.size(-2), key.size(-2)
        causal_mask = self.bias[:, :, k_len - q_len: k_len, :k_len]
        mask_value = torch.full([], torch.finfo(attn_weights.dtype).min, dtype=attn_weights.dtype,
                                device=attn_weights.device)
        attn_weights = torch.where(causal_mask, attn_weights.to(attn_weights.dtype), mask_value)
        attn_weights = F.softmax(attn_weights, dim=-1)
        attn_weights = attn_weights.type(value.dtype)
        attn_weights = self.attn_dropout(attn_weights)
        attn_output = torch.matmul(attn_weights, value)
        return attn_output.transpose(1, 2)

    def forward(self, hidden_states):
        query, key, value = self.c_attn(hidden_states).split(hidden_states.size(-1), dim=2)
        shape = (*query.shape[:-1], -1, self.head_dim)
        query, key, value = (t.view(shape).transpose(1, 2) for t in (query, key, value))
        if self.attention == "sdpa":
            out = _sdpa(query, key, value, self.attn_p if self.training else 0.0)
        else:
            out = self._eager(query, key, value)
        out = out.reshape(*out.shape[:-2], -1).contiguous()
        return self.resid_dropout(self.c_proj(out))


class GPT2MLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.c_fc = Conv1D(cfg["ffn"], cfg["hidden"])
        self.c_proj = Conv1D(cfg["hidden"], cfg["ffn"])
        self.fused = cfg["kernels"] == "fused"
        self.dropout = Dropout(cfg["residDropout"], cfg)

    def forward(self, x):
        x = self.c_fc(x)
        x = F.gelu(x, approximate="tanh") if self.fused else gelu_new(x)
        return self.dropout(self.c_proj(x))


class GPT2Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = nn.LayerNorm(cfg["hidden"], eps=1e-5)
        self.attn = GPT2Attention(cfg)
        self.ln_2 = nn.LayerNorm(cfg["hidden"], eps=1e-5)
        self.mlp = GPT2MLP(cfg)

    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = residual + self.attn(self.ln_1(hidden_states))
        residual = hidden_states
        return residual + self.mlp(self.ln_2(hidden_states))


class GPT2LMHeadModel(nn.Module):
    """GPT2LMHeadModel with the LM head tied to wte; forward returns the loss when labels are given."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.wpe = nn.Embedding(cfg["positions"], cfg["hidden"])
        nn.init.normal_(self.wte.weight, std=0.02)
        nn.init.normal_(self.wpe.weight, std=0.01)
        self.drop = Dropout(cfg["embdDropout"], cfg)
        self.h = nn.ModuleList(GPT2Block(cfg) for _ in range(cfg["layers"]))
        self.ln_f = nn.LayerNorm(cfg["hidden"], eps=1e-5)
        self.lm_head = nn.Linear(cfg["hidden"], cfg["vocab"], bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, input_ids, labels=None):
        position_ids = torch.arange(input_ids.size(-1), dtype=torch.long, device=input_ids.device).unsqueeze(0)
        hidden_states = self.drop(self.wte(input_ids) + self.wpe(position_ids))
        hidden_states = run_blocks(self.cfg, self.h, hidden_states)
        logits = self.lm_head(self.ln_f(hidden_states))
        if labels is None:
            return logits
        return causal_lm_loss(logits, labels, self.cfg["vocab"])


# ---------------------------------------------------------------- Llama

class LlamaRMSNorm(nn.Module):
    """modeling_llama.LlamaRMSNorm: computes in fp32, casts back to the input dtype, then scales."""

    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class LlamaRotaryEmbedding(nn.Module):
    """modeling_llama.LlamaRotaryEmbedding (default rope): cos/sin in fp32 with autocast off, cast to x's dtype."""

    def __init__(self, head_dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        with torch.autocast(device_type=x.device.type, enabled=False):
            freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos(), emb.sin()
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


def repeat_kv(hidden_states, n_rep):
    """modeling_llama.repeat_kv: expand then reshape (a copy) so every query head has its K/V head."""
    batch, kv_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, kv_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, kv_heads * n_rep, slen, head_dim)


def llama_causal_mask(batch, seq, dtype, device):
    """LlamaModel._update_causal_mask for eager attention without padding: an s×s min-filled upper triangle,
    expanded (not copied) over the batch. SDPA gets no mask (is_causal)."""
    min_dtype = torch.finfo(dtype).min
    cache_position = torch.arange(seq, device=device)
    causal_mask = torch.full((seq, seq), fill_value=min_dtype, dtype=dtype, device=device)
    causal_mask = torch.triu(causal_mask, diagonal=1)
    causal_mask *= torch.arange(seq, device=device) > cache_position.reshape(-1, 1)
    return causal_mask[None, None, :, :].expand(batch, 1, -1, -1)


class LlamaAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h, self.heads, self.kv_heads = cfg["hidden"], cfg["heads"], cfg["kvHeads"]
        self.head_dim = h // self.heads
        self.attention = cfg["attention"]
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(h, self.heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(h, self.kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(h, self.kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(self.heads * self.head_dim, h, bias=False)

    def forward(self, hidden_states, position_embeddings, attention_mask):
        input_shape = hidden_states.shape[:-1]
        hidden_shape = (*input_shape, -1, self.head_dim)
        query = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        key = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        value = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        cos, sin = position_embeddings
        query, key = apply_rotary_pos_emb(query, key, cos, sin)
        n_rep = self.heads // self.kv_heads
        key, value = repeat_kv(key, n_rep), repeat_kv(value, n_rep)
        if self.attention == "sdpa":
            out = _sdpa(query, key, value, 0.0)
        else:  # modeling_llama.eager_attention_forward (attention_dropout = 0.0: F.dropout returns its input)
            attn_weights = torch.matmul(query, key.transpose(2, 3)) * self.scaling
            attn_weights = attn_weights + attention_mask[:, :, :, : key.shape[-2]]
            attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
            attn_weights = F.dropout(attn_weights, p=0.0, training=self.training)
            out = torch.matmul(attn_weights, value).transpose(1, 2).contiguous()
        out = out.reshape(*input_shape, -1).contiguous()
        return self.o_proj(out)


class LlamaMLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h, f = cfg["hidden"], cfg["ffn"]
        self.gate_proj = nn.Linear(h, f, bias=False)
        self.up_proj = nn.Linear(h, f, bias=False)
        self.down_proj = nn.Linear(f, h, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.self_attn = LlamaAttention(cfg)
        self.mlp = LlamaMLP(cfg)
        self.input_layernorm = LlamaRMSNorm(cfg["hidden"])
        self.post_attention_layernorm = LlamaRMSNorm(cfg["hidden"])

    def forward(self, hidden_states, position_embeddings, attention_mask):
        residual = hidden_states
        hidden_states = self.self_attn(self.input_layernorm(hidden_states), position_embeddings, attention_mask)
        hidden_states = residual + hidden_states
        residual = hidden_states
        return residual + self.mlp(self.post_attention_layernorm(hidden_states))


class LlamaForCausalLM(nn.Module):
    """LlamaForCausalLM with an untied LM head (Llama 2 / 3 8B); forward returns the loss when labels are given."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed_tokens = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.layers = nn.ModuleList(LlamaDecoderLayer(cfg) for _ in range(cfg["layers"]))
        self.norm = LlamaRMSNorm(cfg["hidden"])
        self.rotary_emb = LlamaRotaryEmbedding(cfg["hidden"] // cfg["heads"])
        self.lm_head = nn.Linear(cfg["hidden"], cfg["vocab"], bias=False)

    def forward(self, input_ids, labels=None):
        hidden_states = self.embed_tokens(input_ids)
        batch, seq = input_ids.shape
        position_ids = torch.arange(seq, device=input_ids.device).unsqueeze(0)
        mask = None
        if self.cfg["attention"] == "eager":
            mask = llama_causal_mask(batch, seq, hidden_states.dtype, hidden_states.device)
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        hidden_states = run_blocks(self.cfg, self.layers, hidden_states, position_embeddings, mask)
        logits = self.lm_head(self.norm(hidden_states))
        if labels is None:
            return logits
        return causal_lm_loss(logits, labels, self.cfg["vocab"])


def run_blocks(cfg, blocks, hidden_states, *args, preserve_rng_state=True):
    """The blocks in order, each called as block(hidden_states, *args). Under `recompute: 'full'` every run of
    `checkpointEvery` blocks (by default one: GradientCheckpointingLayer / _gradient_checkpointing_func checkpoints
    each block) is one non-reentrant torch.utils.checkpoint."""
    blocks = list(blocks)
    every = cfg.get("checkpointEvery") or 1
    for start in range(0, len(blocks), every):
        segment = blocks[start:start + every]

        def run(x, *rest, segment=segment):
            for block in segment:
                x = block(x, *rest)
            return x

        if cfg["recompute"] == "full" and segment[0].training:
            hidden_states = checkpoint(run, hidden_states, *args, use_reentrant=False,
                                       preserve_rng_state=preserve_rng_state)
        else:
            hidden_states = run(hidden_states, *args)
    return hidden_states


# ---------------------------------------------------------------- the lab's MLP

class LabMlp(nn.Module):
    """The site's lab model (src/graphs/mlp.ts createMlp): L blocks Linear(h→h, bias) + ReLU, a Linear(h→classes)
    head, mean softmax cross-entropy. Under `recompute: 'full'` each run of `checkpointEvery` blocks is one
    non-reentrant checkpoint, as the lab's recompute variants segment it (src/graphs/segments.ts segmentRanges:
    every segment checkpointed, the last one too). Nothing is random, so no RNG state is kept for the replay
    (`preserve_rng_state=False`)."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        h = cfg["hidden"]
        self.layers = nn.ModuleList(nn.Sequential(nn.Linear(h, h), nn.ReLU()) for _ in range(cfg["layers"]))
        self.head = nn.Linear(h, cfg["vocab"])

    def forward(self, features, labels):
        x = run_blocks(self.cfg, self.layers, features, preserve_rng_state=False)
        return F.cross_entropy(self.head(x), labels)


# ---------------------------------------------------------------- LoRA (PEFT)

class LoraLayer(nn.Module):
    """PEFT tuners/lora/layer.py Linear: frozen base, lora_A kaiming-uniform(a=√5), lora_B zeros,
    lora_dropout 0.0 → Identity (else nn.Dropout, run as CUDA runs it: native_dropout, a 1-byte mask),
    scaling α/r, input cast to lora_A's dtype (`_cast_input_dtype`), result cast back."""

    def __init__(self, base, in_features, out_features, r, alpha, dropout):
        super().__init__()
        self.base_layer = base
        self.lora_A = nn.Linear(in_features, r, bias=False)
        self.lora_B = nn.Linear(r, out_features, bias=False)
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B.weight)
        self.lora_dropout = nn.Identity() if dropout == 0.0 else Dropout(dropout, {"kernels": "eager", "dropoutKernel": "native"})
        self.scaling = alpha / r

    def forward(self, x):
        result = self.base_layer(x)
        result_dtype = result.dtype
        if x.dtype != self.lora_A.weight.dtype:
            x = x.to(self.lora_A.weight.dtype)
        result = result + self.lora_B(self.lora_A(self.lora_dropout(x))) * self.scaling
        return result.to(result_dtype)


# Module names per LoRA target letter; GPT-2's fused c_attn carries q, k and v.
LORA_TARGETS = {
    "gpt2": {"q": "attn.c_attn", "k": "attn.c_attn", "v": "attn.c_attn", "o": "attn.c_proj",
             "up": "mlp.c_fc", "down": "mlp.c_proj"},
    "llama": {"q": "self_attn.q_proj", "k": "self_attn.k_proj", "v": "self_attn.v_proj",
              "o": "self_attn.o_proj", "gate": "mlp.gate_proj", "up": "mlp.up_proj", "down": "mlp.down_proj"},
}
LORA_PRESETS = {"all-linear": ("q", "k", "v", "o", "gate", "up", "down"), "attention": ("q", "k", "v", "o"),
                "q,v": ("q", "v")}


def apply_lora(model, arch, rank, alpha, targets, dropout=0.0):
    """Freezes every parameter, then wraps the targeted linears of each block (PEFT get_peft_model). The adapters
    are fp32 whatever the base's dtype: get_peft_model(autocast_adapter_dtype=True) upcasts 16-bit adapters."""
    for p in model.parameters():
        p.requires_grad_(False)
    suffixes = sorted({LORA_TARGETS[arch][t] for t in targets if t in LORA_TARGETS[arch]})
    blocks = model.h if arch == "gpt2" else model.layers
    for block in blocks:
        for suffix in suffixes:
            parent_name, _, child = suffix.rpartition(".")
            parent = functools.reduce(getattr, parent_name.split("."), block)
            base = getattr(parent, child)
            if isinstance(base, Conv1D):
                fan_in, fan_out = base.weight.shape
            else:
                fan_in, fan_out = base.in_features, base.out_features
            setattr(parent, child, LoraLayer(base, fan_in, fan_out, rank, alpha, dropout))
    return suffixes


def build_model(cfg):
    """The model for a harness config (see run.py for the keys)."""
    model = {"gpt2": GPT2LMHeadModel, "llama": LlamaForCausalLM, "mlp": LabMlp}[cfg["arch"]](cfg)
    if cfg.get("baseDtype") == "bf16":
        # from_pretrained(torch_dtype=torch.bfloat16): the base is loaded in 16 bits before the adapters are added.
        model.to(torch.bfloat16)
    if cfg["finetune"] == "lora":
        apply_lora(model, cfg["arch"], cfg["loraRank"], cfg["loraAlpha"], LORA_PRESETS[cfg["loraTargets"]],
                   cfg.get("loraDropout", 0.0))
    return model
