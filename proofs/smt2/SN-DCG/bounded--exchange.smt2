; metric: SN-DCG
; property: bounded
; reach: all k
; lemma: exchange
; form: score = sum_{i<=k} w(i) * r_i / N, w(i) = 1/log2(i + 1), N = sum_{j<=k} 1/log2(j + 1) * s_j, the top-k grades sorted s_1 >= s_2 >= ...
; proves: w_a y + w_b x >= w_a x + w_b y
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun v () Real)
(declare-fun w () Real)
(declare-fun x () Real)
(declare-fun y () Real)
; hypothesis: x < y
(assert (< x y))
; hypothesis: w_a >= w_b
(assert (>= w v))
; query: w_a y + w_b x >= w_a x + w_b y
(push 1)
(assert (< (+ (* w y) (* v x)) (+ (* w x) (* v y))))
(check-sat)
(pop 1)
