"""What the explorer's screen lets the user see of the exploration:
:class:`Sight`, with no Textual in it.

Which hands are shown (all, those the ``h`` key leaves, or one player's
view), whether the double-dummy values and scores may be shown, which
single-dummy figures the screen needs, the title line, and how the legal
cards are coloured. :mod:`.app` keeps one and draws what it says.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

from rich.style import Style
from rich.text import Text

from dummy_spades.solver.cards import count
from dummy_spades.solver.exploration import Exploration, Refinement
from dummy_spades.solver.seating import DECLARER_SEAT, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT

from .panels import CardStyle, card_style, figures_style

#: Which hands are hidden, cycled by the ``h`` key: (label, hidden seats).
VIEWS: Tuple[Tuple[str, Tuple[int, ...]], ...] = (
    ("all hands shown", ()),
    ("defenders hidden (declarer practice)", (LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT)),
    ("left defender's view", (DECLARER_SEAT, RIGHT_DEFENDER_SEAT)),
    ("right defender's view", (DECLARER_SEAT, LEFT_DEFENDER_SEAT)),
)


@dataclass
class Sight:
    """What is shown of ``x``: ``view`` indexes :data:`VIEWS` (the hands
    hidden by ``h``); ``player_view`` shows what the player to choose sees
    and the single-dummy figures of the card to choose (in practice: the
    figures shown for the user's cards)."""

    x: Exploration
    view: int = 0
    player_view: bool = False

    @property
    def double_dummy(self) -> bool:
        """Are the double-dummy values and scores shown (never in practice
        before the end of the hand: they see the hidden hands)?"""
        return self.x.practice is None or self.x.board.is_over

    def wanted(self) -> Optional[Refinement]:
        """The single-dummy figures the screen needs now, if any: in practice
        those the computer chooses its card by, or the user's when the
        player's view is on; otherwise the chooser's in the player's view.
        None when the hand is over or there is no choice to make."""
        x = self.x
        if x.board.is_over or x.forced() is not None:
            return None
        if x.computer_to_play:
            return x.computer_card()
        if self.player_view:
            return x.single_dummy()
        return None

    def hands(self) -> List[Tuple[int, int]]:
        """What is shown of each hand, by play seat: the cards shown and how
        many are hidden. In practice the user's view; in the player's view
        the view of the player to choose; otherwise the hands hidden by ``h``."""
        x = self.x
        board = x.board
        viewer = x.practice if x.practice is not None else \
            x.chooser if self.player_view else None
        if viewer is not None and not board.is_over:
            return list(x.seen(viewer))
        return [(0, count(hand)) if self.hidden(seat) else (hand, 0)
                for seat, hand in enumerate(board.hands)]

    def hidden(self, seat: int) -> bool:
        """Is ``seat``'s hand hidden by the ``h`` key's view?"""
        return self.x.practice is None and not self.player_view and seat in VIEWS[self.view][1]

    def mover_hidden(self) -> bool:
        """Is the hand to play (partly) hidden from the screen?"""
        seat = self.x.board.to_move
        return seat is not None and self.hands()[seat][1] > 0

    def title(self) -> Text:
        """The line above the table: the deal's title, who declares, the
        spade-breaking rule and what is shown."""
        x = self.x
        deal = x.deal
        title = Text(deal.title or "", style="bold")
        if title:
            title.append("  ")
        if x.practice is not None:
            what = f"practice: you play {x.practice}"
        elif self.player_view:
            what = "the player's view"
        else:
            what = VIEWS[self.view][0]
        title.append(f"{x.declarer} declares; spade breaking "
                     f"{'on' if x.breaking else 'off'}; {what}", style="dim")
        if not x.scored:
            title.append(f" — what-if: the auction's declarer is {deal.declarer}", style="yellow")
        return title

    def card_style(self, refining: Optional[Refinement]) -> CardStyle:
        """How the legal cards are coloured: by the single-dummy figures
        (``refining``'s) when they are shown, else by the double-dummy values
        (none in practice)."""
        if self.player_view:
            return figures_style(None if refining is None else refining.advice)
        if self.x.practice is not None:
            return lambda card: Style()
        values = self.x.known_values()
        return lambda card: card_style(card, values)


__all__ = ["Sight", "VIEWS"]
