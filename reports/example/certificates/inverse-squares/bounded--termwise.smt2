; metric: inverse-squares
; property: bounded
; reach: all k
; lemma: termwise
; form: score = sum_{i<=k} w(i) * r_i / N, w(i) = 1/(i**2 + i), N = 1
; proves: 0 <= w x <= w
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun w () Real)
(declare-fun x () Real)
; hypothesis: x in [0, 1]
(assert (and (>= x 0.0) (<= x 1.0)))
; hypothesis: w >= 0
(assert (>= w 0.0))
; query: 0 <= w x <= w
(push 1)
(assert (or (< (* w x) 0.0) (> (* w x) w)))
(check-sat)
(pop 1)
