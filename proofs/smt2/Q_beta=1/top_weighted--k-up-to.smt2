; metric: Q(beta=1)
; property: top_weighted
; reach: k <= 3
; lemma: bounded
; proves: for every k <= 3 and beta = 1, the negation of top_weighted has no model (one query per depth and rank or pair of ranks)
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun R () Int)
(declare-fun g_1 () Real)
(declare-fun g_2 () Real)
(declare-fun g_3 () Real)
(declare-fun r_1 () Real)
(declare-fun r_2 () Real)
(declare-fun r_3 () Real)
; query: k = 2, ranks 1 < 2: the swap raises the score
(push 1)
; hypothesis: grades in [0, 1]
(assert (and (>= r_1 0.0) (<= r_1 1.0) (>= r_2 0.0) (<= r_2 1.0)))
; hypothesis: R >= number of relevant documents
(assert (>= R (+ (ite (> r_1 0.0) 1 0) (ite (> r_2 0.0) 1 0))))
; hypothesis: qrel grades in (0, 1], decreasing
(assert (and (> g_1 0.0) (<= g_1 1.0) (> g_2 0.0) (<= g_2 1.0) (>= g_1 g_2)))
; hypothesis: grade at 1 < grade at 2
(assert (< r_1 r_2))
; hypothesis: defined
(assert (let ((a!1 (+ 1.0 (ite (<= 1.0 (to_real R)) g_1 0.0)))
      (a!2 (+ 2.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0))))
  (and (distinct (to_real R) 0.0)
       (distinct a!1 0.0)
       (distinct a!2 0.0)
       (distinct (to_real R) 0.0)
       (distinct a!1 0.0)
       (distinct a!2 0.0))))
(assert (let ((a!1 (+ 1.0 (ite (<= 1.0 (to_real R)) g_1 0.0)))
      (a!3 (+ 2.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)))
      (a!4 (+ r_1 r_2 (ite (> r_1 0.0) 1.0 0.0) (ite (> r_2 0.0) 1.0 0.0))))
(let ((a!2 (* (/ 1.0 a!1)
              (+ r_2 (ite (> r_2 0.0) 1.0 0.0))
              (ite (> r_2 0.0) 1.0 0.0)))
      (a!6 (* (/ 1.0 a!1)
              (+ r_1 (ite (> r_1 0.0) 1.0 0.0))
              (ite (> r_1 0.0) 1.0 0.0))))
(let ((a!5 (+ a!2 (* (/ 1.0 a!3) a!4 (ite (> r_1 0.0) 1.0 0.0))))
      (a!7 (+ a!6 (* (/ 1.0 a!3) a!4 (ite (> r_2 0.0) 1.0 0.0)))))
  (<= (* (/ 1.0 (to_real R)) a!5) (* (/ 1.0 (to_real R)) a!7))))))
(check-sat)
(pop 1)
; query: k = 3, ranks 1 < 2: the swap raises the score
(push 1)
; hypothesis: grades in [0, 1]
(assert (and (>= r_1 0.0)
     (<= r_1 1.0)
     (>= r_2 0.0)
     (<= r_2 1.0)
     (>= r_3 0.0)
     (<= r_3 1.0)))
; hypothesis: R >= number of relevant documents
(assert (>= R (+ (ite (> r_1 0.0) 1 0) (ite (> r_2 0.0) 1 0) (ite (> r_3 0.0) 1 0))))
; hypothesis: qrel grades in (0, 1], decreasing
(assert (and (> g_1 0.0)
     (<= g_1 1.0)
     (> g_2 0.0)
     (<= g_2 1.0)
     (> g_3 0.0)
     (<= g_3 1.0)
     (>= g_1 g_2)
     (>= g_2 g_3)))
; hypothesis: grade at 1 < grade at 2
(assert (< r_1 r_2))
; hypothesis: defined
(assert (let ((a!1 (+ 1.0 (ite (<= 1.0 (to_real R)) g_1 0.0)))
      (a!2 (+ 2.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)))
      (a!3 (+ 3.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)
              (ite (<= 3.0 (to_real R)) g_3 0.0))))
  (and (distinct (to_real R) 0.0)
       (distinct a!1 0.0)
       (distinct a!2 0.0)
       (distinct a!3 0.0)
       (distinct (to_real R) 0.0)
       (distinct a!1 0.0)
       (distinct a!2 0.0)
       (distinct a!3 0.0))))
