"""Errors raised for bad user input and for values the exact layer cannot decide.

Every message names the argument, the offending value and the rule it breaks, and
where possible suggests the fix, so that the command line can print it on one line.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from fractions import Fraction


class InputError(ValueError):
    """A value supplied by the user breaks a rule of the situation model or the name syntax.

    >>> print(InputError("k", 0, "the depth must be at least 1", "write e.g. P@5"))
    k = 0: the depth must be at least 1 (write e.g. P@5)

    A value too long for one line is shown by its beginning and its length:

    >>> print(InputError("ranking", "1" * 5000, "too long"))
    ranking = '1111111111111111111111111111111111111111111111111111111111111111'... (5,000 characters): too long
    """

    def __init__(self, argument: str, value: object, rule: str, hint: str | None = None) -> None:
        self.argument = argument
        self.value = value
        self.rule = rule
        self.hint = hint
        text = value if isinstance(value, str) else _text(value)
        quote = repr if isinstance(value, str) else str
        shown = quote(text) if len(text) <= SHOWN else f"{quote(text[:SHOWN])}... ({len(text):,} characters)"
        message = f"{argument} = {shown}: {rule}"
        if hint:
            message += f" ({hint})"
        super().__init__(message)


SHOWN = 64
"""The most characters of a value an error message shows."""


def _text(value: object) -> str:
    try:
        return str(value)
    except ValueError:  # an int past Python's 4,300-digit limit for str()
        return f"an integer of {value.bit_length():,} bits" if isinstance(value, int) else type(value).__name__


class Undecided(ArithmeticError):
    """The sign of an exact value could not be certified within the precision limit.

    This is never turned into a verdict: callers treat it as "no information".
    """


class NotExpressible(Exception):
    """A metric's formula uses an operation its symbolic backend cannot express.

    For example the maximum over a symbolic number of grades (HIT with symbolic k).
    """


MAX_DIGITS = 60
"""The most digits a number typed by a user may have (a grade, a parameter): ``1e-999999`` would be a million."""


def exact_number(text: str, argument: str, hint: str) -> Fraction:
    """The exact number ``text`` writes (``1/2``, ``0.25``, ``3e-2``), refusing more than MAX_DIGITS digits.

    >>> exact_number("3e-2", "p", "e.g. p=0.8")
    Fraction(3, 100)
    >>> exact_number("1e-999999", "p", "e.g. p=0.8")
    Traceback (most recent call last):
    ...
    irprops.metrics.errors.InputError: p = '1e-999999': has more than 60 digits (e.g. p=0.8)
    """
    token = text.strip()
    mantissa, _, exponent = token.lower().partition("e")
    digits = sum(ch.isdigit() for ch in mantissa)
    try:
        shift = abs(int(exponent)) if exponent else 0
    except ValueError:
        shift = 0
    if digits + shift > MAX_DIGITS:
        raise InputError(argument, text, f"has more than {MAX_DIGITS} digits", hint)
    try:
        return Fraction(token)
    except (ValueError, ZeroDivisionError):
        raise InputError(argument, text, "not a number", hint) from None


def close_matches(word: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates closest to ``word``, compared case-insensitively.

    >>> close_matches("nDGC", ["nDCG", "DCG", "AP"])
    ['nDCG', 'DCG']
    """
    by_lower: dict[str, str] = {}
    for candidate in candidates:
        by_lower.setdefault(candidate.lower(), candidate)
    found = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=0.5)
    return [by_lower[f] for f in found]
