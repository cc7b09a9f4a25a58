"""The state machine's mechanics: a transition declared as data, the check of a declaration,
and the one function that fires a transition for an event.

A :class:`Transition` says: on this trigger (an event kind, or ``player:<action>``), in any
of these source states, if every guard passes (a guard returns ``None`` or the refusal
reason), call this handler, which may enter only these target states.  The declaration of
the referee's machine is :data:`referee.turn.transitions.TRANSITIONS`; :func:`check`
finds what is wrong with a declaration (unreachable states, dead ends, a trigger declared
twice for a state) and a test feeds it broken ones.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Protocol

from referee.errors import ProtocolError
from referee.events import PlayerInput
from referee.officials import DirectorAction
from referee.turn.states import STATES, State

Guard = Callable[[Any, Any], Optional[str]]
Handler = Callable[[Any, Any], None]


class DeclarationError(ProtocolError):
    """The machine's declaration is broken, or a handler entered a state its transition does not declare."""


@dataclass(frozen=True)
class Transition:
    """On ``trigger`` in any of ``sources``: the ``guards`` in order, then ``handler``, which
    may enter the states of ``targets`` (none: the machine stays where it is)."""

    trigger: str
    sources: frozenset[State]
    handler: Handler
    targets: frozenset[State] = frozenset()
    guards: tuple[Guard, ...] = ()

    def __str__(self) -> str:
        return f"{self.trigger} -> {self.handler.__name__}"


def transition(trigger: str, sources: Iterable[State], handler: Handler, targets: Iterable[State] = (),
               guards: Iterable[Guard] = ()) -> Transition:
    """A :class:`Transition` from plain iterables."""
    return Transition(trigger, frozenset(sources), handler, frozenset(targets), tuple(guards))


Table = dict[State, dict[str, Transition]]


def index(transitions: Iterable[Transition]) -> Table:
    """state -> trigger -> transition; a trigger declared twice for one state raises DeclarationError."""
    out: Table = {s: {} for s in State}
    for tr in transitions:
        for s in sorted(tr.sources):
            if tr.trigger in out[s]:
                raise DeclarationError(f"{tr.trigger!r} is declared twice for state {s.value!r}: "
                                       f"{out[s][tr.trigger]} and {tr}")
            out[s][tr.trigger] = tr
    return out


def check(transitions: Iterable[Transition], initial: State, final: Iterable[State] = (State.MATCH_OVER,),
          states: Iterable[State] = State) -> list[str]:
    """What is wrong with a declaration ([] when nothing): states no transition leads to from
    ``initial``, states (other than ``final``) no transition leaves, triggers declared twice."""
    trs = list(transitions)
    problems: list[str] = []
    try:
        index(trs)
    except DeclarationError as exc:
        problems.append(str(exc))
    edges: dict[State, set[State]] = {}
    for tr in trs:
        for s in tr.sources:
            edges.setdefault(s, set()).update(tr.targets - {s})
    reached, todo = {initial}, [initial]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    all_states = list(states)
    for s in all_states:
        if s not in reached:
            problems.append(f"state {s.value!r} cannot be reached from {initial.value!r}")
    ends = set(final)
    for s in all_states:
        if s not in ends and not edges.get(s):
            problems.append(f"state {s.value!r} is a dead end: no transition leaves it")
    return problems


def trigger_of(event: Any) -> str:
    """An event's trigger: ``player:<action>`` for a player's input, ``director:<action>`` for
    the director's, its kind otherwise."""
    if isinstance(event, PlayerInput):
        return f"player:{event.action}"
    if isinstance(event, DirectorAction):
        return f"director:{event.action}"
    return str(getattr(event, "kind", type(event).__name__))


class Machinery(Protocol):
    """What :func:`fire` needs of the referee's table state."""

    @property
    def state(self) -> State:
        """The current state."""

    def decide(self, kind: str, player: Optional[str], reason: str, choices: Any = (), **data: Any) -> Any:
        """Emit one decision (what the table shows and records)."""

    def event_words(self, event: Any) -> str:
        """An event in words, for the error naming an unhandled event."""

    def running(self, tr: Transition) -> Any:
        """A context in which ``tr``'s handler runs (only its declared targets may be entered)."""


def fire(t: Machinery, table: Table, event: Any, inner: bool = False) -> None:
    """Handle ``event`` in ``t``'s state: ``not_accepted`` when the state declares no transition
    for it, ``refused`` when a guard says why not, the handler otherwise.  ``inner``: a
    follow-on trigger within the event being handled (nothing said when it is not accepted)."""
    trig = trigger_of(event)
    tr = table[t.state].get(trig)
    player = getattr(event, "player", None)
    if tr is None:
        if not inner:
            t.decide("not_accepted", player, f"{t.event_words(event)} is not accepted now: {STATES[t.state]}",
                     event=trig, state=t.state.value)
        return
    for g in tr.guards:
        why = g(t, event)
        if why:
            if inner:
                t.decide("refused", player, why, guard=g.__name__)
            else:
                t.decide("refused", player, why, guard=g.__name__, event=trig, state=t.state.value)
            return
    with t.running(tr):
        tr.handler(t, event)

