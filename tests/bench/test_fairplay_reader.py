"""The calibration's honest "reader" bot weighs layouts by how likely the other seats' cards were
under them: the real layout, which those seats really played from, must always keep a weight, and
some uniformly drawn layouts must lose theirs (else it reads nothing)."""

from __future__ import annotations

import random

from bench.fairplay import reader
from bench.fairplay.players import play_deals
from gameplay.engine.analysis import start_position
from gameplay.engine.fairplay import knowledge
from gameplay.engine.puzzles import observation_at
from gameplay.engine.record import read_record


def test_the_real_layout_always_keeps_a_weight_and_others_lose_it() -> None:
    record = play_deals("beginner", 3, seed=4)[0]
    state = read_record(record)
    rng = random.Random(0)
    rejected = checked = 0
    for number, log in enumerate(state.deals, start=1):
        if log.redeal is not None or len(log.plays) < 32:
            continue
        pos = start_position(state.rules, log)
        for ply, card in enumerate(log.plays):
            if ply % 3 == 1:
                obs = observation_at(record, number, ply)
                assert reader.layout_weight(obs, pos.hands) > 0
                sampler = knowledge(obs).sampler()
                rejected += sum(reader.layout_weight(obs, sampler.draw(rng)) == 0 for _ in range(5))
                checked += 1
            pos = pos.play(card)
    assert checked >= 10
    assert rejected > 0
