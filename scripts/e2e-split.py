#!/usr/bin/env python3
"""Splits the end-to-end tests into shards of about equal time (scripts/e2e.sh).

    e2e-split.py <shards> <durations.tsv> <tests> <out prefix>
        writes <out prefix>.1 .. .N, one test name a line
    e2e-split.py --merge <durations.tsv> <measured.tsv>
        prints the durations with the measured ones in their place

durations.tsv holds "<test name>\t<seconds>" lines, from earlier runs (scripts/e2e.sh leaves
the latest in target/e2e/durations.tsv). Longest first, each test goes to the shard with the
least time so far (the greedy "longest processing time" rule); a test with no recorded time
counts as the mean. The install tests (install::) install a package system-wide with apt-get,
so they run in one shard, one after another, never two at once.
"""

import sys


def read_durations(path):
    durations = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 2:
                    durations[parts[0]] = float(parts[1])
    except FileNotFoundError:
        pass
    return durations


def split(shards, durations, tests):
    default = sum(durations.values()) / len(durations) if durations else 60.0
    cost = {t: durations.get(t, default) for t in tests}
    # One block per test, but the install tests are one block together.
    install = [t for t in tests if t.startswith("install::")]
    blocks = [[t] for t in tests if not t.startswith("install::")]
    if install:
        blocks.append(install)
    blocks.sort(key=lambda b: (-sum(cost[t] for t in b), b[0]))
    loads = [0.0] * shards
    lists = [[] for _ in range(shards)]
    for block in blocks:
        i = loads.index(min(loads))
        lists[i].extend(block)
        loads[i] += sum(cost[t] for t in block)
    return lists, loads


def main(argv):
    if argv[1] == "--merge":
        durations = read_durations(argv[2])
        durations.update(read_durations(argv[3]))
        for name in sorted(durations):
            print(f"{name}\t{durations[name]:.1f}")
        return
    shards, durations_path, tests_path, out = int(argv[1]), argv[2], argv[3], argv[4]
    with open(tests_path) as f:
        tests = [line.strip() for line in f if line.strip()]
    lists, loads = split(shards, read_durations(durations_path), tests)
    for i, names in enumerate(lists, start=1):
        with open(f"{out}.{i}", "w") as f:
            f.writelines(name + "\n" for name in names)
        print(f"==> shard {i}: {len(names)} tests, about {loads[i - 1] / 60:.1f} min", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
