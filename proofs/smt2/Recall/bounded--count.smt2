; metric: Recall
; property: bounded
; reach: all k
; lemma: count
; form: score = sum_{i<=k} w(i) * b_i / N, w(i) = 1, N = R
; proves: w x <= x
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun w () Real)
(declare-fun x () Real)
; hypothesis: x in [0, 1]
(assert (and (>= x 0.0) (<= x 1.0)))
; hypothesis: 0 <= w <= 1
(assert (and (>= w 0.0) (<= w 1.0)))
; query: w x <= x
(push 1)
(assert (> (* w x) x))
(check-sat)
(pop 1)
