"""The tiny model and its tokenizer: built locally, saved, loaded back, same outputs."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

pytestmark = pytest.mark.usefixtures("one_thread")


def test_tokenizer_round_trips_app_text(micro) -> None:
    from rl.model import load_policy

    folder, _, _, examples = micro
    _, tok = load_policy(folder)
    for m in examples[0]["messages"]:
        ids = tok(m["content"])["input_ids"]
        assert tok.decode(ids) == m["content"]
    assert tok.padding_side == "left" and tok.eos_token == "<|im_end|>"


def test_chat_template_marks_only_the_reply(micro) -> None:
    from rl.model import load_policy

    folder, _, _, examples = micro
    _, tok = load_policy(folder)
    out = tok.apply_chat_template(examples[0]["messages"], tokenize=True, return_dict=True,
                                  return_assistant_tokens_mask=True)
    ids = [i for i, m in zip(out["input_ids"], out["assistant_masks"], strict=True) if m]
    assert tok.decode(ids) == examples[0]["messages"][-1]["content"] + "<|im_end|>"


def test_the_tiny_template_leaves_the_system_message_out(micro) -> None:
    """A constant preamble tells a model trained only on this layout nothing; the user's
    message and the reply are kept whole."""
    from rl.model import load_policy, prompt_ids

    folder, _, _, examples = micro
    _, tok = load_policy(folder)
    msgs = examples[0]["messages"]
    assert msgs[0]["role"] == "system"
    assert prompt_ids(tok, msgs[:-1]) == prompt_ids(tok, msgs[1:-1])
    text = tok.decode(prompt_ids(tok, msgs[:-1]))
    assert msgs[0]["content"] not in text and msgs[1]["content"] in text


def test_save_and_load_give_the_same_logits(micro, tmp_path) -> None:
    from rl.model import load_policy

    folder, _, _, _ = micro
    model, tok = load_policy(folder)
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    again, tok2 = load_policy(tmp_path)
    ids = torch.tensor([tok("[3] clickable \"Cart\"")["input_ids"]])
    with torch.no_grad():
        assert torch.equal(model(ids).logits, again(ids).logits)
    assert tok2.chat_template == tok.chat_template


def test_a_folder_without_a_model_is_refused(tmp_path) -> None:
    from rl.model import load_policy

    with pytest.raises(FileNotFoundError, match="not a model folder"):
        load_policy(tmp_path)


def test_micro4_is_micro_with_its_attention_in_four_heads(micro) -> None:
    from rl.model import load_tokenizer, tiny_model

    folder, *_ = micro
    tok = load_tokenizer(folder)
    a, b = tiny_model(tok, "micro"), tiny_model(tok, "micro4")
    assert (b.config.num_attention_heads, b.config.num_key_value_heads, b.config.head_dim) \
        == (4, 2, 16)
    assert b.config.hidden_size == a.config.hidden_size
    assert b.config.num_hidden_layers == a.config.num_hidden_layers
    ids = torch.tensor([tok("Open Settings")["input_ids"]])
    assert b(input_ids=ids).logits.shape == a(input_ids=ids).logits.shape
