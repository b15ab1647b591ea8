; metric: inverse-squares
; property: monotonic
; reach: all k
; lemma: extension
; form: score = sum_{i<=k} w(i) * r_i / N, w(i) = 1/(i**2 + i), N = 1
; proves: s (S + w x) >= s S
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun s () Real)
(declare-fun w () Real)
(declare-fun x () Real)
; hypothesis: x in [0, 1]
(assert (and (>= x 0.0) (<= x 1.0)))
; hypothesis: w >= 0
(assert (>= w 0.0))
; hypothesis: s = c/N > 0
(assert (> s 0.0))
; query: s (S + w x) >= s S
(push 1)
(assert (< (* s w x) 0.0))
(check-sat)
(pop 1)
