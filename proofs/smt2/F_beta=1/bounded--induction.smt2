; metric: F(beta=1)
; property: bounded
; reach: all k
; lemma: induction
; fold: for i = 1..k: A1 := A1 + x (from 0); N_rel := N_rel + x (from 0); score = 2*A1/(R + k)
; proves: every run keeps the invariant, which with n = U and relevant seen <= R gives 0 <= score <= 1
; invariant: n = 0 -> A1 = 0 and A1 >= 0 and A1 <= n and n = 0 -> N_rel = 0 and N_rel >= 0 and N_rel <= n and A1 <= N_rel and N_rel <= A1
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun A.A1 () Real)
(declare-fun A.N_rel () Real)
(declare-fun R () Int)
(declare-fun k () Int)
(declare-fun n () Int)
(declare-fun x () Int)
; query: base: the invariant holds at the start
(push 1)
(assert (let ((a!1 (=> true
               (and (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (<= 0.0 0.0)
                    (<= 0.0 0.0)))))
  (not a!1)))
(check-sat)
(pop 1)
; query: step: one more rank preserves the invariant
(push 1)
(assert (let ((a!1 (=> (= (+ n 1) 0) (= 0.0 (+ A.A1 (to_real x)))))
      (a!2 (=> (= (+ n 1) 0) (= 0.0 (+ A.N_rel (to_real x))))))
(let ((a!3 (and a!1
                (>= (+ A.A1 (to_real x)) 0.0)
                (<= (+ A.A1 (to_real x)) (to_real (+ n 1)))
                a!2
                (>= (+ A.N_rel (to_real x)) 0.0)
                (<= (+ A.N_rel (to_real x)) (to_real (+ n 1)))
                (<= (+ A.A1 (to_real x)) (+ A.N_rel (to_real x)))
                (<= (+ A.N_rel (to_real x)) (+ A.A1 (to_real x))))))
(let ((a!4 (=> (and (>= n 0)
                    (=> (= n 0) (= 0.0 A.A1))
                    (>= A.A1 0.0)
                    (<= A.A1 (to_real n))
                    (=> (= n 0) (= 0.0 A.N_rel))
                    (>= A.N_rel 0.0)
                    (<= A.N_rel (to_real n))
                    (<= A.A1 A.N_rel)
                    (<= A.N_rel A.A1)
                    (or (= x 0) (= x 1)))
               a!3)))
  (not a!4)))))
(check-sat)
(pop 1)
; query: conclusion: 0 <= score <= 1
(push 1)
; hypothesis: invariant
(assert (and (=> (= n 0) (= 0.0 A.A1))
     (>= A.A1 0.0)
     (<= A.A1 (to_real n))
     (=> (= n 0) (= 0.0 A.N_rel))
     (>= A.N_rel 0.0)
     (<= A.N_rel (to_real n))
     (<= A.A1 A.N_rel)
     (<= A.N_rel A.A1)))
; hypothesis: n >= 0
(assert (>= n 0))
; hypothesis: relevant seen <= R
(assert (<= A.N_rel (to_real R)))
; hypothesis: k >= 1
(assert (>= k 1))
; hypothesis: R >= 0
(assert (>= R 0))
; hypothesis: n = U
(assert (= n k))
; hypothesis: defined
(assert (and (distinct (+ (to_real R) (to_real k)) 0.0)))
(assert (let ((a!1 (* 2.0 A.A1 (/ 1.0 (+ (to_real R) (to_real k))))))
  (or (< a!1 0.0) (> a!1 1.0))))
(check-sat)
(pop 1)
