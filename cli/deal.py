"""``dummy-spades deal``: random deals to order, for study, practice and benchmarks.

Thin: options -> solver.constraints (the ``--where`` conditions) and
solver.dealer (the compiled dealer, the deal files) -> PBN lines for
``batch``, YAML deal files, or JSON on stdout; the acceptance rate on stderr.
docs/DEAL.md describes the language, the seating and the output.

Every option is checked before anything is dealt: a problem with an option
(an expression included) is one message naming it, exit 2. Conditions too
rare for ``--max-tries`` are one message with the acceptance rate seen,
exit 1. Nothing is written unless every deal was found.
"""
from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Dict, List, Optional, Sequence, Tuple

import typer

from dummy_spades.solver.auction import Auction, check_auction
from dummy_spades.solver.cards import format_hand
from dummy_spades.solver.constraints import Condition, Table, WhereError, parse_condition
from dummy_spades.solver.variant import Variant
from dummy_spades.solver.dealer import (DEFAULT_MAX_TRIES, FULL, Dealt, deal_file, deal_hands,
                                        default_declarer, hands_by_name, seat_order, seated)
from dummy_spades.solver.dealfile import dump_deal
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.limits import (DEAL_COUNT_MAX, DEAL_FILES_MAX, DEAL_TRIES_MAX,
                                        WHERE_MAX_CONDITIONS)
from dummy_spades.solver.pbn import DEAL_FORM, format_pbn_deal
from dummy_spades.solver.seating import PBN_DIRECTIONS, first_bidder, play_seating

from .common import emit_json, err_console, fail, handle_errors, only_with, usage_error
from .options import (Target, dealer_option, declarer_option, json_option, parse_players,
                      players_option, seed_option, to_option)

HELP = """Deal random deals that satisfy every --where, uniformly (rejection sampling).

Conditions are written over the three players and the dummy, e.g.
--where "spades(Carol) >= 5 and 12 <= hcp(Carol) <= 14",
--where "shape(dummy, any 4333 + any 4432)", --where "qt(leader) == 0".
Output: PBN lines for batch (dummy-spades deal ... --to pbn | dummy-spades batch -)
or YAML deal files (--out DIR). The acceptance rate goes to stderr. Grammar,
seating and examples: docs/DEAL.md.
"""


@dataclass(frozen=True)
class Order:
    """Everything the options ask for, checked."""

    count: int
    seed: int
    cards: int
    players: Tuple[str, str, str]
    dealer: str
    declarer: str
    variant: Variant
    auction: Optional[Auction]
    conditions: Tuple[Condition, ...]
    to: Target
    out: Optional[Path]


# ------------------------------------------------------------------ checking the options
def _table(players: str, dealer: Optional[str]) -> Table:
    try:
        names = parse_players(players)
        return Table(tuple(names), dealer if dealer is not None else names[2])  # type: ignore[arg-type]
    except DealError as err:
        option = "--dealer" if err.field == "dealer" else "--players"
        raise usage_error(f"{option} {dealer if option == '--dealer' else players!r}: "
                          f"{err.problem}" + (f"; expected {err.expected}" if err.expected else ""))


def _variant(text: str) -> Variant:
    try:
        return Variant(text)
    except DealError as err:
        raise usage_error(f"--variant {text!r}: {err.problem}; expected {err.expected}")


def _auction(text: Optional[str], table: Table, variant: Variant) -> Optional[Auction]:
    """``--auction "5, 6 nil Alice"``: the bids in bidding order."""
    if text is None:
        return None
    if variant.bidding == "mirror":
        raise usage_error(f"--auction {text!r}: under mirror every bid is the bidder's number of "
                          "spades, and the forced auction is written for each deal; expected no "
                          "--auction (constrain the spades with --where, e.g. spades(Alice) == 3)")
    calls = [c.strip() for c in re.split(r",\s*(?=\d)", text)] if text.strip() else []
    try:
        auction = Auction.from_calls(table.players, table.dealer, calls)
        check_auction(variant.bidding, auction, {p: 0 for p in table.players})
    except DealError as err:
        where = f"{err.field}: " if err.field else ""
        raise usage_error(f"--auction {text!r}: {where}{err.problem}"
                          + (f"; expected {err.expected}" if err.expected else ""))
    return auction


