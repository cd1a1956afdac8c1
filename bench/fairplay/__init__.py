"""The fair-play statistic calibrated on bots: cheats that see cards, honest bots that do not."""
