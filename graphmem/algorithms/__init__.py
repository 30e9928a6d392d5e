"""Consolidation algorithms as plain functions over plain data; none opens a store.

``Memory`` projects a user's cards (``CardView`` rows plus an embedding matrix), calls
these, and writes the decisions back: conflicts (supersede / conflict), clustering
(abstractions), forgetting and feedback.
"""

from graphmem.algorithms.cardview import CardView
from graphmem.algorithms.clustering import (
    abstraction_id,
    clusters,
    incremental_assign,
    match_clusters,
    medoid,
    similarity_graph,
    summarize_extractive,
    summarize_with_llm,
)
from graphmem.algorithms.conflicts import (
    Conflict,
    Supersede,
    adjudicate_with_llm,
    attribute_of,
    candidate_pairs,
    detect_conflicts,
    knn_within_person,
    resolve,
)
from graphmem.algorithms.feedback import FeedbackUpdate, apply_feedback
from graphmem.algorithms.forgetting import (
    ForgetDecision,
    ForgetParams,
    forget_probability,
    forget_reasons,
    select_forgettable,
)

__all__ = [
    "CardView",
    "Conflict",
    "FeedbackUpdate",
    "ForgetDecision",
    "ForgetParams",
    "Supersede",
    "abstraction_id",
    "adjudicate_with_llm",
    "apply_feedback",
    "attribute_of",
    "candidate_pairs",
    "clusters",
    "detect_conflicts",
    "forget_probability",
    "forget_reasons",
    "incremental_assign",
    "knn_within_person",
    "match_clusters",
    "medoid",
    "resolve",
    "select_forgettable",
    "similarity_graph",
    "summarize_extractive",
    "summarize_with_llm",
]
