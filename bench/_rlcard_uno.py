"""Peer measurement, run inside the throwaway rlcard environment: rlcard's UnoGame with uniformly
random legal actions. Prints one JSON object: hands/s (in this process) and steps per hand."""

import json
import random
import sys
import time

import numpy as np
from rlcard.games.uno.game import UnoGame


def run(hands: int, players: int, seed: int) -> dict:
    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            steps += 1
    seconds = time.perf_counter() - start
    return {"hands_per_s": hands / seconds, "steps": steps / hands}


if __name__ == "__main__":
    n, seed, players = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(run(n, players, seed)))
