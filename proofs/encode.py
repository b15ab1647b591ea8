"""SymPy expressions to Z3 terms, exactly: logarithms never become floats.

* rationals become Z3 rationals; integer-valued symbols become ``Int`` constants used
  through ``ToReal``, so that every arithmetic term is real-sorted and ``/`` is real division;
* ``log2(n)`` becomes the exact linear combination sum_p e_p L_p over the prime factors of
  n, with L_2 = 1 and each L_p (p odd) a real constant bounded by certified rationals;
* the reciprocal of a constant irrational expression X (a DCG weight 1/log2(i + 1), say)
  becomes an auxiliary variable v with the defining equation v * X = 1 and certified
  bounds: exact, and far easier for the solver than nested division;
* any other division a / X records the guard X != 0, which callers assume (SMT-LIB
  division by zero is total but unspecified, so an unguarded a / 0 could be anything);
  inside a branch of a ``Piecewise`` the guard holds only where that branch is taken
  (``Implies(path, X != 0)``): a branch the metric never evaluates divides by nothing;
* ``Piecewise`` becomes ``If``; ``Max``/``Min`` become ``If`` chains; the indicator ``Relevant(x)``
  becomes ``If(x > 0, 1, 0)``.

Every fact the encoder adds is returned with a name, so that unsat cores can say which
were used. The bounds come from :func:`metrics.exact.enclose` (mpmath interval arithmetic,
in the trusted base).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import sympy
import z3

from irprops.metrics.exact import enclose, log2
from irprops.metrics.symbolic import Relevant

from .smt import conj

BOUND_BITS = 96


def rational(q: Fraction | sympy.Rational | int) -> z3.ArithRef:
    q = Fraction(int(q.p), int(q.q)) if isinstance(q, sympy.Rational) else Fraction(q)
    return z3.RealVal(q.numerator) / z3.RealVal(q.denominator) if q.denominator != 1 else z3.RealVal(q.numerator)


@dataclass
class Encoder:
    """Translates SymPy expressions over the given symbols into Z3 terms and formulas."""

    symbols: Mapping[sympy.Basic, z3.ExprRef]
    facts: dict[str, z3.BoolRef] = field(default_factory=dict)
    """Named facts about the atoms introduced (log bounds, reciprocal definitions)."""
    guards: list[z3.BoolRef] = field(default_factory=list)
    """Denominators that must be nonzero for the encoded terms to mean what SymPy means."""
    _atoms: dict[sympy.Basic, z3.ArithRef] = field(default_factory=dict)
    _path: list[z3.BoolRef] = field(default_factory=list)
    """The conditions under which the term being encoded is evaluated (the branches of Piecewise taken to reach it)."""

    def term(self, e: sympy.Basic) -> z3.ArithRef:
        """The real-sorted Z3 term for a SymPy expression."""
        e = sympy.sympify(e)
        if e.is_Rational:
            return rational(e)
        if e in self.symbols:
            return _real(self.symbols[e])
        if isinstance(e, log2) and e.args[0].is_Integer:
            return self._log2(int(e.args[0]))
        if e.is_Add:
            return z3.Sum([self.term(a) for a in e.args])
        if e.is_Mul:
            return z3.Product([self.term(a) for a in e.args])
        if e.is_Pow and e.exp.is_Integer:
            n = int(e.exp)
            if n >= 0:
                return z3.Product([self.term(e.base)] * n) if n else z3.RealVal(1)
            if not e.base.free_symbols and not e.base.is_Rational:
                return self._reciprocal(e.base) if n == -1 else self._reciprocal(e.base ** (-n))
            base = self.term(e.base ** (-n))
            self.guards.append(z3.Implies(conj(self._path), base != 0) if self._path else base != 0)
            return 1 / base
        if isinstance(e, sympy.Piecewise):
            return self._piecewise(e.args)
        if isinstance(e, Relevant):
            return z3.If(self.term(e.args[0]) > 0, z3.RealVal(1), z3.RealVal(0))
        if e in (sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
            # a branch SymPy evaluated to 1/0 (say Piecewise((1/g, R >= 1), (zoo, True))): the form has no value where it
            # is taken, so a guard excludes that path (as a divisor's guard does), and the value is a fresh unconstrained
            # one (fresh across encoders too: sharing one would remove models)
            self.guards.append(z3.Not(conj(self._path)) if self._path else z3.BoolVal(False))
            return z3.FreshReal("undefined")
        if isinstance(e, (sympy.Max, sympy.Min)):
            terms = [self.term(a) for a in e.args]
            pick = (lambda a, b: z3.If(a >= b, a, b)) if isinstance(e, sympy.Max) else (lambda a, b: z3.If(a <= b, a, b))
            return functools.reduce(pick, terms)
        raise NotImplementedError(f"cannot encode {e} ({type(e).__name__}) for Z3")

    def formula(self, e: sympy.Basic) -> z3.BoolRef:
        """The Z3 formula for a SymPy condition."""
        if e is sympy.true or e == True:
            return z3.BoolVal(True)
        if e is sympy.false or e == False:
            return z3.BoolVal(False)
        if isinstance(e, sympy.And):
            return conj([self.formula(a) for a in e.args])
        if isinstance(e, sympy.Or):
            return z3.Or([self.formula(a) for a in e.args])
        if isinstance(e, sympy.Not):
            return z3.Not(self.formula(e.args[0]))
        if isinstance(e, sympy.core.relational.Relational):
            a, b = self.term(e.lhs), self.term(e.rhs)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[e.rel_op]
        raise NotImplementedError(f"cannot encode condition {e}")

    def _piecewise(self, pieces: tuple) -> z3.ArithRef:
        """``If`` chains; what a branch's value divides by is guarded only where that branch is taken (an eleventh
        hostile review: a guard from a branch never taken, R + 1 - i != 0 for a term past min(k, R), left every
        situation with R <= k out of the k <= K proofs)."""
        (value, condition), rest = pieces[0], pieces[1:]
        if condition is sympy.true or not rest:
            return self.term(value)
        taken = self.formula(condition)
        with self._within(taken):
            then = self.term(value)
        with self._within(z3.Not(taken)):
            otherwise = self._piecewise(rest)
        return z3.If(taken, then, otherwise)

    @contextlib.contextmanager
    def _within(self, condition: z3.BoolRef) -> Iterator[None]:
        self._path.append(condition)
        try:
            yield
        finally:
            self._path.pop()

    def _log2(self, n: int) -> z3.ArithRef:
        total: z3.ArithRef = z3.RealVal(0)
        for p, e in sympy.factorint(n).items():
            total = total + (z3.RealVal(e) if p == 2 else e * self._prime_log(p))
        return z3.simplify(total) if n > 1 else z3.RealVal(0)

    def _prime_log(self, p: int) -> z3.ArithRef:
        key = log2(p)
        if key not in self._atoms:
            atom = self._atoms[key] = z3.Real(f"log2_{p}")
            lo, hi = enclose(key, BOUND_BITS)
            self.facts[f"log2({p}) in [{float(lo):.6g}, {float(hi):.6g}]"] = z3.And(atom >= rational(lo), atom <= rational(hi))
        return self._atoms[key]

    def _reciprocal(self, x: sympy.Expr) -> z3.ArithRef:
        key = 1 / x
        if key not in self._atoms:
            # named by what it stands for: the terms of several encoders meet in one query (the score at k and
            # at k + 1), and a name by count (inv_0) would make 1/log2(3) and 1/(1 + log2(5)) one constant
            atom = self._atoms[key] = z3.Real(f"inv({x})")
            lo, hi = enclose(key, BOUND_BITS)
            self.facts[f"1/({x}) defined"] = atom * self.term(x) == 1
            self.facts[f"1/({x}) in [{float(lo):.6g}, {float(hi):.6g}]"] = z3.And(atom >= rational(lo), atom <= rational(hi))
        return self._atoms[key]


def _real(x: z3.ExprRef) -> z3.ArithRef:
    return z3.ToReal(x) if z3.is_int(x) else x
