"""A record itself denied: said to be fake, made up or a rumour ("the halfway tweet was fake",
"那篇 Huang Foundation 博文是假的"). The record is there, so the denial contradicts it; a
"not" or "never happened" is weighed elsewhere (``verdict_words.NEGATION``): it may deny an
overstatement, or a plan that did not happen.
"""

from __future__ import annotations

import re

FAKE = re.compile(
    r"\b(?:fake|faked|made up|hoax|fabricated|bogus|photoshopped|just marketing|was marketing"
    r")\b|假的|造假|编的|編的|瞎编|瞎編|p的图|p 的图|是谣言|是謠言"
)