def _conditions(texts: Sequence[str], table: Table) -> Tuple[Condition, ...]:
    if len(texts) > WHERE_MAX_CONDITIONS:
        raise usage_error(f"--where is given {len(texts)} times; expected at most "
                          f"{WHERE_MAX_CONDITIONS} (join conditions with and)")
    try:
        return tuple(parse_condition(text, table) for text in texts)
    except WhereError as err:
        raise usage_error(str(err))


def _check_targets(out: Path, count: int, force: bool) -> List[Path]:
    """The files ``--out`` will write; refused (exit 1) when ``out`` is not a
    directory or, without ``--force``, when one of them exists."""
    if out.exists() and not out.is_dir():
        raise fail(f"{out}: is not a directory; expected a directory for the deal files (--out)")
    home = out
    while not home.exists() and home != home.parent:   # the directory mkdir will start from
        home = home.parent
    if not home.is_dir() or not os.access(home, os.W_OK | os.X_OK):
        raise fail(f"{out}: cannot write there ({home} is not a writable directory); expected "
                   "a writable directory for the deal files (--out)")
    targets = [out / name for name in file_names(count)]
    if not force:
        existing = [t for t in targets if t.exists()]
        if existing:
            more = f" and {len(existing) - 1} more" if len(existing) > 1 else ""
            raise fail(f"{existing[0]}{more} already exist{'s' if not more else ''}; expected "
                       "--force to overwrite them, or another --out directory")
    return targets


def write_files(out: Path, targets: Sequence[Path], texts: Sequence[Optional[str]],
                force: bool) -> None:
    """Write every deal file, or none: on a failure (a full disk, a directory
    that vanished) the files written so far are removed and the command
    fails naming ``--out`` (with ``--force``, a file replaced before the
    failure keeps its new text). Each file is replaced whole."""
    written: List[Path] = []
    created: List[Path] = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for target, text in zip(targets, texts):
            assert text is not None
            temporary = target.with_name(f".{target.name}.partial")
            with open(temporary, "x", encoding="utf-8") as fh:
                written.append(temporary)
                fh.write(text)
        for target, temporary in zip(targets, written):
            existed = target.exists()
            if existed and not force:
                raise FileExistsError(f"{target} appeared while the deals were written")
            os.replace(temporary, target)
            if not existed:
                created.append(target)
    except OSError as err:
        for path in written + created:
            path.unlink(missing_ok=True)
        raise fail(f"{out}: cannot write the deal files ({err.strerror or err}); expected a "
                   "writable directory with room for them (--out)")


def file_names(count: int) -> List[str]:
    """``deal-001.yaml`` ...: numbered from 1, as wide as the count (at least 3 digits)."""
    width = max(3, len(str(count)))
    return [f"deal-{i:0{width}d}.yaml" for i in range(1, count + 1)]


# ------------------------------------------------------------------ writing
def percent(p: float) -> str:
    return f"{100 * p:.3g}%"


def rate_text(dealt: Dealt) -> str:
    return f"acceptance rate {percent(dealt.rate)} ± {percent(dealt.rate_se)}"


def summary(dealt: Dealt, seed: int, seconds: float) -> str:
    speed = f", {dealt.tries / seconds:,.0f} candidates/s" if seconds > 0 else ""
    return (f"{len(dealt.hands):,} deal{'s' if len(dealt.hands) != 1 else ''} of "
            f"{dealt.tries:,} candidates (seed {seed}): {rate_text(dealt)}; "
            f"{seconds:.2f} s{speed}")


def shortfall(dealt: Dealt, max_tries: int) -> str:
    """The message when the cap was reached before every deal was found."""
    if not dealt.hands:
        return (f"no deal of {dealt.tries:,} candidates passed --where (acceptance rate 0: below "
                f"{dealt.rate_bound:.1e} with 95% confidence): the conditions contradict each "
                f"other or are too rare for --max-tries {max_tries:,}; expected conditions some "
                "deals satisfy, or a larger --max-tries")
    needed = int(dealt.wanted / dealt.rate) + 1
    return (f"only {len(dealt.hands):,} of {dealt.wanted:,} deals passed --where in "
            f"{dealt.tries:,} candidates ({rate_text(dealt)}): the conditions are too rare for "
            f"--max-tries {max_tries:,}; expected --max-tries of about {needed:,} "
            "(the count over the rate), or a smaller --count")


