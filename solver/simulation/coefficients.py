"""The bidding model's coefficients (solver/simulation/model.py), as written by
``python tools/fit_bid_model.py --deals 3000 --seed 1 --write``.

Fit quality on the held-out deals (docs/BID.md):

* seed 1, 3000 deals: fitted on deals 0-2399, held out 2400-2999 (600 deals)
* nil kept when defending: 4804 fitted hands without a sure spade trick, 16.1% kept; held out 1214: Brier 0.1055 (base rate alone 0.1259)
* bidder 1 tricks as declarer, no dummy cards seen: held-out R² 0.212, mean absolute error 1.77 tricks (600 deals)
* bidder 1 tricks as declarer, 1-12 dummy cards seen: held-out R² 0.476, mean absolute error 1.43 tricks (600 deals)
* bidder 1 residual sd: 2.209 tricks with no dummy card seen, 2.031 with 3, 1.365 with 12
* bidder 2 tricks as declarer, no dummy cards seen: held-out R² 0.291, mean absolute error 1.71 tricks (600 deals)
* bidder 2 tricks as declarer, 1-12 dummy cards seen: held-out R² 0.512, mean absolute error 1.38 tricks (600 deals)
* bidder 2 residual sd: 2.156 tricks with no dummy card seen, 2.006 with 3, 1.469 with 12
* bidder 3 tricks as declarer, no dummy cards seen: held-out R² 0.369, mean absolute error 1.66 tricks (600 deals)
* bidder 3 tricks as declarer, 1-12 dummy cards seen: held-out R² 0.561, mean absolute error 1.34 tricks (600 deals)
* bidder 3 residual sd: 1.998 tricks with no dummy card seen, 1.877 with 3, 1.453 with 12
"""

#: trick estimate per bidding position (0 = first to bid): one coefficient per
#: ``model.FEATURES``, then one per earlier bid (``model.EARLIER_BIDS``)
TRICKS = {
    0: (
        +2.6276,  # const
        +0.4789,  # spades
        +0.2604,  # long_spades
        +1.1524,  # spade_ace
        +0.7678,  # spade_king
        +0.4741,  # spade_queen
        +0.2754,  # spade_jack
        +1.0492,  # side_aces
        +0.6128,  # side_kings
        +0.2332,  # side_queens
        +1.1477,  # voids
        +0.6723,  # singletons
        +0.2059,  # doubletons
        -0.0215,  # long_side
        -0.3726,  # dummy_known
        +0.8556,  # dummy_spades
        +1.3071,  # dummy_aces
        +0.7336,  # dummy_kings
    ),
    1: (
        +3.6482,  # const
        +0.3595,  # spades
        +0.1269,  # long_spades
        +1.0696,  # spade_ace
        +0.8660,  # spade_king
        +0.6405,  # spade_queen
        +0.3337,  # spade_jack
        +1.0400,  # side_aces
        +0.5342,  # side_kings
        +0.1783,  # side_queens
        +1.1167,  # voids
        +0.8443,  # singletons
        +0.3061,  # doubletons
        -0.0853,  # long_side
        -0.3293,  # dummy_known
        +0.7315,  # dummy_spades
        +1.1908,  # dummy_aces
        +0.7081,  # dummy_kings
        -0.1556,  # first_bid
    ),
    2: (
        +5.5023,  # const
        +0.2829,  # spades
        +0.1842,  # long_spades
        +1.1997,  # spade_ace
        +0.6008,  # spade_king
        +0.3090,  # spade_queen
        +0.2439,  # spade_jack
        +0.9103,  # side_aces
        +0.5785,  # side_kings
        +0.2649,  # side_queens
        +1.7977,  # voids
        +0.7868,  # singletons
        +0.3741,  # doubletons
        -0.2071,  # long_side
        -0.2840,  # dummy_known
        +0.6707,  # dummy_spades
        +1.0252,  # dummy_aces
        +0.5714,  # dummy_kings
        -0.1999,  # first_bid
        -0.2022,  # second_bid
    ),
}

#: variance of the trick estimate's error per position: (v0, v1) for
#: ``v0 + v1 x`` the number of dummy cards seen (``model.spread``)
VARIANCE = {
    0: (+4.8799, -0.2514),
    1: (+4.6484, -0.2076),
    2: (+3.9918, -0.1566),
}

#: nil chance: logistic coefficients of ``model.NIL_FEATURES``
NIL = (
    +2.8980,  # const
    -0.6715,  # spades
    -0.7629,  # spade_high
    -0.9094,  # side_aces
    -0.7241,  # side_kings
    -0.5283,  # side_queens
    -0.4165,  # side_jacks
    -0.3317,  # side_tens
    -0.6506,  # suits_without_low
    +0.1999,  # voids
)
