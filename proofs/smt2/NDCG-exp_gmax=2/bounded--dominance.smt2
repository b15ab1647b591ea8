; metric: NDCG-exp(gmax=2)
; property: bounded
; reach: all k
; lemma: dominance
; form: score = sum_{i<=k} w(i) * f(r_i) / N, w(i) = 1/log2(i + 1), the gain f(x) = 2**(2*x)/3 - 1/3, N = sum_{j<=k} 1/log2(j + 1) * f(g_j), the qrel grades g_1 >= g_2 >= ... (0 beyond R)
; proves: w lo <= w g
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun g () Real)
(declare-fun lo () Real)
(declare-fun w () Real)
; hypothesis: lo <= g
(assert (<= lo g))
; hypothesis: w >= 0
(assert (>= w 0.0))
; query: w lo <= w g
(push 1)
(assert (> (* w lo) (* w g)))
(check-sat)
(pop 1)
