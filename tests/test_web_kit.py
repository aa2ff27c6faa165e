"""The web kit's form parameters: folded text, limits and the required message."""

from __future__ import annotations

import pytest

from sentinel.web.kit import BadInput, text_param


def test_text_param_folds_whitespace_and_may_be_empty_when_not_required():
    assert text_param({"body": "  two \n words "}, "body") == "two words"
    assert text_param({}, "body") == ""


def test_text_param_refuses_long_and_non_text_values_with_its_label():
    with pytest.raises(BadInput, match="The note is too long"):
        text_param({"note": "x" * 11}, "note", max_len=10, label="The note")
    with pytest.raises(BadInput, match="Note must be text"):
        text_param({"note": ["a"]}, "note")


def test_text_param_required_message_for_blank_text():
    with pytest.raises(BadInput, match="^Write something first.$"):
        text_param({"body": " \t "}, "body", required="Write something first.")
    assert text_param({"body": "hi"}, "body", required="Write something first.") == "hi"
