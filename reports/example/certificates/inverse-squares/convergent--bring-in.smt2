; metric: inverse-squares
; property: convergent
; reach: all k
; lemma: bring-in
; form: score = sum_{i<=k} w(i) * r_i / N, w(i) = 1/(i**2 + i), N = 1
; proves: s w y > s w x
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun s () Real)
(declare-fun w () Real)
(declare-fun x () Real)
(declare-fun y () Real)
; hypothesis: x < y
(assert (< x y))
; hypothesis: w > 0
(assert (> w 0.0))
; hypothesis: s = c/N > 0
(assert (> s 0.0))
; query: s w y > s w x
(push 1)
(assert (<= (* (* s w) y) (* (* s w) x)))
(check-sat)
(pop 1)
