"""The seven properties of Moffat (AIRS 2013) as quantified statements, and their refutation search.

Not yet implemented: this package is the home of issue 3 (formal statements, sound
refutation search with exactly re-checked witnesses, ``irprops check``).
"""
