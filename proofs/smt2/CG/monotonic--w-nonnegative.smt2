; metric: CG
; property: monotonic
; reach: all k
; lemma: w>=0
; proves: w(i) >= 0 for every rank i >= 1
; weight: w(i) = 1
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun i () Int)
; hypothesis: i is a rank: i >= 1
(assert (>= i 1))
; query: every denominator of w(i) and w(i + 1) is nonzero
(push 1)
(assert (not true))
(check-sat)
(pop 1)
; query: w(i) >= 0 for every rank i >= 1
(push 1)
(assert (and true (< 1.0 0.0)))
(check-sat)
(pop 1)
