"""Numbers written in digits, words or both ("120", "a hundred and twenty", "twenty-five", "3 thousand"): one
pattern and one reader for the planner and the date parser."""

from __future__ import annotations

import re

# English number words (ordinary grammar): units and teens, tens, and the scales that multiply what precedes them.
NUMBER_WORDS = {word: value for value, word in enumerate([
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])} | {
    word: 10 * value for value, word in enumerate(
        ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], 2)}
NUMBER_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "dozen": 12}
_WORD = "|".join(sorted([*NUMBER_WORDS, *NUMBER_SCALES], key=len, reverse=True))
SCALE_WORD = "|".join(NUMBER_SCALES)  # a pattern: any scale word


def _number(digits: str) -> str:
    """Digits or number words joined by spaces or hyphens ("and" only after a scale word), no groups."""
    # ("half a million", "a quarter of a million", "three quarters of a million", "a couple of hundred")
    lead = (rf"(?:(?:half\s+|(?:a|one|two|three)\s+quarters?\s+of\s+)?an?\s+|(?:a\s+)?couple\s+(?:of\s+)?)"
            rf"(?={SCALE_WORD})")
    return (rf"(?:{digits}|(?:{lead})?(?:{_WORD})\b)"
            # ("fewer than 5 one-star reviews": after digits only a scale word goes on, "5 thousand")
            rf"(?:(?:(?<!\d)[\s-]+|(?<=\d)[\s-]+(?={SCALE_WORD})|(?:(?<=hundred)|(?<=thousand)|(?<=million))\s+and\s+)"
            rf"(?:{_WORD})\b)*")


NUMBER = _number(r"\d[\d,]*(?:\.\d+)?")  # any number ("3.6 stars", "2,000 words")
WHOLE_NUMBER = _number(r"\d[\d,]*")  # a count of things ("the last 120 days", "the last hundred and twenty days")
NUM = f"({NUMBER})"  # one capturing group


def number_value(text: str) -> int | float:
    """The value of a number written in digits, words or both: "2,000", "two thousand", "four hundred and fifty",
    "twenty-five", "3 thousand", "3.6", "a quarter of a million", "a couple of hundred" (a whole number is an
    int)."""
    total: int | float = 0
    current: int | float = 0
    for part in re.split(r"[\s-]+", text.lower().replace(",", "")):
        if part.isdigit():
            current += int(part)
        elif re.fullmatch(r"\d+\.\d+", part):  # "averaged under 3.6 stars" (was 3, with '6' unused)
            current += float(part)
        elif part in NUMBER_WORDS:
            current += NUMBER_WORDS[part]
        elif part in ("hundred", "dozen"):  # "four hundred", "two dozen", "a dozen"
            current = (current or 1) * NUMBER_SCALES[part]
        elif part == "half":  # "half a dozen"
            current = 0.5
        elif part in ("quarter", "quarters"):  # "a quarter of a million", "three quarters of a million"
            current = (current or 1) * 0.25
        elif part == "couple":  # "a couple of hundred"
            current = 2
        elif part in NUMBER_SCALES:
            total, current = total + (current or 1) * NUMBER_SCALES[part], 0
    value = total + current
    return int(value) if float(value).is_integer() else value
