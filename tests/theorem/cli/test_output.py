"""Strict JSON output: values encoded ahead of time are spliced in exactly as the whole object
would have been encoded at once."""

import io
import json
import math

from hypothesis import given
from hypothesis import strategies as st

from theorem.cli.output import encoded, write_json

_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5),
                    st.floats(allow_nan=True, allow_infinity=True))
_VALUES = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=12)


def _written(obj) -> str:
    out = io.StringIO()
    write_json(obj, out)
    return out.getvalue()


def _strict(value):
    """The reference: NaN and infinities as None, encoded by json in one piece."""
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_strict(v) for v in value]
    return None if isinstance(value, float) and not math.isfinite(value) else value


@given(obj=st.dictionaries(st.text(max_size=4), _VALUES, max_size=4), data=st.data())
def test_encoded_values_are_spliced_as_if_encoded_at_once(obj, data):
    reference = json.dumps(_strict(obj), allow_nan=False)
    keys = data.draw(st.lists(st.sampled_from(sorted(obj)), unique=True) if obj else st.just([]))
    spliced = {k: encoded(lambda v=v: v) if k in keys else v for k, v in obj.items()}
    nested = {"outer": spliced, "n": 1}
    assert _written(spliced) == reference
    assert _written(nested) == json.dumps({"outer": _strict(obj), "n": 1}, allow_nan=False)
    json.loads(_written(nested))                  # strict JSON: no NaN or Infinity tokens
