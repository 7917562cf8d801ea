"""Settling rule disputes: was an action legal at a position, and by which rule?

Everything here works through the generic :class:`~engine.ruleset.Ruleset` API, so every
ruleset, present and future, is served the same way:

* **Proposed actions** are read from JSON in the record's own event vocabulary (``seq`` is
  filled in, ``hash`` dropped) or from a short notation, ``TYPE [VALUE ...] [field=value
  ...]`` (see :func:`read_action`).
* A **verdict** at a position says legal (with the effects that would follow) or illegal
  with the rule id, its paraphrase and source, the violation's message, the facts the rule
  looked at and a few public facts of the position (:func:`judge`).
* **Legal actions** of any seat at any position (:func:`legal_at`).
* **Explain** a recorded event: the rules it answers to, each effect with its rule, and a
  readable diff of the referee's view before and after (:func:`explain_step`).
* **Re-run** a game under other header options and find the first seq where a verdict or
  an effect differs, and how the outcome differs (:func:`rerun`).
* **What-if branches**: the parent's events up to a seq, alternative events, and where the
  parent's recorded continuation stops being legal on the branch (:func:`plan_branch`).
* **Claims**: consequences a record claims (``claims`` on an event) that the engine does not
  derive are *disputed claims*, reported apart from illegal actions (:func:`check_claims`).

A ruleset may help with three pieces of data in its ``Capabilities``, all optional:
``action_notation`` (the positional fields of its actions' notation), ``table_events``
(the event types recorded with a null actor) and ``event_rules`` (the rules each event
type answers to; without it, the rule ids cited in the event class's docstring).

The package is pure: no I/O, no clock, no random numbers,
which measures the verdict time for the benchmark script. Modules: notation (reading and
writing actions), facts, claims, verdict, legal, explain, game (:class:`Dispute`), rerun,
branch, bench. See docs/disputes.md.
"""

from engine.dispute.branch import (
    BranchDivergence,
    BranchPlan,
    IdenticalBranch,
    IllegalAlternative,
    plan_branch,
)
from engine.dispute.claims import (
    ClaimsReport,
    DisputedClaim,
    Undetermined,
    check_claims,
    claim_matches,
    record_claims,
)
from engine.dispute.explain import Change, Explanation, diff_views, event_rules, explain_step
from engine.dispute.facts import EffectNote, RuleRef, effect_notes, position_dict, position_facts, rule_ref
from engine.dispute.game import Dispute
from engine.dispute.legal import LegalActions, legal_at
from engine.dispute.notation import (
    ActionError,
    ProposedAction,
    action_usage,
    check_seat,
    format_action,
    make_event,
    positional_fields,
    propose,
    read_action,
)
from engine.dispute.rerun import GameEnd, Rerun, RerunDifference, rerun, variant_header
from engine.dispute.verdict import JudgeError, Verdict, judge, render_verdict

__all__ = [
    "ActionError",
    "BranchDivergence",
    "BranchPlan",
    "Change",
    "ClaimsReport",
    "Dispute",
    "DisputedClaim",
    "EffectNote",
    "Explanation",
    "GameEnd",
    "IdenticalBranch",
    "IllegalAlternative",
    "JudgeError",
    "LegalActions",
    "ProposedAction",
    "Rerun",
    "RerunDifference",
    "RuleRef",
    "Undetermined",
    "Verdict",
    "action_usage",
    "check_claims",
    "check_seat",
    "claim_matches",
    "diff_views",
    "effect_notes",
    "event_rules",
    "explain_step",
    "format_action",
    "judge",
    "legal_at",
    "make_event",
    "plan_branch",
    "position_dict",
    "position_facts",
    "positional_fields",
    "propose",
    "read_action",
    "record_claims",
    "render_verdict",
    "rerun",
    "rule_ref",
    "variant_header",
]
