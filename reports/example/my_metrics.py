"""The README's example proposal: a weighted-precision metric with weights 1 / (i (i + 1)), declared so that irprops can
prove what holds for every k. Its report, beside NDCG and RBP, is this folder:

    irprops check reports/example/my_metrics.py:inverse_squares --budget 600 --report reports/example --compare-with NDCG,RBP
"""

from irprops import weighted_precision

inverse_squares = weighted_precision("inverse-squares", lambda i: 1 / (i * (i + 1)))
