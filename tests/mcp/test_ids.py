"""Recovering a request id from a line the SDK could not parse, with numbers bounded."""

from __future__ import annotations

import json
import time

from hypothesis import given
from hypothesis import strategies as st

from tooldrop_mcp._ids import MAX_NUMBER_CHARS, message_id, recover_id

ids = st.one_of(st.text(max_size=20), st.integers(min_value=-(10**30), max_value=10**30))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=10,
)


@given(request_id=ids, params=json_values)
def test_the_id_of_any_valid_message_is_recovered(request_id, params):
    line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "m", "params": params})
    assert recover_id(line) == request_id


@given(request_id=ids, digits=st.integers(min_value=MAX_NUMBER_CHARS + 1, max_value=20_000))
def test_a_huge_number_anywhere_does_not_lose_the_id(request_id, digits):
    line = json.dumps({"jsonrpc": "2.0", "id": request_id, "params": {"n": "HUGE"}})
    line = line.replace('"HUGE"', "9" * digits)
    assert recover_id(line) == request_id


def test_a_huge_id_is_not_an_id():
    assert recover_id('{"id": ' + "1" * (MAX_NUMBER_CHARS + 1) + "}") is None


def test_numbers_are_never_converted_past_the_limit():
    # A million digits: converting would take seconds (int() is quadratic); skipping does not.
    line = '{"id": 3, "n": ' + "7" * 1_000_000 + "}"
    start = time.process_time()
    assert recover_id(line) == 3
    assert time.process_time() - start < 5  # a hang guard, not a speed measurement


def test_what_is_not_an_id():
    for line in ["[1]", '{"id": true}', '{"id": 1.5}', '{"id": null}', "nope", '{"id": NaN}']:
        assert recover_id(line) is None
    assert message_id({"id": False}) is None
    assert recover_id("[" * 100_000) is None
