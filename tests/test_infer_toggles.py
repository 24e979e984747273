from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from phoneworld.infer.toggles import state_pair


def test_state_pair_is_the_one_text_per_state():
    assert state_pair({True: {"Dimming ON"}, False: {"Dimming OFF"}}) == \
        ("Dimming ON", "Dimming OFF")


def test_state_pair_needs_both_states_one_text_each_and_no_blank():
    assert state_pair({True: {"ON"}}) is None  # off never recorded
    assert state_pair({True: {"ON", "On"}, False: {"OFF"}}) is None  # two texts when on
    assert state_pair({True: {"Wi-Fi"}, False: {"Wi-Fi"}}) is None  # the text says nothing
    assert state_pair({True: {""}, False: {"OFF"}}) is None


@given(st.dictionaries(st.booleans(), st.sets(st.sampled_from(["", "ON", "OFF", "x"]))))
def test_state_pair_reads_what_was_recorded(by):
    pair = state_pair(by)
    if pair is not None:
        assert by[True] == {pair[0]} and by[False] == {pair[1]} and pair[0] != pair[1]
        assert "" not in pair
