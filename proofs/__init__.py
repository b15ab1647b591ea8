"""Proofs of the properties with Z3 and SymPy, and their SMT-LIB certificates.

Not yet implemented: this package is the home of issue 4 (bounded proofs for k up to K,
all-k proofs from a metric's structure, certificates re-checkable with cvc5).
"""
