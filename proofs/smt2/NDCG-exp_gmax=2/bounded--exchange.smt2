; metric: NDCG-exp(gmax=2)
; property: bounded
; reach: all k
; lemma: exchange
; form: score = sum_{i<=k} w(i) * f(r_i) / N, w(i) = 1/log2(i + 1), the gain f(x) = 2**(2*x)/3 - 1/3, N = sum_{j<=k} 1/log2(j + 1) * f(g_j), the qrel grades g_1 >= g_2 >= ... (0 beyond R)
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
