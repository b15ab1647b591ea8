"""A closed form at a concrete situation, written out term by term.

Once the depth, R and the parameters are numbers, every sum and product of a closed form has integer bounds. SymPy's
``doit`` would then sum the symbolic terms first (``Sum.doit`` runs ``apart`` and ``expand`` on each term) and put the
grades in afterwards: a product of 300 symbolic factors inside a sum took more than five minutes (a hostile review's
``rr_leak_300``). :func:`written_out` goes the other way, as the exact run does: each term with its rank put in, each
grade replaced by its value at the leaves, so that the terms are numbers before they are added or multiplied.

A sum or product whose bounds are integers with ``hi >= lo - 1`` is the sum or product of its terms ``lo..hi`` (empty
when ``hi = lo - 1``), which is also what SymPy means by it; any other (bounds that are not integers, or Karr's
convention for ``hi < lo - 1``, which the algebra never writes) is kept, for the caller's ``doit``, unless ``leaf``
gives it a value (the proofs' checked closed form of a sum over the depth, say).

>>> b, i = sympy.IndexedBase("b"), sympy.Symbol("i", integer=True, positive=True)
>>> grades = {b[1]: sympy.Integer(1), b[2]: sympy.Integer(0), b[3]: sympy.Integer(1)}
>>> written_out(sympy.Sum(b[i] / i, (i, 1, 3)), grades.get)
4/3
"""

from __future__ import annotations

from collections.abc import Callable

import sympy

__all__ = ["Leaf", "written_out"]

Leaf = Callable[[sympy.Basic], "sympy.Basic | None"]
"""The value of a node the caller knows (a grade with an integer rank, say), or None to write the node out."""


def written_out(expr: sympy.Basic, leaf: Leaf) -> sympy.Basic:
    """``expr`` with the nodes ``leaf`` knows replaced and every other sum and product over integer bounds written out as
    the sum or product of its terms, each term written out first. Nothing else is evaluated: the caller's ``doit`` does.

    >>> j, k = sympy.Symbol("j", integer=True, positive=True), sympy.Symbol("k", integer=True, positive=True)
    >>> written_out(sympy.Product(1 - sympy.KroneckerDelta(j, 2) / 2, (j, 1, 3)), lambda node: None)
    1/2
    >>> written_out(sympy.Sum(j, (j, 1, k)), lambda node: None)  # not integer bounds: kept
    Sum(j, (j, 1, k))
    """
    return _Writer(leaf).value(sympy.sympify(expr))


class _Writer:
    """One writing-out: the values of the nodes met so far, and the terms of each sum or product body met so far (the
    product over ranks 1..i - 1 for every i of a sum, as an ERR-like cascade has it, costs one factor per rank)."""

    def __init__(self, leaf: Leaf) -> None:
        self._leaf = leaf
        self._values: dict[sympy.Basic, sympy.Basic] = {}
        self._terms: dict[tuple[type, sympy.Basic, sympy.Basic, sympy.Basic], list[sympy.Basic]] = {}

    def value(self, node: sympy.Basic) -> sympy.Basic:
        known = self._values.get(node)
        if known is not None:
            return known
        result = self._leaf(node)
        if result is None:
            if isinstance(node, (sympy.Sum, sympy.Product)) and len(node.limits) == 1:
                result = self._series(node)
            elif not node.args:
                result = node
            else:
                args = [self.value(a) for a in node.args]
                result = node if all(a is b for a, b in zip(args, node.args, strict=True)) else node.func(*args)
        self._values[node] = result
        return result

    def _series(self, node: sympy.Sum | sympy.Product) -> sympy.Basic:
        (index, lo, hi), = node.limits
        lo, hi = self.value(lo), self.value(hi)
        if not (lo.is_Integer and hi.is_Integer and hi >= lo - 1):
            return node.func(node.function, (index, lo, hi))
        terms = self._terms.setdefault((node.func, node.function, index, lo), [])
        while len(terms) < int(hi) - int(lo) + 1:
            terms.append(self.value(node.function.xreplace({index: lo + len(terms)})))
        count = int(hi) - int(lo) + 1
        return sympy.Add(*terms[:count]) if isinstance(node, sympy.Sum) else sympy.Mul(*terms[:count])
