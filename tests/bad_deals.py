"""Every kind of bad deal file, with the field, line and words its one-line
message must carry. Shared by test_dealfile.py (the loader) and
test_cli_show_score.py (the commands: exit 1, one line, no traceback)."""
from typing import NamedTuple, Optional

GOOD = """\
players: [Alice, Bob, Carol]
dealer: Carol
hands:
  Alice: A.AQT94.82.KT932
  Bob: T986.K52.Q764.J4
  Carol: KJ74.J8.AKJ5.AQ6
  dummy: Q532.763.T93.875
auction:
  - {player: Alice, bid: 5}
  - {player: Bob, bid: 6}
  - {player: Carol, bid: 7}
"""


class Bad(NamedTuple):
    text: str
    field: Optional[str]
    line: Optional[int]
    words: str  # a fragment of the message (problem or expected)


def edit(old: str, new: str, base: str = GOOD) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


def add(extra: str, base: str = GOOD) -> str:
    return base + extra


CASES = {
    # the YAML itself
    "malformed YAML": Bad(edit("dealer: Carol", "dealer: [Carol"), None, 3, "malformed YAML"),
    "bad indentation": Bad(edit("  Bob: T986", " Bob: T986"), None, 5, "malformed YAML"),
    "not a mapping": Bad("- Alice\n- Bob\n", None, 1, "not a mapping"),
    "empty file": Bad("", None, 1, "empty"),
    "unknown key": Bad(add("colour: red\n"), "colour", 12, "unknown key 'colour'"),
    "misspelt key": Bad(edit("dealer:", "dealr:"), "dealr", 2, "did you mean 'dealer'"),
    "missing key": Bad(edit("dealer: Carol\n", ""), "dealer", 1, "no 'dealer'"),
    # players
    "duplicated player": Bad(edit("[Alice, Bob, Carol]", "[Alice, Bob, Alice]"), "players[2]", 1,
                             "listed twice"),
    "two players": Bad(edit("[Alice, Bob, Carol]", "[Alice, Bob]"), "players", 1, "exactly three"),
    "player called dummy": Bad(edit("[Alice, Bob, Carol]", "[Alice, Bob, Dummy]"), "players[2]", 1,
                               "'Dummy' cannot be a player's name"),
    "unknown dealer": Bad(edit("dealer: Carol", "dealer: Dave"), "dealer", 2, "unknown dealer 'Dave'"),
    # hands
    "unknown player in hands": Bad(edit("  Carol: KJ74", "  Zed: KJ74"), "hands.Zed", 6,
                                   "unknown hand 'Zed'"),
    "duplicated player in hands": Bad(edit("  Carol: KJ74", "  Bob: KJ74"), "hands.Bob", 6,
                                      "'Bob' is given twice"),
    "missing hand": Bad(edit("  dummy: Q532.763.T93.875\n", ""), "hands", 3, "no hand for dummy"),
    "card twice": Bad(edit("Q764.J4", "Q764.JA"), "hands.Carol", 6, "CA is also in Bob's hand"),
    "card missing": Bad(edit("Q764.J4", "Q764.J"), "hands.Bob", 5, "12 cards (missing from the deal: C4)"),
    "hand too big": Bad(edit("Q764.J4\n  Carol: KJ74.J8.AKJ5.AQ6", "Q764.J4\n  Carol: KJ74.J8.AKJ5.AQ"),
                        "hands.Carol", 6, "12 cards"),
    "unknown rank": Bad(edit("Q764.J4", "Q764.J4X"), "hands.Bob", 5, "unknown rank 'X'"),
    "rank twice": Bad(edit("T986.K52", "T986.K55"), "hands.Bob", 5, "appears twice"),
    "not PBN": Bad(edit("T986.K52.Q764.J4", "T986.K52.Q764"), "hands.Bob", 5, "PBN dot notation"),
    "unknown suit": Bad(edit("Bob: T986.K52.Q764.J4", "Bob: {spades: T986, hearts: K52, diamonds: Q764, bells: J4}"),
                        "hands.Bob.bells", 5, "unknown key 'bells'"),
    "suit twice": Bad(edit("Bob: T986.K52.Q764.J4", "Bob: {S: T986, spades: K52}"),
                      "hands.Bob.spades", 5, "repeats the suit"),
    "unknown card in a list": Bad(edit("Bob: T986.K52.Q764.J4", "Bob: [ST, S9, ZZ]"), "hands.Bob", 5,
                                  "unknown card 'ZZ'"),
    "hand is a number": Bad(edit("Bob: T986.K52.Q764.J4", "Bob: 5"), "hands.Bob", 5, "unknown card '5'"),
    # auction
    "bid above 13": Bad(edit("bid: 6}", "bid: 14}"), "auction[1].bid", 10, "from 0 to 13"),
    "negative bid": Bad(edit("bid: 6}", "bid: -1}"), "auction[1].bid", 10, "from 0 to 13"),
    "bid not a number": Bad(edit("bid: 6}", "bid: lots}"), "auction[1].bid", 10, "cannot be read"),
    "nil on unknown hand": Bad(edit("bid: 6}", "bid: 6, nil: [Zed]}"), "auction[1].nil", 10,
                               "nil on unknown hand 'Zed'"),
    "bid by unknown player": Bad(edit("player: Bob", "player: Zed"), "auction[1].player", 10,
                                 "unknown player 'Zed'"),
    "bid out of turn": Bad(edit("{player: Alice, bid: 5}", "{player: Bob, bid: 5}"), "auction[0].player", 9,
                           "out of turn"),
    "four bids": Bad(add("  - {player: Alice, bid: 2}\n"), "auction", 8, "at most three bids"),
    "bid without player": Bad(edit("{player: Alice, bid: 5}", "{bid: 5}"), "auction[0]", 9, "no 'player'"),
    # played cards
    "wrong turn": Bad(add("played:\n  - HA H3 H2 H8\n  - HQ H5\n"), "played[1]", 14, "it is dummy's turn"),
    "revoke": Bad(add("played:\n  - HA H3 H2 H8\n  - HQ H6 S9\n"), "played[1]", 14, "revoke"),
    "spade led before broken": Bad(add("played: [SA]\n"), "played[0]", 12, "spades are not broken"),
    "card played twice": Bad(add("played: [HA H3 H2 H8, HA]\n"), "played[1]", 12, "already been played"),
    "unknown played card": Bad(add("played:\n  - HA H3 H2 ZZ\n"), "played[0]", 13, "unknown card 'ZZ'"),
    "played before the auction ends": Bad(add("played: [HA]\n", edit("  - {player: Carol, bid: 7}\n", "")),
                                          "played", 11, "auction is not complete"),
    # scores, rules, variant
    "scores for an unknown player": Bad(add("scores: {Alice: 1, Bob: 2, Carol: 3, Zed: 4}\n"),
                                        "scores.Zed", 12, "unknown player 'Zed'"),
    "scores missing a player": Bad(add("scores: {Alice: 10, Bob: 20}\n"), "scores", 12, "no score for Carol"),
    "scores not a number": Bad(add("scores: {Alice: {points: lots}, Bob: 0, Carol: 0}\n"),
                               "scores.Alice.points", 12, "'lots' is not a whole number"),
    "negative bags": Bad(add("scores: {Alice: {points: 0, bags: -2}, Bob: 0, Carol: 0}\n"),
                         "scores.Alice.bags", 12, "-2 bags"),
    "unknown variant": Bad(add("variant: flip-5\n"), "variant", 12, "unknown variant 'flip-5'"),
    "seen card not in the dummy": Bad(add("variant: {name: flip-2, seen: {Alice: [SA, H3]}}\n"),
                                      "variant.seen.Alice", 12, "SA not in the dummy"),
    "wrong number of seen cards": Bad(add("variant: {name: three-peeky, seen: {Alice: [SQ]}}\n"),
                                      "variant.seen.Alice", 12, "exactly 3 dummy cards"),
    # bidding variants: the auction is checked against the variant
    "mirror bid not the spade count": Bad(add("variant: mirror\n"), "auction[0].bid", 9,
                                          "Alice bids 5 holding 1 spade; expected 1"),
    "mirror nil with spades": Bad(add("variant: mirror\n", edit("{player: Alice, bid: 5}",
                                                                "{player: Alice, bid: 1, nil: [dummy]}")),
                                  "auction[0].nil", 9, "only a player without spades declares nil"),
    "suicide bid under 4": Bad(add("variant: suicide\n", edit("{player: Alice, bid: 5}", "{Alice: 3}")),
                               "auction[0].bid", 9, "a player bids nil or at least 4"),
    "suicide bid without the dummy nil": Bad(add("variant: suicide\n"), "auction[0].nil", 9,
                                             "expected 5 nil dummy"),
    "suicide second nil": Bad(add("variant: suicide\n", edit(
        "  - {player: Alice, bid: 5}\n  - {player: Bob, bid: 6}\n",
        "  - {player: Alice, bid: 0, nil: [self]}\n  - {player: Bob, bid: 0, nil: [self]}\n")),
        "auction[1].bid", 10, "Bob bids nil after Alice has"),
    "suicide without a nil": Bad(add("variant: suicide\n", edit(
        "  - {player: Alice, bid: 5}\n  - {player: Bob, bid: 6}\n  - {player: Carol, bid: 7}\n",
        "  - {Alice: 5 nil dummy}\n  - {Bob: 6 nil dummy}\n  - {Carol: 7 nil dummy}\n")),
        "auction[2].bid", 11, "nobody has bid nil"),
    "mirror with a peek": Bad(add("variant: mirror + three-peeky\n"), "variant", 12,
                              "mirror cannot be combined with three-peeky"),
    "mirror and suicide": Bad(add("variant: [mirror, suicide]\n"), "variant", 12,
                              "names mirror and suicide"),
    "two dummy variants": Bad(add("variant: suicide + flip-2 + three-peeky\n"), "variant", 12,
                              "combines flip-2 and three-peeky"),
    "rule not a boolean": Bad(add("rules: {spade_breaking: maybe}\n"), "rules.spade_breaking", 12,
                              "true or false"),
    "bag threshold zero": Bad(add("rules: {bag_threshold: 0}\n"), "rules.bag_threshold", 12,
                              "1 or more"),
    "unknown rule": Bad(add("rules: {breaking_spades: false}\n"), "rules.breaking_spades", 12,
                        "unknown key 'breaking_spades'"),
}
