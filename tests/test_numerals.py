"""Numbers written in words are read as the figures they are, in English and Chinese."""

from __future__ import annotations

import pytest

from answers.assertions import figures
from answers.numerals import in_digits
from answers.text import fold, spaced


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("eighteen trillion tokens already in the bag", "18 trillion tokens already in the bag"),
        ("that's seven hundred ninety-two GPUs", "that's 792 gpus"),
        ("each step eats about forty-six million tokens", "each step eats about 46 million tokens"),
        ("one point six billion total", "1.6 billion total"),
        ("two point seven times ten to the twenty-fourth FLOPs", "2.7e24 flops"),
        ("half a trillion parameters", "0.5 trillion parameters"),
        ("it was thirteen percent on Sept 2", "it was 13% on sept 2"),
        ("总共才训一万八千亿个token", "总共才训1.8 trillion个 token"),
        ("永久检查点每六千步存一次", "永久检查点每6000步存一次"),
        ("序列长度两千零四十八", "序列长度2048"),
        ("十月三号", "10月3号"),
        ("MFU 升到超過三成五", "mfu 升到超过35%"),
        ("百分之五十", "50%"),
    ],
)
def test_a_number_in_words_is_read_in_digits(said: str, read: str) -> None:
    assert in_digits(spaced(fold(said))) == read


@pytest.mark.parametrize(
    "said",
    [
        "one of the tasks",  # "one" is a word here
        "一半",  # half: a word
        "一开始就是",  # "from the start"
        "阶梯最大一级",  # the top rung, not one rung
        "团队就十几个人",  # about a dozen: no figure
        "五千多亿参数",  # "over 500 billion": no exact figure
        "八成是假的",  # "probably", not 80%
        "千万别信",  # "don't ever believe it"
        "seven hundred-odd GB200s",  # about 700: not 700 exactly
    ],
)
def test_a_word_with_a_number_in_it_is_left_as_it_is(said: str) -> None:
    assert figures(in_digits(spaced(fold(said)))) == []
