"""``python -m engine.dispute``: print the verdict benchmark."""

from engine.dispute.bench import bench_verdict

if __name__ == "__main__":
    figures = bench_verdict()
    print("verdict at a random position of a", int(figures.pop("events")), "event game (ms):",
          ", ".join(f"{k} {v:.3f}" for k, v in figures.items()))
