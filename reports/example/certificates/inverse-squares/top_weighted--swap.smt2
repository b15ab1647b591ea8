; metric: inverse-squares
; property: top_weighted
; reach: all k
; lemma: swap
; form: score = sum_{i<=k} w(i) * r_i / N, w(i) = 1/(i**2 + i), N = 1
; proves: s (w_i y + w_j x) > s (w_i x + w_j y)
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun s () Real)
(declare-fun v () Real)
(declare-fun w () Real)
(declare-fun x () Real)
(declare-fun y () Real)
; hypothesis: x < y
(assert (< x y))
; hypothesis: w_i > w_j
(assert (> w v))
; hypothesis: w_j >= 0
(assert (>= v 0.0))
; hypothesis: s = c/N > 0
(assert (> s 0.0))
; query: s (w_i y + w_j x) > s (w_i x + w_j y)
(push 1)
(assert (<= (* s (+ (* w y) (* v x))) (* s (+ (* w x) (* v y)))))
(check-sat)
(pop 1)