def pbn_header(order: Order) -> List[str]:
    """The comment lines that open the PBN output: what was dealt, and who sits where."""
    names = play_seating(order.players, order.declarer)
    leader = first_bidder(order.players, order.dealer)
    seat = PBN_DIRECTIONS[names.index(leader)]
    lines = [f"# dummy-spades deal: {order.count} deal{'s' if order.count != 1 else ''}, seed "
             f"{order.seed}, {order.cards} cards a hand; players {', '.join(order.players)}, "
             f"dealer {order.dealer}"]
    lines += [f"# where {c}" for c in order.conditions]
    lines.append(f"# {DEAL_FORM}: N {names[0]}, E {names[1]}, S {names[2]}, W {names[3]}; "
                 f"{leader} ({seat}) leads first: batch --leader {seat}")
    return lines


def _deal_json(order: Order, hands: Tuple[int, int, int, int], seats: Sequence[int],
               text: Optional[str]) -> Dict[str, object]:
    out: Dict[str, object] = {
        "pbn": format_pbn_deal(seated(hands, seats)),
        "hands": {name: format_hand(mask) for name, mask in hands_by_name(hands, order.players).items()},
    }
    if text is not None:
        out["yaml"] = text
    return out


def write(order: Order, dealt: Dealt, json_out: bool, force: bool, seconds: float,
          targets: Sequence[Path] = ()) -> None:
    """The deals out: ``targets`` the deal files of ``--out`` (checked before
    dealing; :func:`write_files` refuses a file that appeared since)."""
    seats = seat_order(order.players, order.declarer)
    files: Optional[List[str]] = None
    texts: List[Optional[str]] = [None] * len(dealt.hands)
    if order.to is Target.yaml:
        texts = [dump_deal(deal_file(
            hands, order.players, order.dealer, order.variant, order.auction, order.seed, i,
            title=f"Random deal {i} of {order.count} (seed {order.seed})",
            notes=("where " + "; ".join(str(c) for c in order.conditions)) if order.conditions else ""))
            for i, hands in enumerate(dealt.hands, start=1)]
    if order.out is not None:
        write_files(order.out, targets, texts, force)
        files = [str(t) for t in targets]
    if json_out:
        names = play_seating(order.players, order.declarer)
        emit_json({
            "seed": order.seed, "count": order.count, "cards": order.cards,
            "players": list(order.players), "dealer": order.dealer,
            "where": [str(c) for c in order.conditions],
            "candidates": dealt.tries, "acceptance_rate": dealt.rate,
            "acceptance_se": dealt.rate_se, "seconds": round(seconds, 3),
            "seating": {"N": names[0], "E": names[1], "S": names[2], "W": names[3],
                        "opening_leader": PBN_DIRECTIONS[names.index(
                            first_bidder(order.players, order.dealer))]},
            "deals": [_deal_json(order, h, seats, t) for h, t in zip(dealt.hands, texts)],
            "files": files,
        })
    elif order.to is Target.pbn:
        out = sys.stdout
        out.write("\n".join(pbn_header(order)) + "\n")
        for i in range(0, len(dealt.hands), 1000):   # a block at a time: a closed pipe stops it
            out.write("".join(format_pbn_deal(seated(h, seats)) + "\n"
                              for h in dealt.hands[i:i + 1000]))
            out.flush()
    elif order.out is None:
        sys.stdout.write(texts[0] or "")
        sys.stdout.flush()


