"""Rule-free floors: each game's events folded with the least work that still touches every
event as the rules would (no checks), the baseline replay's ratios are measured against.
Nothing in warren replays with them."""
