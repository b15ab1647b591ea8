"""The BibTeX a report cites: the properties' source, and the source of every metric and toolkit it shows.

A metric declares its reference as text (``Metric.reference``); an entry here is cited when the reference names its
title (or, for a toolkit, when the toolkit is shown). A reference no entry matches is cited as a ``@misc`` entry whose
note is the reference itself, so nothing a report shows goes uncited.

>>> keys = [e.key for e in cited(["Moffat and Zobel, Rank-Biased Precision for Measurement of Retrieval Effectiveness, "
...                                "ACM TOIS 2008, Section 4"])]
>>> keys
['moffat2013seven', 'moffat2008rbp']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from irprops.table.render_tex import plain

__all__ = ["PROPERTIES_SOURCE", "Entry", "bibtex", "cited", "escape_bibtex"]


@dataclass(frozen=True)
class Entry:
    """One BibTeX entry, and the text by which a metric's reference names it."""

    key: str
    kind: str
    fields: tuple[tuple[str, str], ...]
    marker: str

    def text(self) -> str:
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in self.fields)
        return f"@{self.kind}{{{self.key},\n{body}\n}}\n"


ENTRIES: tuple[Entry, ...] = (
    Entry("moffat2013seven", "inproceedings", (
        ("author", "Alistair Moffat"), ("title", "Seven Numeric Properties of Effectiveness Metrics"),
        ("booktitle", "Information Retrieval Technology (AIRS 2013)"), ("series", "LNCS"), ("volume", "8281"),
        ("pages", "1--12"), ("publisher", "Springer"), ("year", "2013"), ("doi", "10.1007/978-3-642-45068-6_1")),
        "Seven Numeric Properties"),
    Entry("moffat2008rbp", "article", (
        ("author", "Alistair Moffat and Justin Zobel"),
        ("title", "Rank-Biased Precision for Measurement of Retrieval Effectiveness"),
        ("journal", "ACM Transactions on Information Systems"), ("volume", "27"), ("number", "1"), ("pages", "2:1--2:27"),
        ("year", "2008"), ("doi", "10.1145/1416950.1416952")),
        "Rank-Biased Precision"),
    Entry("jarvelin2002cumulated", "article", (
        ("author", "Kalervo J{\\\"a}rvelin and Jaana Kek{\\\"a}l{\\\"a}inen"),
        ("title", "Cumulated Gain-Based Evaluation of {IR} Techniques"),
        ("journal", "ACM Transactions on Information Systems"), ("volume", "20"), ("number", "4"), ("pages", "422--446"),
        ("year", "2002"), ("doi", "10.1145/582415.582418")),
        "Cumulated Gain-Based Evaluation"),
    Entry("chapelle2009err", "inproceedings", (
        ("author", "Olivier Chapelle and Donald Metzler and Ya Zhang and Pierre Grinspan"),
        ("title", "Expected Reciprocal Rank for Graded Relevance"), ("booktitle", "Proceedings of CIKM 2009"),
        ("pages", "621--630"), ("year", "2009"), ("doi", "10.1145/1645953.1646033")),
        "Expected Reciprocal Rank"),
    Entry("burges2005ranknet", "inproceedings", (
        ("author", ("Chris Burges and Tal Shaked and Erin Renshaw and Ari Lazier and Matt Deeds and Nicole Hamilton and "
                   "Greg Hullender")),
        ("title", "Learning to Rank using Gradient Descent"), ("booktitle", "Proceedings of ICML 2005"), ("pages", "89--96"),
        ("year", "2005"), ("doi", "10.1145/1102351.1102363")),
        "Learning to Rank using Gradient Descent"),
    Entry("sakai2004ntcir", "inproceedings", (
        ("author", "Tetsuya Sakai"), ("title", "Ranking the {NTCIR} Systems Based on Multigrade Relevance"),
        ("booktitle", "Information Retrieval Technology (AIRS 2004)"), ("series", "LNCS"), ("volume", "3411"),
        ("pages", "251--262"), ("publisher", "Springer"), ("year", "2004")),
        "Ranking the NTCIR Systems"),
    Entry("moffat2015inst", "inproceedings", (
        ("author", "Alistair Moffat and Peter Bailey and Falk Scholer and Paul Thomas"),
        ("title", "{INST}: An Adaptive Metric for Information Retrieval Evaluation"), ("booktitle", "Proceedings of ADCS 2015"),
        ("year", "2015"), ("doi", "10.1145/2838931.2838938")),
        "INST: An Adaptive Metric"),
    Entry("moffat2013users", "inproceedings", (
        ("author", "Alistair Moffat and Paul Thomas and Falk Scholer"),
        ("title", "Users versus Models: What Observation Tells Us about Effectiveness Metrics"),
        ("booktitle", "Proceedings of CIKM 2013"), ("pages", "659--668"), ("year", "2013"), ("doi", "10.1145/2505515.2507665")),
        "Users versus Models"),
    Entry("buckley2004bpref", "inproceedings", (
        ("author", "Chris Buckley and Ellen M. Voorhees"), ("title", "Retrieval Evaluation with Incomplete Information"),
        ("booktitle", "Proceedings of SIGIR 2004"), ("pages", "25--32"), ("year", "2004"), ("doi", "10.1145/1008992.1009000")),
        "Retrieval Evaluation with Incomplete Information"),
    Entry("vanrijsbergen1979ir", "book", (
        ("author", "C. J. van Rijsbergen"), ("title", "Information Retrieval"), ("edition", "2nd"),
        ("publisher", "Butterworths"), ("year", "1979")),
        "van Rijsbergen, Information Retrieval"),
    Entry("macavaney2022irmeasures", "inproceedings", (
        ("author", "Sean MacAvaney and Craig Macdonald and Iadh Ounis"), ("title", "Streamlining Evaluation with ir-measures"),
        ("booktitle", "Advances in Information Retrieval (ECIR 2022)"), ("series", "LNCS"), ("volume", "13186"),
        ("pages", "305--310"), ("publisher", "Springer"), ("year", "2022")),
        "toolkit:ir_measures"),
    Entry("vangysel2018pytreceval", "inproceedings", (
        ("author", "Christophe Van Gysel and Maarten de Rijke"),
        ("title", "Pytrec\\_eval: An Extremely Fast Python Interface to trec\\_eval"), ("booktitle", "Proceedings of SIGIR 2018"),
        ("pages", "873--876"), ("year", "2018"), ("doi", "10.1145/3209978.3210065")),
        "toolkit:pytrec_eval"),
    Entry("bassani2022ranx", "inproceedings", (
        ("author", "Elias Bassani"), ("title", "ranx: A Blazing-Fast Python Library for Ranking Evaluation and Comparison"),
        ("booktitle", "Advances in Information Retrieval (ECIR 2022)"), ("series", "LNCS"), ("volume", "13186"),
        ("pages", "259--264"), ("publisher", "Springer"), ("year", "2022")),
        "toolkit:ranx"),
    Entry("azzopardi2019cwl", "inproceedings", (
        ("author", "Leif Azzopardi and Paul Thomas and Alistair Moffat"),
        ("title", "cwl\\_eval: An Evaluation Tool for Information Retrieval"), ("booktitle", "Proceedings of SIGIR 2019"),
        ("pages", "1321--1324"), ("year", "2019"), ("doi", "10.1145/3331184.3331398")),
        "toolkit:cwl_eval"),
    Entry("rbpeval", "misc", (
        ("author", "Alistair Moffat"), ("title", "rbp\\_eval: Rank-Biased Precision with residuals"),
        ("howpublished", "the rbp-eval package, version 1.0.0"), ("year", "2008")),
        "toolkit:rbp_eval"),
)

