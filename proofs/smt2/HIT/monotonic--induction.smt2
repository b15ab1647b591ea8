; metric: HIT
; property: monotonic
; reach: all k
; lemma: induction
; fold: for i = 1..k: H1 := Max(H1, x) (from 0); N_rel := N_rel + x (from 0); score = H1
; proves: every run keeps the invariant, under which one more rank never lowers the score
; invariant: n = 0 -> H1 = 0 and H1 >= 0 and H1 <= 1 and H1 <= n and n = 0 -> N_rel = 0 and N_rel >= 0 and N_rel <= n and H1 <= N_rel
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun A.H1 () Real)
(declare-fun A.N_rel () Real)
(declare-fun R () Int)
(declare-fun k () Int)
(declare-fun k1 () Int)
(declare-fun n () Int)
(declare-fun x () Real)
; query: base: the invariant holds at the start
(push 1)
(assert (let ((a!1 (=> true
               (and (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 1.0)
                    (<= 0.0 (to_real 0))
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (<= 0.0 0.0)))))
  (not a!1)))
(check-sat)
(pop 1)
; query: step: one more rank preserves the invariant
(push 1)
(assert (let ((a!1 (=> (= (+ n 1) 0) (= 0.0 (ite (>= A.H1 x) A.H1 x)))))
(let ((a!2 (and a!1
                (>= (ite (>= A.H1 x) A.H1 x) 0.0)
                (<= (ite (>= A.H1 x) A.H1 x) 1.0)
                (<= (ite (>= A.H1 x) A.H1 x) (to_real (+ n 1)))
                (=> (= (+ n 1) 0) (= 0.0 (+ A.N_rel x)))
                (>= (+ A.N_rel x) 0.0)
                (<= (+ A.N_rel x) (to_real (+ n 1)))
                (<= (ite (>= A.H1 x) A.H1 x) (+ A.N_rel x)))))
(let ((a!3 (=> (and (>= n 0)
                    (=> (= n 0) (= 0.0 A.H1))
                    (>= A.H1 0.0)
                    (<= A.H1 1.0)
                    (<= A.H1 (to_real n))
                    (=> (= n 0) (= 0.0 A.N_rel))
                    (>= A.N_rel 0.0)
                    (<= A.N_rel (to_real n))
                    (<= A.H1 A.N_rel)
                    (>= x 0.0)
                    (<= x 1.0))
               a!2)))
  (not a!3)))))
(check-sat)
(pop 1)
; query: conclusion: the score at k + 1 is at least the score at k
(push 1)
; hypothesis: invariant
(assert (and (=> (= n 0) (= 0.0 A.H1))
     (>= A.H1 0.0)
     (<= A.H1 1.0)
     (<= A.H1 (to_real n))
     (=> (= n 0) (= 0.0 A.N_rel))
     (>= A.N_rel 0.0)
     (<= A.N_rel (to_real n))
     (<= A.H1 A.N_rel)))
; hypothesis: n >= 1
(assert (>= n 1))
; hypothesis: grade
(assert (and (>= x 0.0) (<= x 1.0)))
; hypothesis: step defined
(assert true)
; hypothesis: relevant seen by k + 1 <= R
(assert (<= (+ A.N_rel x) (to_real R)))
; hypothesis: k >= 1
(assert (>= k 1))
; hypothesis: R >= 0
(assert (>= R 0))
; hypothesis: n = U
(assert (= n k))
; hypothesis: defined
(assert true)
; hypothesis: k >= 1 at k + 1
(assert (>= k1 1))
; hypothesis: R >= 0 at k + 1
(assert (>= R 0))
; hypothesis: n = U at k + 1
(assert (= (+ n 1) k1))
; hypothesis: defined at k + 1
(assert true)
(assert (< (ite (>= A.H1 x) A.H1 x) A.H1))
(check-sat)
(pop 1)
