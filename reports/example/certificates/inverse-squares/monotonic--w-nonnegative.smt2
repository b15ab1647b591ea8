; metric: inverse-squares
; property: monotonic
; reach: all k
; lemma: w>=0
; proves: w(i) >= 0 for every rank i >= 1
; weight: w(i) = 1/(i**2 + i)
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun i () Int)
; hypothesis: i is a rank: i >= 1
(assert (>= i 1))
; query: every denominator of w(i) and w(i + 1) is nonzero
(push 1)
(assert (let ((a!1 (distinct (+ (to_real i) (* (to_real i) (to_real i))) 0.0))
      (a!2 (+ 1.0 (to_real i) (* (+ 1.0 (to_real i)) (+ 1.0 (to_real i))))))
  (not (and a!1 (distinct a!2 0.0)))))
(check-sat)
(pop 1)
; query: w(i) >= 0 for every rank i >= 1
(push 1)
(assert (let ((a!1 (distinct (+ (to_real i) (* (to_real i) (to_real i))) 0.0))
      (a!2 (+ 1.0 (to_real i) (* (+ 1.0 (to_real i)) (+ 1.0 (to_real i)))))
      (a!3 (/ 1.0 (+ (to_real i) (* (to_real i) (to_real i))))))
  (and a!1 (distinct a!2 0.0) (< a!3 0.0))))
(check-sat)
(pop 1)