PROPERTIES_SOURCE = ENTRIES[0]
"""Moffat (AIRS 2013): the source of the seven properties, cited by every report."""


def escape_bibtex(text: str) -> str:
    """Text safe in a BibTeX field (braces balanced, LaTeX's specials escaped).

    >>> print(escape_bibtex("ir_measures' nDCG & 50% C:\\\\x"))
    ir\\_measures' nDCG \\& 50\\% C:\\textbackslash{}x
    """
    return plain(" ".join(text.split()))


def cited(references: Iterable[str], toolkits: Iterable[str] = ()) -> list[Entry]:
    """The entries for the properties, each reference (a metric's ``reference`` text) and each toolkit, each once, in
    the order first cited; a reference no entry matches becomes a ``@misc`` entry carrying its text."""
    found: dict[str, Entry] = {PROPERTIES_SOURCE.key: PROPERTIES_SOURCE}
    for toolkit in toolkits:
        for entry in ENTRIES:
            if entry.marker == f"toolkit:{toolkit}":
                found.setdefault(entry.key, entry)
    for n, reference in enumerate(dict.fromkeys(references), start=1):
        matched = [e for e in ENTRIES if not e.marker.startswith("toolkit:") and e.marker.lower() in reference.lower()]
        for entry in matched:
            found.setdefault(entry.key, entry)
        if not matched and reference.strip() and reference != "a proposal":
            key = f"irprops-reference-{n}"
            found.setdefault(key, Entry(key, "misc", (("note", escape_bibtex(reference)),), reference))
    return list(found.values())


def bibtex(entries: Iterable[Entry]) -> str:
    """A .bib file of ``entries``."""
    return "\n".join(entry.text() for entry in entries)
