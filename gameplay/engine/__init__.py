"""Bilka rules engine: pure Python, no Django, no database, no network.

The live tables, bots, tournaments and the record scorer all stand on this package, so it
must be importable anywhere (a worker, a CLI, a test) without settings.

    state = MatchState(Rules.from_json(table.rules))   # secrets.SystemRandom deals
    state = MatchState(Rules(), seed=7)                # reproducible, for tests and bots
    state.legal_actions()                               # card ids (the seat to move)
    state.redeal_pending, state.redeal_options(seat)    # the redeal question, put to all four
    state.apply(PASS, seat=2); state.end_redeal_phase() # answers in any order; time ran out
    state.apply(action_from_str("JS"), seat=1)          # IllegalAction says why
    state.observation(seat).to_json()                   # what that seat may see
    state.spectator_observation().to_json()             # no hands at all
    choose_action(state.observation(seat), rng)         # the beginner bot
    bots.choose("strong", state.observation(seat), rng, budget=1.0)  # a bot by level
    write_record(state) / read_record(doc)              # bilka-record/1, exact round trip
    score_record(doc)                                   # bilka-score/1
    read_game_record / write_game_record / score_game_record  # the same for any game (kozyol, bilka-2)
    positions.Replay.from_record(doc).position(d, k)    # a replay's table after k cards of deal d
"""

import os as _os


def _ignore_stale_native_build() -> None:
    """Load `state.py` itself if a mypyc build of it is older than any engine source.

    Python prefers an extension module to the `.py` beside it; without this check an edited
    engine would silently run the old compiled code (see `native.py`).
    """
    here = _os.path.dirname(__file__)
    names = _os.listdir(here)
    built = [n for n in names if n.endswith((".so", ".pyd")) and "__mypyc" not in n]
    if not built:
        return
    newest_source = max(_os.path.getmtime(_os.path.join(here, n)) for n in names if n.endswith(".py"))
    for name in built:
        module = name.split(".")[0]
        source = _os.path.join(here, module + ".py")
        if _os.path.getmtime(_os.path.join(here, name)) >= newest_source or not _os.path.exists(source):
            continue
        import importlib.util
        import sys
        import warnings

        full_name = f"{__name__}.{module}"
        spec = importlib.util.spec_from_file_location(full_name, source)
        if spec is None or spec.loader is None:
            continue
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[full_name] = loaded
        spec.loader.exec_module(loaded)
        warnings.warn(f"gameplay/engine/{name} is older than the engine's sources and is ignored; "
                      "rebuild it with `python -m gameplay.engine build-native` or remove it with "
                      "`python -m gameplay.engine clean-native`", RuntimeWarning, stacklevel=2)


_ignore_stale_native_build()

from gameplay.engine.bot import BeginnerBot, choose_action  # noqa: E402
from gameplay.engine.cards import PASS, REDEAL, action_from_str, action_to_str, card_from_str, card_to_str  # noqa: E402
from gameplay.engine.errors import EngineError, IllegalAction, RecordError, RulesError  # noqa: E402
from gameplay.engine.match import MatchState  # noqa: E402
from gameplay.engine.observation import Observation  # noqa: E402
from gameplay.engine.record import read_record, record_to_json, score_record, write_record  # noqa: E402
from gameplay.engine.record_games import read_game_record, score_game_record, write_game_record  # noqa: E402
from gameplay.engine.rules import Rules  # noqa: E402
from gameplay.engine.state import Phase  # noqa: E402

__all__ = [
    "PASS",
    "REDEAL",
    "BeginnerBot",
    "EngineError",
    "IllegalAction",
    "MatchState",
    "Observation",
    "Phase",
    "RecordError",
    "Rules",
    "RulesError",
    "action_from_str",
    "action_to_str",
    "card_from_str",
    "card_to_str",
    "choose_action",
    "read_game_record",
    "read_record",
    "record_to_json",
    "score_game_record",
    "score_record",
    "write_game_record",
    "write_record",
]
