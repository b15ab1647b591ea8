; metric: any metric (an abstract score S and definedness D on six situations)
; property: the conflict between the properties (Moffat 2013, Section 4)
; reach: every metric
; lemma: conflict
; proves: no metric defined whenever a relevant document exists is monotonic, convergent, localized and realizable
; every (check-sat) below must answer unsat
(set-logic ALL)
(declare-fun D_011@1 () Bool)
(declare-fun D_011@2 () Bool)
(declare-fun D_101@1 () Bool)
(declare-fun D_101@2 () Bool)
(declare-fun D_110@1 () Bool)
(declare-fun D_110@2 () Bool)
(declare-fun M () Real)
(declare-fun S_011@1 () Real)
(declare-fun S_011@2 () Real)
(declare-fun S_101@1 () Real)
(declare-fun S_101@2 () Real)
(declare-fun S_110@1 () Real)
(declare-fun S_110@2 () Real)
; hypothesis: M bounds every defined score
(assert (and (=> D_011@1 (<= S_011@1 M))
     (=> D_011@2 (<= S_011@2 M))
     (=> D_101@1 (<= S_101@1 M))
     (=> D_101@2 (<= S_101@2 M))
     (=> D_110@1 (<= S_110@1 M))
     (=> D_110@2 (<= S_110@2 M))))
; hypothesis: realizable at depth 1
(assert (or (and D_011@1 (= S_011@1 M))
    (and D_101@1 (= S_101@1 M))
    (and D_110@1 (= S_110@1 M))))
; hypothesis: monotonic
(assert (and (=> (and D_011@1 D_011@2) (>= S_011@2 S_011@1))
     (=> (and D_101@1 D_101@2) (>= S_101@2 S_101@1))
     (=> (and D_110@1 D_110@2) (>= S_110@2 S_110@1))))
; hypothesis: convergent
(assert (and (=> (and D_011@1 D_101@1) (> S_101@1 S_011@1))
     (=> (and D_011@1 D_110@1) (> S_110@1 S_011@1))
     (=> (and D_011@2 D_110@2) (> S_110@2 S_011@2))
     (=> (and D_101@2 D_110@2) (> S_110@2 S_101@2))))
; hypothesis: localized
(assert (and (= D_101@1 D_110@1) (=> D_101@1 (= S_101@1 S_110@1))))
; hypothesis: defined whenever the collection holds a relevant document
(assert (and D_011@1 D_011@2 D_101@1 D_101@2 D_110@1 D_110@2))
; query: the four properties together
(push 1)
(assert true)
(check-sat)
(pop 1)