# ------------------------------------------------------------------ the command
@handle_errors
def deal(
    ctx: typer.Context,
    count: Annotated[int, typer.Option(
        "--count", "-n", metavar="N", min=1, max=DEAL_COUNT_MAX,
        help=f"Deals to make (1 to {DEAL_COUNT_MAX:,}; with --out at most {DEAL_FILES_MAX:,}).")] = 1,
    seed: Annotated[Optional[int], seed_option(
        "Random seed (0 to 2**64-1): the same seed and options give the same deals. "
        "Default: a fresh seed, shown on stderr (and in the output) to repeat the run.",
        show_default=False)] = None,
    where: Annotated[Optional[List[str]], typer.Option(
        "--where", "-w", metavar="EXPR", show_default=False,
        help="A condition every deal satisfies (repeatable: all must hold), e.g. "
             "\"spades(Carol) >= 5\"; grammar in docs/DEAL.md.")] = None,
    to: Annotated[Optional[Target], to_option(
        "pbn: deal lines for batch on stdout; yaml: deal files (--out DIR, or one "
        "deal on stdout). Default: yaml with --out, else pbn.")] = None,
    out: Annotated[Optional[Path], typer.Option(
        "--out", "-o", metavar="DIR", show_default=False,
        help="Write one YAML deal file per deal into DIR (deal-001.yaml ...), made if need be.")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite deal files that exist in --out.")] = False,
    players: Annotated[str, players_option("The three real players, clockwise.")]
    = "Alice,Bob,Carol",
    dealer: Annotated[Optional[str], dealer_option(
        "The dealer (default: the third player); the player on their left bids first and "
        "leads (the leader of --where).")] = None,
    declarer: Annotated[Optional[str], declarer_option(
        "With --to pbn: the player seated N as declarer (default: the auction's, else the "
        "second bidder, which seats the opening leader W, batch's default leader).")] = None,
    variant: Annotated[str, typer.Option(
        "--variant", metavar="NAME",
        help="The auction variant written into deal files (docs/FORMAT.md); under peeky and "
             "flip-N the dummy cards each player saw are drawn at random, under mirror the "
             "forced auction is written.")] = "no-peeky",
    auction: Annotated[Optional[str], typer.Option(
        "--auction", metavar="BIDS", show_default=False,
        help="Bids already made, in bidding order, written into every deal file: "
             "\"5, 6 nil Alice\" (a complete auction names the declarer).")] = None,
    cards: Annotated[int, typer.Option(
        "--cards", metavar="K", min=1, max=FULL,
        help="Cards in each hand: fewer than 13 deals endings (PBN only, no --where).")] = FULL,
    max_tries: Annotated[int, typer.Option(
        "--max-tries", metavar="N", min=1, max=DEAL_TRIES_MAX,
        help="Candidate deals to try before giving up (exit 1, with the acceptance rate seen).")]
        = DEFAULT_MAX_TRIES,
    json_out: Annotated[bool, json_option("docs/DEAL.md")] = False,
) -> None:
    table = _table(players, dealer)
    the_variant = _variant(variant)
    the_auction = _auction(auction, table, the_variant)
    only_with(ctx, "--out", out is not None, ("force",))
    target = to if to is not None else (Target.yaml if out is not None else Target.pbn)
    if out is not None and target is Target.pbn:
        raise usage_error("--out writes deal files (--to yaml); expected no --out with --to pbn "
                          "(PBN lines go to stdout: dummy-spades deal ... > deals.pbn)")
    if target is Target.yaml:
        if out is None and count > 1 and not json_out:
            raise usage_error(f"--to yaml with --count {count}: one deal file per deal; "
                              "expected --out DIR, or --count 1 to print the deal")
        if cards != FULL:
            raise usage_error(f"--cards {cards} with --to yaml; expected --to pbn (a deal file "
                              "holds 13 cards a hand)")
        if declarer is not None:
            raise usage_error("--declarer seats PBN lines; expected no --declarer with --to yaml "
                              "(a deal file's declarer comes from its auction: --auction)")
    if out is not None and count > DEAL_FILES_MAX:
        raise usage_error(f"--count {count:,} with --out; expected at most {DEAL_FILES_MAX:,} "
                          "deal files (or --to pbn for more deals)")
    conditions = _conditions(where or [], table)
    if conditions and cards != FULL:
        raise usage_error(f"--where with --cards {cards}; expected conditions on full deals "
                          "(13 cards a hand) only")
    if declarer is not None and declarer not in table.players:
        raise usage_error(f"--declarer {declarer!r}: unknown player; expected one of "
                          f"{', '.join(table.players)}")
    seat_for = (declarer or (the_auction.declarer if the_auction is not None else None)
                or default_declarer(table.players, table.dealer))
    targets = _check_targets(out, count, force) if out is not None else []   # before dealing
    order = Order(count, seed if seed is not None else int.from_bytes(os.urandom(8), "little"),
                  cards, table.players, table.dealer, seat_for, the_variant, the_auction,
                  conditions, target, out)
    start = time.perf_counter()
    dealt = deal_hands(order.count, order.seed, order.conditions, order.cards, max_tries)
    seconds = time.perf_counter() - start
    err_console.print(summary(dealt, order.seed, seconds), highlight=False, soft_wrap=True)
    if not dealt.complete:
        raise fail(shortfall(dealt, max_tries))
    write(order, dealt, json_out, force, seconds, targets)


def register(app: typer.Typer) -> None:
    app.command("deal", help=HELP)(deal)

