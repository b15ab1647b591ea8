; metric: Success
; property: bounded
; reach: all k
; lemma: induction
; fold: for i = 1..k: H1 := Max(H1, x) (from 0); N_rel := N_rel + x (from 0); score = H1
; proves: every run keeps the invariant, which with n = U and relevant seen <= R gives 0 <= score <= 1
; invariant: n = 0 -> H1 = 0 and H1 >= 0 and H1 <= 1 and H1 <= n and H1 in {0, 1} and n = 0 -> N_rel = 0 and N_rel >= 0 and N_rel <= n and H1 <= N_rel
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun A.H1 () Real)
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
                    (<= 0.0 1.0)
                    (<= 0.0 (to_real 0))
                    (or (= 0.0 0.0) (= 0.0 1.0))
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (<= 0.0 0.0)))))
  (not a!1)))
(check-sat)
(pop 1)
; query: step: one more rank preserves the invariant
(push 1)
(assert (let ((a!1 (= 0.0 (ite (>= A.H1 (to_real x)) A.H1 (to_real x))))
      (a!2 (>= (ite (>= A.H1 (to_real x)) A.H1 (to_real x)) 0.0))
      (a!3 (<= (ite (>= A.H1 (to_real x)) A.H1 (to_real x)) 1.0))
      (a!4 (<= (ite (>= A.H1 (to_real x)) A.H1 (to_real x)) (to_real (+ n 1))))
      (a!5 (= (ite (>= A.H1 (to_real x)) A.H1 (to_real x)) 0.0))
      (a!6 (= (ite (>= A.H1 (to_real x)) A.H1 (to_real x)) 1.0))
      (a!7 (=> (= (+ n 1) 0) (= 0.0 (+ A.N_rel (to_real x)))))
      (a!8 (<= (ite (>= A.H1 (to_real x)) A.H1 (to_real x))
               (+ A.N_rel (to_real x)))))
(let ((a!9 (and (=> (= (+ n 1) 0) a!1)
                a!2
                a!3
                a!4
                (or a!5 a!6)
                a!7
                (>= (+ A.N_rel (to_real x)) 0.0)
                (<= (+ A.N_rel (to_real x)) (to_real (+ n 1)))
                a!8)))
(let ((a!10 (=> (and (>= n 0)
                     (=> (= n 0) (= 0.0 A.H1))
                     (>= A.H1 0.0)
                     (<= A.H1 1.0)
                     (<= A.H1 (to_real n))
                     (or (= A.H1 0.0) (= A.H1 1.0))
                     (=> (= n 0) (= 0.0 A.N_rel))
                     (>= A.N_rel 0.0)
                     (<= A.N_rel (to_real n))
                     (<= A.H1 A.N_rel)
                     (or (= x 0) (= x 1)))
                a!9)))
  (not a!10)))))
(check-sat)
(pop 1)
; query: conclusion: 0 <= score <= 1
(push 1)
; hypothesis: invariant
(assert (and (=> (= n 0) (= 0.0 A.H1))
     (>= A.H1 0.0)
     (<= A.H1 1.0)
     (<= A.H1 (to_real n))
     (or (= A.H1 0.0) (= A.H1 1.0))
     (=> (= n 0) (= 0.0 A.N_rel))
     (>= A.N_rel 0.0)
     (<= A.N_rel (to_real n))
     (<= A.H1 A.N_rel)))
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
(assert true)
(assert (or (< A.H1 0.0) (> A.H1 1.0)))
(check-sat)
(pop 1)
