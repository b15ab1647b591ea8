; metric: NDCG-exp(gmax=2)
; property: top_weighted
; reach: all k
; lemma: swap
; form: score = sum_{i<=k} w(i) * f(r_i) / N, w(i) = 1/log2(i + 1), the gain f(x) = 2**(2*x)/3 - 1/3, N = sum_{j<=k} 1/log2(j + 1) * f(g_j), the qrel grades g_1 >= g_2 >= ... (0 beyond R)
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
