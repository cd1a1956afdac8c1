"""Strings the table and lobby scripts show, translated on the server and handed to the page."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from gameplay.words import pair_name, rank_words, seat_letter


def table_texts() -> dict[str, str]:
    return {
        "your_turn": _("Your turn"),
        "waiting_for": _("Waiting for %(name)s"),
        "all_decide": _("Each player answers: play this hand, or ask for a redeal where the hand allows it."),
        "you_answer": _("Play this hand, or ask for a redeal if your hand allows it."),
        "answered_wait": _("You play this hand; waiting for the others to answer."),
        "answered": _("answered"),
        "no_redeal": _("Your hand does not allow a redeal."),
        "trump": _("Trump"),
        "on_duty": _("On duty: %(pair)s"),
        "deal": _("Deal %(n)s"),
        # a duplicate event's table: the board being played and its place in the table's set
        "board": _("Board %(n)s (%(k)s of %(m)s)"),
        # a hand's size, each number with its own plural ("1 card", "2 карты", "5 карт")
        **{f"cards_{n}": ngettext("%(n)s card", "%(n)s cards", n) % {"n": n} for n in range(13)},
        "you": _("you"),
        "partner": _("partner"),
        "bot": _("bot"),
        # a bot seat's level, beside its name (the seat's "level" in the snapshot)
        "bot_beginner": _("beginner bot"),
        "bot_strong": _("strong bot"),
        "offline": _("offline, grace %(s)s s"),
        "resign_confirm": _("Resign? Your pair loses the match."),
        "last_trick": _("Last trick, taken by %(name)s"),
        "no_last_trick": _("No trick has been taken in this deal yet."),
        "redealt": _("Redeal asked by %(name)s."),
        "won": _("%(pair)s won the match."),
        "reason_eyes": _("12 eyes."),
        "reason_timeout": _("%(name)s ran out of time."),
        "reason_resign": _("%(name)s resigned."),
        "reason_forfeit": _("%(name)s forfeited."),
        "cancelled": _("The organiser called this match off: its pairing was withdrawn or changed."),
        "boards_over": _("Every board of the set is played. Each board is scored against the other tables."),
        "eggs": _("Eggs: 60:60"),
        "spectating": _("You are watching."),
        "reconnecting": _("Connection lost, reconnecting…"),
        "reconnected": _("Connected again."),
        "suit_C": _("clubs"), "suit_D": _("diamonds"), "suit_H": _("hearts"), "suit_S": _("spades"),
        "seconds": _("%(s)s s"),
        "previous_hands": _("Hands of the last deal"),
        "eyes": _("%(n)s eyes"),
        "last_deal": _("last deal NS %(ns)s : EW %(ew)s"),
        "deal_summary": _("Deal %(n)s is over"),
        "outcome_rout": _("A rout."),
        "outcome_lucy": _("Lucy: every trick (or every point) taken."),
        "outcome_eggs": _("Eggs, 60:60: no eyes now, the next decided deal is worth more."),
        "summary_points": _("Points: NS %(ns)s · EW %(ew)s"),
        "summary_eyes": _("Eyes opened: NS +%(ns)s · EW +%(ew)s"),
        "summary_score": _("Score: NS %(ns)s : EW %(ew)s"),
        "suits_legend": _("The suit beside a player is his for the whole match: it is the trump of every "
                          "deal in which he holds the jack of clubs. J♣ marks who holds it now."),
        # seats, pairs and the jack's mark as the reader writes them (gameplay.words)
        **{f"seat_{s}": seat_letter(s) for s in "NESW"},
        "pair_NS": pair_name("NS"),
        "pair_EW": pair_name("EW"),
        "jack_short": pgettext("jack of clubs, short", "J♣"),
        # the cards' ranks as the legend's mark writes the jack (В♣ beside a В in Russian)
        **{f"rank_{code}": word for code, word in rank_words().items()},
        "bot_named": pgettext("bot at a seat", "Bot %(seat)s"),
        # Kozyol khvalyony's table: its permanent trumps above the diamonds, and the catch
        "outcome_catch": _("A catch: the shamok took the other pair's queen of clubs; the deal stops."),
        "caught_by": _("Caught by %(name)s."),
        "no_duty": _("Nobody is on duty: a win opens 2 eyes, a rout 4, to either pair."),
        # Bilka for two's table: two players, each for himself, and the stock
        "stock_left": _("Cards in the stock: %(n)s"),
        "stock_empty": _("The stock is used up"),
        "two_no_duty": _("Each plays for himself: no pairs, nobody on duty."),
        "two_points": _("Points: %(line)s"),
        "two_eyes": _("Eyes opened: %(line)s"),
        "two_score": _("Score: %(line)s"),
        "two_last_deal": _("last deal %(line)s"),
        "player_won": _("%(name)s won the match."),
        "two_resign_confirm": _("Resign? You lose the match."),
        "opponent": _("opponent"),
    }


def lobby_texts() -> dict[str, str]:
    return {
        "free": _("seats free: %(n)s"),
        "playing": _("playing"),
        "none": _("No open tables yet. Open one!"),
        "game_bilka": _("Bilka"),
        "game_kozyol": _("Kozyol khvalyony"),
        "game_bilka-2": _("Bilka for two"),
        # the live list names seats and bots in the reader's language (its frames are one for all)
        **{f"seat_{s}": seat_letter(s) for s in "NESW"},
        "bot_named": pgettext("bot at a seat", "Bot %(seat)s"),
        # Kozyol khvalyony's table: its permanent trumps above the diamonds, and the catch
        "outcome_catch": _("A catch: the shamok took the other pair's queen of clubs; the deal stops."),
        "caught_by": _("Caught by %(name)s."),
        "no_duty": _("Nobody is on duty: a win opens 2 eyes, a rout 4, to either pair."),
    }
