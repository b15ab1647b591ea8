; metric: Success
; property: realizable
; reach: all k
; lemma: ideal
; fold: for i = 1..k: H1 := Max(H1, x) (from 0); N_rel := N_rel + x (from 0); score = H1
; proves: the ideal ranking (relevant documents first) keeps the invariant, each of its steps is defined, which gives a defined score of 1 at every k and R >= 1; with the bound 1 below, 1 is the supremum and it is reached
; invariant: n = 0 -> H1 = 0 and H1 >= 0 and H1 <= 1 and H1 <= n and H1 in {0, 1} and n >= 1 -> H1 = 1 and n >= 1 -> H1 >= 1 and n = 0 -> N_rel = 0 and N_rel >= 0 and N_rel <= n and n >= 1 -> N_rel >= 1 and N_rel = min(n, R) and H1 <= N_rel
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun A.H1 () Real)
(declare-fun A.N_rel () Real)
(declare-fun R () Int)
(declare-fun k () Int)
(declare-fun n () Int)
; query: base: the invariant holds at the start
(push 1)
(assert (let ((a!1 (= 0.0 (to_real (ite (<= 0 R) 0 R)))))
(let ((a!2 (=> (and (>= R 1))
               (and (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 1.0)
                    (<= 0.0 (to_real 0))
                    (or (= 0.0 0.0) (= 0.0 1.0))
                    (=> (>= 0 1) (= 0.0 1.0))
                    (=> (>= 0 1) (>= 0.0 1.0))
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (=> (>= 0 1) (>= 0.0 1.0))
                    a!1
                    (<= 0.0 0.0)))))
  (not a!2))))
(check-sat)
(pop 1)
; query: step: one more rank preserves the invariant
(push 1)
(assert (let ((a!1 (= A.N_rel (to_real (ite (<= n R) n R))))
      (a!2 (to_real (ite (<= (+ n 1) R) 1 0)))
      (a!7 (to_real (ite (<= (+ n 1) R) (+ n 1) R))))
(let ((a!3 (=> (= (+ n 1) 0) (= 0.0 (ite (>= A.H1 a!2) A.H1 a!2))))
      (a!4 (or (= (ite (>= A.H1 a!2) A.H1 a!2) 0.0)
               (= (ite (>= A.H1 a!2) A.H1 a!2) 1.0)))
      (a!5 (=> (>= (+ n 1) 1) (= (ite (>= A.H1 a!2) A.H1 a!2) 1.0)))
      (a!6 (=> (>= (+ n 1) 1) (>= (ite (>= A.H1 a!2) A.H1 a!2) 1.0))))
(let ((a!8 (and a!3
                (>= (ite (>= A.H1 a!2) A.H1 a!2) 0.0)
                (<= (ite (>= A.H1 a!2) A.H1 a!2) 1.0)
                (<= (ite (>= A.H1 a!2) A.H1 a!2) (to_real (+ n 1)))
                a!4
                a!5
                a!6
                (=> (= (+ n 1) 0) (= 0.0 (+ A.N_rel a!2)))
                (>= (+ A.N_rel a!2) 0.0)
                (<= (+ A.N_rel a!2) (to_real (+ n 1)))
                (=> (>= (+ n 1) 1) (>= (+ A.N_rel a!2) 1.0))
                (= (+ A.N_rel a!2) a!7)
                (<= (ite (>= A.H1 a!2) A.H1 a!2) (+ A.N_rel a!2)))))
(let ((a!9 (=> (and (>= n 0)
                    (=> (= n 0) (= 0.0 A.H1))
                    (>= A.H1 0.0)
                    (<= A.H1 1.0)
                    (<= A.H1 (to_real n))
                    (or (= A.H1 0.0) (= A.H1 1.0))
                    (=> (>= n 1) (= A.H1 1.0))
                    (=> (>= n 1) (>= A.H1 1.0))
                    (=> (= n 0) (= 0.0 A.N_rel))
                    (>= A.N_rel 0.0)
                    (<= A.N_rel (to_real n))
                    (=> (>= n 1) (>= A.N_rel 1.0))
                    a!1
                    (<= A.H1 A.N_rel)
                    (>= R 1))
               a!8)))
  (not a!9))))))
(check-sat)
(pop 1)
; query: conclusion: the ideal ranking is defined and scores 1
(push 1)
; hypothesis: ideal invariant
(assert (let ((a!1 (= A.N_rel (to_real (ite (<= n R) n R)))))
  (and (=> (= n 0) (= 0.0 A.H1))
       (>= A.H1 0.0)
       (<= A.H1 1.0)
       (<= A.H1 (to_real n))
       (or (= A.H1 0.0) (= A.H1 1.0))
       (=> (>= n 1) (= A.H1 1.0))
       (=> (>= n 1) (>= A.H1 1.0))
       (=> (= n 0) (= 0.0 A.N_rel))
       (>= A.N_rel 0.0)
       (<= A.N_rel (to_real n))
       (=> (>= n 1) (>= A.N_rel 1.0))
       a!1
       (<= A.H1 A.N_rel))))
; hypothesis: n >= 0
(assert (>= n 0))
; hypothesis: R >= 1
(assert (>= R 1))
; hypothesis: k >= 1
(assert (>= k 1))
; hypothesis: R >= 0
(assert (>= R 0))
; hypothesis: n = U
(assert (= n k))
(assert (or (distinct A.H1 1.0) (not (and true))))
(check-sat)
(pop 1)