(assert (let ((a!1 (+ 1.0 (ite (<= 1.0 (to_real R)) g_1 0.0)))
      (a!3 (+ 2.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)))
      (a!4 (+ r_1 r_2 (ite (> r_1 0.0) 1.0 0.0) (ite (> r_2 0.0) 1.0 0.0)))
      (a!5 (+ 3.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)
              (ite (<= 3.0 (to_real R)) g_3 0.0))))
(let ((a!2 (* (/ 1.0 a!1)
              (+ r_2 (ite (> r_2 0.0) 1.0 0.0))
              (ite (> r_2 0.0) 1.0 0.0)))
      (a!6 (* (/ 1.0 a!5)
              (+ r_1
                 r_2
                 r_3
                 (ite (> r_1 0.0) 1.0 0.0)
                 (ite (> r_2 0.0) 1.0 0.0)
                 (ite (> r_3 0.0) 1.0 0.0))
              (ite (> r_3 0.0) 1.0 0.0)))
      (a!8 (* (/ 1.0 a!1)
              (+ r_1 (ite (> r_1 0.0) 1.0 0.0))
              (ite (> r_1 0.0) 1.0 0.0))))
(let ((a!7 (+ a!2 (* (/ 1.0 a!3) a!4 (ite (> r_1 0.0) 1.0 0.0)) a!6))
      (a!9 (+ a!8 (* (/ 1.0 a!3) a!4 (ite (> r_2 0.0) 1.0 0.0)) a!6)))
  (<= (* (/ 1.0 (to_real R)) a!7) (* (/ 1.0 (to_real R)) a!9))))))
(check-sat)
(pop 1)
; query: k = 3, ranks 1 < 3: the swap raises the score
(push 1)
; hypothesis: grades in [0, 1]
(assert (and (>= r_1 0.0)
     (<= r_1 1.0)
     (>= r_2 0.0)
     (<= r_2 1.0)
     (>= r_3 0.0)
     (<= r_3 1.0)))
; hypothesis: R >= number of relevant documents
(assert (>= R (+ (ite (> r_1 0.0) 1 0) (ite (> r_2 0.0) 1 0) (ite (> r_3 0.0) 1 0))))
; hypothesis: qrel grades in (0, 1], decreasing
(assert (and (> g_1 0.0)
     (<= g_1 1.0)
     (> g_2 0.0)
     (<= g_2 1.0)
     (> g_3 0.0)
     (<= g_3 1.0)
     (>= g_1 g_2)
     (>= g_2 g_3)))
; hypothesis: grade at 1 < grade at 3
(assert (< r_1 r_3))
; hypothesis: defined
(assert (let ((a!1 (+ 1.0 (ite (<= 1.0 (to_real R)) g_1 0.0)))
      (a!2 (+ 2.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)))
      (a!3 (+ 3.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)
              (ite (<= 3.0 (to_real R)) g_3 0.0))))
  (and (distinct (to_real R) 0.0)
       (distinct a!1 0.0)
       (distinct a!2 0.0)
       (distinct a!3 0.0)
       (distinct (to_real R) 0.0)
       (distinct a!1 0.0)
       (distinct a!2 0.0)
       (distinct a!3 0.0))))
(assert (let ((a!1 (+ 1.0 (ite (<= 1.0 (to_real R)) g_1 0.0)))
      (a!3 (+ 2.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)))
      (a!5 (+ 3.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)
              (ite (<= 3.0 (to_real R)) g_3 0.0)))
      (a!6 (+ r_1
              r_2
              r_3
              (ite (> r_1 0.0) 1.0 0.0)
              (ite (> r_2 0.0) 1.0 0.0)
              (ite (> r_3 0.0) 1.0 0.0))))
