; metric: ERR
; property: monotonic
; reach: all k
; lemma: induction
; fold: for i = 1..k: Q1 := Q1*(1 - x) (from 1); A2 := A2 + Q1*x/i (from 0); N_rel := N_rel + x (from 0); score = A2
; proves: every run keeps the invariant, under which one more rank never lowers the score
; invariant: n = 0 -> Q1 = 1 and Q1 >= 0 and Q1 <= 1 and n = 0 -> A2 = 0 and A2 >= 0 and A2 <= 1 and A2 <= n and n = 0 -> N_rel = 0 and N_rel >= 0 and N_rel <= n and A2 <= N_rel and Q1 + A2 <= 1
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun A.A2 () Real)
(declare-fun A.N_rel () Real)
(declare-fun A.Q1 () Real)
(declare-fun R () Int)
(declare-fun k () Int)
(declare-fun k1 () Int)
(declare-fun n () Int)
(declare-fun x () Real)
; query: base: the invariant holds at the start
(push 1)
(assert (let ((a!1 (=> true
               (and (=> (= 0 0) (= 1.0 1.0))
                    (>= 1.0 0.0)
                    (<= 1.0 1.0)
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 1.0)
                    (<= 0.0 (to_real 0))
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (<= 0.0 0.0)
                    (<= (+ 1.0 0.0) 1.0)))))
  (not a!1)))
(check-sat)
(pop 1)
; query: step: one more rank preserves the invariant
(push 1)
(assert (let ((a!1 (and (>= n 0)
                (=> (= n 0) (= 1.0 A.Q1))
                (>= A.Q1 0.0)
                (<= A.Q1 1.0)
                (=> (= n 0) (= 0.0 A.A2))
                (>= A.A2 0.0)
                (<= A.A2 1.0)
                (<= A.A2 (to_real n))
                (=> (= n 0) (= 0.0 A.N_rel))
                (>= A.N_rel 0.0)
                (<= A.N_rel (to_real n))
                (<= A.A2 A.N_rel)
                (<= (+ A.Q1 A.A2) 1.0)
                (>= x 0.0)
                (<= x 1.0)
                (distinct (to_real (+ n 1)) 0.0)))
      (a!2 (= 1.0 (* A.Q1 (+ 1.0 (* (- 1.0) x)))))
      (a!3 (>= (* A.Q1 (+ 1.0 (* (- 1.0) x))) 0.0))
      (a!4 (<= (* A.Q1 (+ 1.0 (* (- 1.0) x))) 1.0))
      (a!5 (* A.Q1 x (/ 1.0 (to_real (+ n 1))))))
(let ((a!6 (+ (* A.Q1 (+ 1.0 (* (- 1.0) x))) (+ A.A2 a!5))))
(let ((a!7 (and (=> (= (+ n 1) 0) a!2)
                a!3
                a!4
                (=> (= (+ n 1) 0) (= 0.0 (+ A.A2 a!5)))
                (>= (+ A.A2 a!5) 0.0)
                (<= (+ A.A2 a!5) 1.0)
                (<= (+ A.A2 a!5) (to_real (+ n 1)))
                (=> (= (+ n 1) 0) (= 0.0 (+ A.N_rel x)))
                (>= (+ A.N_rel x) 0.0)
                (<= (+ A.N_rel x) (to_real (+ n 1)))
                (<= (+ A.A2 a!5) (+ A.N_rel x))
                (<= a!6 1.0))))
  (not (=> a!1 a!7))))))
(check-sat)
(pop 1)
; query: conclusion: the score at k + 1 is at least the score at k
(push 1)
; hypothesis: invariant
(assert (and (=> (= n 0) (= 1.0 A.Q1))
     (>= A.Q1 0.0)
     (<= A.Q1 1.0)
     (=> (= n 0) (= 0.0 A.A2))
     (>= A.A2 0.0)
     (<= A.A2 1.0)
     (<= A.A2 (to_real n))
     (=> (= n 0) (= 0.0 A.N_rel))
     (>= A.N_rel 0.0)
     (<= A.N_rel (to_real n))
     (<= A.A2 A.N_rel)
     (<= (+ A.Q1 A.A2) 1.0)))
; hypothesis: n >= 1
(assert (>= n 1))
; hypothesis: grade
(assert (and (>= x 0.0) (<= x 1.0)))
; hypothesis: step defined
(assert (and (distinct (to_real (+ n 1)) 0.0)))
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
(assert (let ((a!1 (* A.Q1 x (/ 1.0 (to_real (+ n 1))))))
  (< (+ A.A2 a!1) A.A2)))
(check-sat)
(pop 1)
