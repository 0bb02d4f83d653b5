"""Record what Hugging Face PEFT really does with the site's model presets, for src/memory/lora.ts.

Builds each preset from its config on the meta device (no weights, no downloads), applies LoRA the way
readers do, and prints JSON: PEFT's own trainable / total parameter counts, the adapted module names, and
the dtypes PEFT gives adapters and kept parameters. CI never runs this; it reads the committed fixture.

    python tools/peft-counts/peft_counts.py > tests/unit/memory/fixtures/peft-counts.json

Needs torch, transformers and peft (CPU is enough).
"""

import json
import platform
import sys

import peft
import torch
import transformers
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import (
    AutoModelForCausalLM,
    BertConfig,
    BertModel,
    GPT2Config,
    LlamaConfig,
    MistralConfig,
    MixtralConfig,
)

# Shapes from each model's config.json, as in src/memory/presets.ts.
CONFIGS = {
    "llama-2-7b": lambda: LlamaConfig(hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
                                      num_attention_heads=32, num_key_value_heads=32, vocab_size=32000),
    "llama-3-8b": lambda: LlamaConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                                      num_attention_heads=32, num_key_value_heads=8, vocab_size=128256),
    "mistral-7b": lambda: MistralConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                                        num_attention_heads=32, num_key_value_heads=8, vocab_size=32000),
    "mixtral-8x7b": lambda: MixtralConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                                          num_attention_heads=32, num_key_value_heads=8, vocab_size=32000,
                                          num_local_experts=8, num_experts_per_tok=2),
    "gpt2": lambda: GPT2Config(),  # the defaults are GPT-2 small (124M)
    "bert-base-uncased": lambda: BertConfig(),  # the defaults are BERT base uncased
}

LLAMA_ALL = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]

# (case id, preset, rank, target_modules exactly as a reader passes them to LoraConfig)
CASES = [
    ("llama-2-7b r8 q_proj,v_proj", "llama-2-7b", 8, ["q_proj", "v_proj"]),
    ("llama-2-7b r16 all-linear", "llama-2-7b", 16, "all-linear"),
    ("llama-2-7b r16 seven projections", "llama-2-7b", 16, LLAMA_ALL),
    ("llama-3-8b r8 q_proj,v_proj", "llama-3-8b", 8, ["q_proj", "v_proj"]),
    ("llama-3-8b r16 all-linear", "llama-3-8b", 16, "all-linear"),
    ("mistral-7b r16 all-linear", "mistral-7b", 16, "all-linear"),
    ("mixtral-8x7b r16 all-linear", "mixtral-8x7b", 16, "all-linear"),
    ("mixtral-8x7b r256 seven llama names", "mixtral-8x7b", 256, LLAMA_ALL),
    ("gpt2 r8 c_attn", "gpt2", 8, ["c_attn"]),
    ("gpt2 r16 all-linear", "gpt2", 16, "all-linear"),
    ("bert-base-uncased r8 query,value", "bert-base-uncased", 8, ["query", "value"]),
    ("bert-base-uncased r16 all-linear", "bert-base-uncased", 16, "all-linear"),
]


def build(preset, dtype=torch.float32):
    """The preset's model on the meta device: shapes and module names only."""
    config = CONFIGS[preset]()
    with torch.device("meta"):
        model = BertModel(config) if preset == "bert-base-uncased" else AutoModelForCausalLM.from_config(config)
    return model.to(dtype)


def count(case_id, preset, rank, targets):
    model = get_peft_model(build(preset), LoraConfig(r=rank, target_modules=targets))
    trainable, total = model.get_nb_trainable_parameters()
    adapted = sorted({name.rsplit(".lora_A", 1)[0] for name, _ in model.named_parameters() if ".lora_A." in name})
    return {
        "id": case_id, "preset": preset, "rank": rank, "target_modules": targets,
        "trainable": trainable, "all": total, "adapted_modules": len(adapted),
        "adapted_example": adapted[:12],
    }


def dtypes():
    """Dtypes PEFT picks by default, on a bf16 Llama 2 7B."""
    with_default = get_peft_model(build("llama-2-7b", torch.bfloat16), LoraConfig(r=8, target_modules=["q_proj"]))
    without = get_peft_model(build("llama-2-7b", torch.bfloat16), LoraConfig(r=8, target_modules=["q_proj"]),
                             autocast_adapter_dtype=False)
    prepared = prepare_model_for_kbit_training(build("llama-2-7b", torch.bfloat16), use_gradient_checkpointing=False)
    layer = with_default.base_model.model.model.layers[0].self_attn.q_proj
    return {
        "adapter_dtype_default": str(layer.lora_A["default"].weight.dtype),
        "adapter_dtype_autocast_off": str(without.base_model.model.model.layers[0].self_attn.q_proj.lora_A["default"].weight.dtype),
        "lora_dropout_default": LoraConfig().lora_dropout,
        "lora_dropout_module": type(layer.lora_dropout["default"]).__name__,
        "kbit_prepared_embedding_dtype": str(prepared.model.embed_tokens.weight.dtype),
        "kbit_prepared_norm_dtype": str(prepared.model.norm.weight.dtype),
    }


def main():
    out = {
        "command": "python tools/peft-counts/peft_counts.py",
        "versions": {"python": platform.python_version(), "torch": torch.__version__,
                     "transformers": transformers.__version__, "peft": peft.__version__},
        "device": "meta (no tensors allocated)",
        "cases": [count(*case) for case in CASES],
        "dtypes": dtypes(),
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