(let ((a!2 (* (/ 1.0 a!1)
              (+ r_3 (ite (> r_3 0.0) 1.0 0.0))
              (ite (> r_3 0.0) 1.0 0.0)))
      (a!4 (* (/ 1.0 a!3)
              (+ r_2 r_3 (ite (> r_2 0.0) 1.0 0.0) (ite (> r_3 0.0) 1.0 0.0))
              (ite (> r_2 0.0) 1.0 0.0)))
      (a!8 (* (/ 1.0 a!1)
              (+ r_1 (ite (> r_1 0.0) 1.0 0.0))
              (ite (> r_1 0.0) 1.0 0.0)))
      (a!9 (* (/ 1.0 a!3)
              (+ r_1 r_2 (ite (> r_1 0.0) 1.0 0.0) (ite (> r_2 0.0) 1.0 0.0))
              (ite (> r_2 0.0) 1.0 0.0))))
(let ((a!7 (+ a!2 a!4 (* (/ 1.0 a!5) a!6 (ite (> r_1 0.0) 1.0 0.0))))
      (a!10 (+ a!8 a!9 (* (/ 1.0 a!5) a!6 (ite (> r_3 0.0) 1.0 0.0)))))
  (<= (* (/ 1.0 (to_real R)) a!7) (* (/ 1.0 (to_real R)) a!10))))))
(check-sat)
(pop 1)
; query: k = 3, ranks 2 < 3: the swap raises the score
(push 1)
; hypothesis: grades in [0, 1]
(assert (and (>= r_1 0.0)
     (<= r_1 1.0)
     (>= r_2 0.0)
     (<= r_2 1.0)
     (>= r_3 0.0)
     (<= r_3 1.0)))
; hypothesis: R >= number of relevant documents
(assert (>= R (+ (ite (> r_1 0.0) 1 0) (ite (> r_2 0.0) 1 0) (ite (> r_3 0.0) 1 0))))
; hypothesis: qrel grades in (0, 1], decreasing
(assert (and (> g_1 0.0)
     (<= g_1 1.0)
     (> g_2 0.0)
     (<= g_2 1.0)
     (> g_3 0.0)
     (<= g_3 1.0)
     (>= g_1 g_2)
     (>= g_2 g_3)))
; hypothesis: grade at 2 < grade at 3
(assert (< r_2 r_3))
; hypothesis: defined
(assert (let ((a!1 (+ 1.0 (ite (<= 1.0 (to_real R)) g_1 0.0)))
      (a!2 (+ 2.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)))
      (a!3 (+ 3.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)
              (ite (<= 3.0 (to_real R)) g_3 0.0))))
  (and (distinct (to_real R) 0.0)
       (distinct a!1 0.0)
       (distinct a!2 0.0)
       (distinct a!3 0.0)
       (distinct (to_real R) 0.0)
       (distinct a!1 0.0)
       (distinct a!2 0.0)
       (distinct a!3 0.0))))
(assert (let ((a!1 (+ 1.0 (ite (<= 1.0 (to_real R)) g_1 0.0)))
      (a!3 (+ 2.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)))
      (a!5 (+ 3.0
              (ite (<= 1.0 (to_real R)) g_1 0.0)
              (ite (<= 2.0 (to_real R)) g_2 0.0)
              (ite (<= 3.0 (to_real R)) g_3 0.0)))
      (a!6 (+ r_1
              r_2
              r_3
              (ite (> r_1 0.0) 1.0 0.0)
              (ite (> r_2 0.0) 1.0 0.0)
              (ite (> r_3 0.0) 1.0 0.0))))
(let ((a!2 (* (/ 1.0 a!1)
              (+ r_1 (ite (> r_1 0.0) 1.0 0.0))
              (ite (> r_1 0.0) 1.0 0.0)))
      (a!4 (* (/ 1.0 a!3)
              (+ r_1 r_3 (ite (> r_1 0.0) 1.0 0.0) (ite (> r_3 0.0) 1.0 0.0))
              (ite (> r_3 0.0) 1.0 0.0)))
      (a!8 (* (/ 1.0 a!3)
              (+ r_1 r_2 (ite (> r_1 0.0) 1.0 0.0) (ite (> r_2 0.0) 1.0 0.0))
              (ite (> r_2 0.0) 1.0 0.0))))
(let ((a!7 (+ a!2 a!4 (* (/ 1.0 a!5) a!6 (ite (> r_2 0.0) 1.0 0.0))))
      (a!9 (+ a!2 a!8 (* (/ 1.0 a!5) a!6 (ite (> r_3 0.0) 1.0 0.0)))))
  (<= (* (/ 1.0 (to_real R)) a!7) (* (/ 1.0 (to_real R)) a!9))))))
(check-sat)
(pop 1)
