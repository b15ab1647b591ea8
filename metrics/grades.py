"""Relevance grades: parsing and printing rankings and qrels the way the papers write them.

A grade is a ``Fraction`` in [0, 1]; an unjudged document is ``None`` (written ``?``).
Rankings are written either compactly, one character per document, over
``0``/``-`` (nonrelevant), ``1``/``$`` (relevant) and ``?`` (unjudged), as in the
RBP paper's ``$$---$----$-??--?---``; or as comma-separated grades such as
``1,1/2,0.25,0,?``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from .errors import InputError, exact_number

Grade = Fraction
"""A relevance grade: a rational number in [0, 1]."""

Entry = Fraction | None
"""One ranked document: its grade, or ``None`` when it is unjudged."""

_COMPACT = {"0": Fraction(0), "-": Fraction(0), "1": Fraction(1), "$": Fraction(1), "?": None}
_FORMAT_HINT = "write a string over 0 1 ? - $ like 1--1??, or comma-separated grades like 1,1/2,0,?"


def parse_grade(text: str, argument: str = "grade") -> Entry:
    """Parse one grade: ``1``, ``0``, ``1/2``, ``0.25`` or ``?`` (unjudged).

    >>> parse_grade("0.25"), parse_grade("2/4"), parse_grade("?")
    (Fraction(1, 4), Fraction(1, 2), None)
    """
    token = text.strip()
    if token == "?":
        return None
    if token in _COMPACT:
        return _COMPACT[token]
    hint = "grades are numbers in [0, 1] such as 1, 1/2 or 0.25, or ? for unjudged"
    try:
        grade = exact_number(token, argument, hint)
    except InputError as error:
        raise InputError(argument, text, "not a grade" if error.rule == "not a number" else error.rule, hint) from None
    return check_grade(grade, argument)


def check_grade(grade: Fraction | int | str, argument: str = "grade") -> Fraction:
    """Return ``grade`` as a Fraction if it is an exact number in [0, 1], else raise :class:`InputError`.

    Floats are refused: 0.1 is not one tenth in binary, and scores must be exact.

    >>> check_grade(0.5)
    Traceback (most recent call last):
    ...
    irprops.metrics.errors.InputError: grade = 0.5: is a float, and grades must be exact (write it as the string '0.5' or as a Fraction)
    """
    if type(grade) is Fraction and 0 <= grade.numerator <= grade.denominator:  # already one (a ranking 10,000 deep
        return grade                                                            # spent 0.1 s copying and comparing)
    if isinstance(grade, str):
        parsed = parse_grade(grade, argument)
        if parsed is None:
            raise InputError(argument, grade, "an unjudged document (?) has no grade here")
        return parsed
    if isinstance(grade, bool) or not isinstance(grade, (int, Fraction)):
        raise InputError(argument, grade, f"is a {type(grade).__name__}, and grades must be exact",
                         f"write it as the string '{grade}' or as a Fraction" if isinstance(grade, float)
                         else "use an int, a Fraction or a string")
    grade = Fraction(grade)
    if not 0 <= grade <= 1:
        raise InputError(argument, format_grade(grade), "grades must lie in [0, 1]",
                         "rescale graded judgments, e.g. 0-3 becomes 0, 1/3, 2/3, 1")
    return grade


def parse_ranking(text: str, argument: str = "ranking") -> tuple[Entry, ...]:
    """Parse a ranking, top document first.

    >>> parse_ranking("1-?$")
    (Fraction(1, 1), Fraction(0, 1), None, Fraction(1, 1))
    >>> parse_ranking("1, 1/2, ?")
    (Fraction(1, 1), Fraction(1, 2), None)
    """
    stripped = text.strip()
    if not stripped:
        raise InputError(argument, text, "the ranking is empty", _FORMAT_HINT)
    if "," in stripped or "/" in stripped or "." in stripped:
        return tuple(parse_grade(token, f"{argument} entry {i}") for i, token in enumerate(stripped.split(","), start=1))
    entries = []
    for i, char in enumerate(stripped, start=1):
        if char not in _COMPACT:
            raise InputError(argument, text, f"character {char!r} at position {i} is not a grade", _FORMAT_HINT)
        entries.append(_COMPACT[char])
    return tuple(entries)


def parse_qrels(text: str, argument: str = "qrels") -> tuple[Fraction, ...]:
    """Parse the grades of the relevant documents: ``1,1,1/2`` or compactly ``111``.

    An empty string means a collection with no relevant document (R = 0).

    >>> parse_qrels("1,1/2"), parse_qrels("11"), parse_qrels("")
    ((Fraction(1, 1), Fraction(1, 2)), (Fraction(1, 1), Fraction(1, 1)), ())
    """
    if not text.strip():
        return ()
    grades = parse_ranking(text, argument)
    for i, grade in enumerate(grades, start=1):
        if grade is None or grade == 0:
            shown = "?" if grade is None else "0"
            raise InputError(argument, text, f"entry {i} is {shown}, but qrels list only the grades (> 0) of relevant documents",
                             "drop it, or use --R N for N relevant documents of grade 1")
    return tuple(g for g in grades if g is not None)


def format_grade(grade: Entry) -> str:
    """Write a grade as the papers do: ``1``, ``0``, ``1/2`` or ``?``.

    >>> format_grade(Fraction(1, 2)), format_grade(Fraction(1)), format_grade(None)
    ('1/2', '1', '?')
    """
    if grade is None:
        return "?"
    return str(grade)


class ByIdentity:
    """``f(g)`` of each grade object ``g``, kept by the object's identity (the object kept alive with it, so that no
    other object takes that identity) and looked up in C: the searches pass the same few hundred grade objects hundreds
    of thousands of times. Past ``most`` objects, the others' values are computed each time.

    >>> texts = ByIdentity(str); texts.each((Fraction(1, 2), Fraction(1)))
    ('1/2', '1')
    """

    def __init__(self, f: Callable[[Entry], object], most: int = 1 << 14) -> None:
        self._f = f
        self._most = most
        self._values: dict[int, object] = {}
        self._kept: dict[int, object] = {}

    def each(self, grades: Sequence[Entry]) -> tuple[Any, ...]:
        """``f`` of each of ``grades``, in order."""
        try:
            return tuple(map(self._values.__getitem__, map(id, grades)))
        except KeyError:  # a grade object met for the first time
            pass
        for g in grades:
            if id(g) not in self._values and len(self._values) < self._most:
                self._kept[id(g)] = g
                self._values[id(g)] = self._f(g)
        return tuple(map(self._f, grades))


def grade_texts(grades: Sequence[Entry]) -> list[str | None]:
    """``str(g)`` of each grade (None for an unjudged entry), as a proposal's or a toolkit's process is sent them
    (kept per grade object: :class:`ByIdentity`).

    >>> grade_texts([Fraction(1, 2), None, Fraction(1)])
    ['1/2', None, '1']
    """
    return list(_TEXTS.each(grades))


_TEXTS = ByIdentity(lambda g: None if g is None else str(g))


def format_ranking(entries: Iterable[Entry]) -> str:
    """Write a ranking compactly (``10?01``) when every grade is 0, 1 or ?, else comma-separated.

    >>> format_ranking(parse_ranking("1-?$")), format_ranking(parse_ranking("1,1/2"))
    ('10?1', '1,1/2')
    """
    entries = tuple(entries)
    if all(e is None or e in (0, 1) for e in entries):
        return "".join(format_grade(e) for e in entries)
    return ",".join(format_grade(e) for e in entries)


def is_binary(grades: Iterable[Entry]) -> bool:
    """Whether every judged grade is 0 or 1."""
    return all(g is None or g in (0, 1) for g in grades)
