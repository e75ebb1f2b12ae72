print("shaky-bench: no benchmarks yet")
