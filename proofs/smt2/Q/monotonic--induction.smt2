; metric: Q(beta=1)
; property: monotonic
; reach: all k
; lemma: induction
; fold: for i = 1..k: N_ideal := G + N_ideal (from 0); N_rel := N_rel + x (from 0); N_pos := N_pos + Relevant(x) (from 0); A4 := A4 + (beta*(N_rel + x) + N_pos + Relevant(x))*Relevant(x)/(beta*(G + N_ideal) + i) (from 0); score = A4/R
; proves: every run keeps the invariant, under which one more rank never lowers the score
; invariant: n = 0 -> N_ideal = 0 and N_ideal >= 0 and N_ideal <= n and n = 0 -> N_rel = 0 and N_rel >= 0 and N_rel <= n and n = 0 -> N_pos = 0 and N_pos >= 0 and N_pos <= n and n = 0 -> A4 = 0 and A4 >= 0 and A4 <= n and N_rel <= N_ideal and N_rel <= N_pos and A4 <= N_pos
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun A.A4 () Real)
(declare-fun A.N_ideal () Real)
(declare-fun A.N_pos () Real)
(declare-fun A.N_rel () Real)
(declare-fun |G[(+ n 1)]| () Real)
(declare-fun R () Int)
(declare-fun beta () Real)
(declare-fun k () Int)
(declare-fun k1 () Int)
(declare-fun n () Int)
(declare-fun x () Real)
; query: base: the invariant holds at the start
(push 1)
(assert (let ((a!1 (=> true
               (and (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (=> (= 0 0) (= 0.0 0.0))
                    (>= 0.0 0.0)
                    (<= 0.0 (to_real 0))
                    (<= 0.0 0.0)
                    (<= 0.0 0.0)
                    (<= 0.0 0.0)))))
  (not a!1)))
(check-sat)
(pop 1)
; query: step: one more rank preserves the invariant
(push 1)
(assert (let ((a!1 (+ (to_real (+ n 1)) (* (+ |G[(+ n 1)]| A.N_ideal) beta)))
      (a!2 (<= (+ A.N_pos (ite (> x 0.0) 1.0 0.0)) (to_real R)))
      (a!4 (= 0.0 (+ A.N_pos (ite (> x 0.0) 1.0 0.0))))
      (a!5 (>= (+ A.N_pos (ite (> x 0.0) 1.0 0.0)) 0.0))
      (a!6 (<= (+ A.N_pos (ite (> x 0.0) 1.0 0.0)) (to_real (+ n 1))))
      (a!8 (<= (+ A.N_rel x) (+ A.N_pos (ite (> x 0.0) 1.0 0.0)))))
(let ((a!3 (and (>= n 0)
                (=> (= n 0) (= 0.0 A.N_ideal))
                (>= A.N_ideal 0.0)
                (<= A.N_ideal (to_real n))
                (=> (= n 0) (= 0.0 A.N_rel))
                (>= A.N_rel 0.0)
                (<= A.N_rel (to_real n))
                (=> (= n 0) (= 0.0 A.N_pos))
                (>= A.N_pos 0.0)
                (<= A.N_pos (to_real n))
                (=> (= n 0) (= 0.0 A.A4))
                (>= A.A4 0.0)
                (<= A.A4 (to_real n))
                (<= A.N_rel A.N_ideal)
                (<= A.N_rel A.N_pos)
                (<= A.A4 A.N_pos)
                (>= x 0.0)
                (<= x 1.0)
                (distinct a!1 0.0)
                (>= |G[(+ n 1)]| 0.0)
                (<= |G[(+ n 1)]| 1.0)
                (=> (<= (+ n 1) R) (> |G[(+ n 1)]| 0.0))
                (=> (> (+ n 1) R) (= |G[(+ n 1)]| 0.0))
                (>= R 0)
                (<= (+ A.N_rel x) (to_real R))
                a!2
                (<= (+ A.N_rel x) (+ |G[(+ n 1)]| A.N_ideal))
                (> beta 0.0)))
      (a!7 (* (/ 1.0 a!1)
              (+ A.N_pos (* (+ A.N_rel x) beta) (ite (> x 0.0) 1.0 0.0))
              (ite (> x 0.0) 1.0 0.0))))
(let ((a!9 (<= (+ A.A4 a!7) (+ A.N_pos (ite (> x 0.0) 1.0 0.0)))))
(let ((a!10 (and (=> (= (+ n 1) 0) (= 0.0 (+ |G[(+ n 1)]| A.N_ideal)))
                 (>= (+ |G[(+ n 1)]| A.N_ideal) 0.0)
                 (<= (+ |G[(+ n 1)]| A.N_ideal) (to_real (+ n 1)))
                 (=> (= (+ n 1) 0) (= 0.0 (+ A.N_rel x)))
                 (>= (+ A.N_rel x) 0.0)
                 (<= (+ A.N_rel x) (to_real (+ n 1)))
                 (=> (= (+ n 1) 0) a!4)
                 a!5
                 a!6
                 (=> (= (+ n 1) 0) (= 0.0 (+ A.A4 a!7)))
                 (>= (+ A.A4 a!7) 0.0)
                 (<= (+ A.A4 a!7) (to_real (+ n 1)))
                 (<= (+ A.N_rel x) (+ |G[(+ n 1)]| A.N_ideal))
                 a!8
                 a!9)))
  (not (=> a!3 a!10)))))))
(check-sat)
(pop 1)
; query: conclusion: the score at k + 1 is at least the score at k
(push 1)
; hypothesis: invariant
(assert (and (=> (= n 0) (= 0.0 A.N_ideal))
     (>= A.N_ideal 0.0)
     (<= A.N_ideal (to_real n))
     (=> (= n 0) (= 0.0 A.N_rel))
     (>= A.N_rel 0.0)
     (<= A.N_rel (to_real n))
     (=> (= n 0) (= 0.0 A.N_pos))
     (>= A.N_pos 0.0)
     (<= A.N_pos (to_real n))
     (=> (= n 0) (= 0.0 A.A4))
     (>= A.A4 0.0)
     (<= A.A4 (to_real n))
     (<= A.N_rel A.N_ideal)
     (<= A.N_rel A.N_pos)
     (<= A.A4 A.N_pos)))
; hypothesis: n >= 1
(assert (>= n 1))
; hypothesis: grade
(assert (and (>= x 0.0) (<= x 1.0)))
; hypothesis: step defined
(assert (let ((a!1 (distinct (+ (to_real (+ n 1)) (* (+ |G[(+ n 1)]| A.N_ideal) beta))
                     0.0))
      (a!2 (<= (+ A.N_pos (ite (> x 0.0) 1.0 0.0)) (to_real R))))
  (and a!1
       (>= |G[(+ n 1)]| 0.0)
       (<= |G[(+ n 1)]| 1.0)
       (=> (<= (+ n 1) R) (> |G[(+ n 1)]| 0.0))
       (=> (> (+ n 1) R) (= |G[(+ n 1)]| 0.0))
       (>= R 0)
       (<= (+ A.N_rel x) (to_real R))
       a!2
       (<= (+ A.N_rel x) (+ |G[(+ n 1)]| A.N_ideal))
       (> beta 0.0))))
; hypothesis: relevant seen by k + 1 <= R
(assert (<= (+ A.N_rel x) (to_real R)))
; hypothesis: relevant documents seen by k + 1 <= R
(assert (<= (+ A.N_pos (ite (> x 0.0) 1.0 0.0)) (to_real R)))
; hypothesis: grades seen by k + 1 <= ideal grades of as many ranks
(assert (<= (+ A.N_rel x) (+ |G[(+ n 1)]| A.N_ideal)))
; hypothesis: k >= 1
(assert (>= k 1))
; hypothesis: R >= 0
(assert (>= R 0))
; hypothesis: n = U
(assert (= n k))
; hypothesis: defined
(assert (and (distinct (to_real R) 0.0)))
; hypothesis: beta > 0
(assert (> beta 0.0))
; hypothesis: k >= 1 at k + 1
(assert (>= k1 1))
; hypothesis: R >= 0 at k + 1
(assert (>= R 0))
; hypothesis: n = U at k + 1
(assert (= (+ n 1) k1))
; hypothesis: defined at k + 1
(assert (and (distinct (to_real R) 0.0)))
; hypothesis: beta > 0 at k + 1
(assert (> beta 0.0))
(assert (let ((a!1 (/ 1.0 (+ (to_real (+ n 1)) (* (+ |G[(+ n 1)]| A.N_ideal) beta)))))
(let ((a!2 (* a!1
              (+ A.N_pos (* (+ A.N_rel x) beta) (ite (> x 0.0) 1.0 0.0))
              (ite (> x 0.0) 1.0 0.0))))
  (< (* (+ A.A4 a!2) (/ 1.0 (to_real R))) (* A.A4 (/ 1.0 (to_real R)))))))
(check-sat)
(pop 1)
