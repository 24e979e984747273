"""The policy model: any local Hugging Face causal LM folder, or a tiny one built here.

    build_tiny(texts, "runs/x/base")   # byte-level BPE trained on `texts` + a Qwen3-style
                                       # model from a config; saved like any HF model
    model, tok = load_policy("runs/x/base")

No hub access anywhere: `load_policy` reads a folder (`local_files_only`), and the tiny
model's ChatML template marks the assistant's reply *and* its `<|im_end|>` with
`{% generation %}`, so trl's assistant-only loss also teaches the model to stop. It leaves
the system message out: a model built here has only ever seen this one prompt layout, so a
constant preamble tells it nothing, and the policy's (`rl.policy.SYSTEM`, 46 tokens) would
be 15% of an average step's tokens. A model given with `--model` keeps its own template,
system message included.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

CHAT_TEMPLATE = (
    "{%- for message in messages %}{%- if message['role'] == 'assistant' %}"
    "{{- '<|im_start|>assistant\\n' }}{% generation %}{{- message['content'] + '<|im_end|>' }}"
    "{% endgeneration %}{{- '\\n' }}"
    "{%- elif message['role'] != 'system' %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + "
    "'<|im_end|>\\n' }}{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
SIZES: dict[str, dict[str, int]] = {
    "micro": {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
              "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 32},
    # micro's width and depth, its attention cut into 4 heads of 16 (2 key/value heads):
    # ~7% more CPU a step; Shopping after SFT on seeds 0, 1, 2: 70, 66, 72% where micro
    # gave 78, 58, 56% (unpaired: benchmarks/LEARN.md 2026-12-07); the default
    "micro4": {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
               "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16},
    "tiny": {"hidden_size": 128, "intermediate_size": 384, "num_hidden_layers": 4,
             "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32},
    "small": {"hidden_size": 192, "intermediate_size": 576, "num_hidden_layers": 4,
              "num_attention_heads": 6, "num_key_value_heads": 2, "head_dim": 32},
}


def train_tokenizer(texts: Iterable[str], vocab_size: int = 4096) -> Any:
    """A byte-level BPE tokenizer trained on `texts`, with the ChatML chat template."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(list(texts), trainer)
    # padding_side survives save/load only when given to the constructor (transformers 5).
    hf = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>",
                                 pad_token="<|endoftext|>", padding_side="left")
    hf.chat_template = CHAT_TEMPLATE
    return hf


def tiny_model(tokenizer: Any, size: str = "small", max_positions: int = 2048,
               seed: int = 0) -> Any:
    """A freshly initialised Qwen3-style causal LM sized for `tokenizer`."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    if size not in SIZES:
        raise ValueError(f"unknown tiny model size {size!r}; choose from {', '.join(SIZES)}")
    torch.manual_seed(seed)
    cfg = Qwen3Config(vocab_size=len(tokenizer), max_position_embeddings=max_positions,
                      tie_word_embeddings=True, pad_token_id=tokenizer.pad_token_id,
                      eos_token_id=tokenizer.eos_token_id, bos_token_id=None, **SIZES[size])
    return Qwen3ForCausalLM(cfg)


def build_tiny(texts: Iterable[str], out: str | Path, *, size: str = "small",
               seed: int = 0) -> Path:
    """Train a tokenizer on `texts`, build a tiny model for it, save both in `out`."""
    out = Path(out)
    tok = train_tokenizer(texts)
    model = tiny_model(tok, size, seed=seed)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


def load_tokenizer(path: str | Path) -> Any:
    """The tokenizer of a local model folder, padding on the left, with a pad token and
    a chat template (the tiny model's ChatML one when the folder has none)."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(Path(path), local_files_only=True)
    tok.padding_side = "left"
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    if not tok.chat_template:
        tok.chat_template = CHAT_TEMPLATE
    return tok


def load_policy(path: str | Path, *, dtype: Any = None) -> tuple[Any, Any]:
    """(model, tokenizer) from a local folder; never reaches for a hub."""
    from transformers import AutoModelForCausalLM

    path = Path(path)
    if not (path / "config.json").is_file():
        raise FileNotFoundError(f"{path}: not a model folder (no config.json)")
    tok = load_tokenizer(path)
    kw = {"dtype": dtype} if dtype is not None else {}
    model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True, **kw)
    return model, tok


def prompt_ids(tok: Any, msgs: list[dict[str, str]]) -> list[int]:
    """Token ids of a chat prompt, ready for the assistant's reply."""
    return list(tok.apply_chat_template(msgs, add_generation_prompt=True, tokenize=True,
                                        return_dict=False))
