#!/usr/bin/env python3
"""Evaluate the shake detector on labelled traces the way a held-out set judges it.

Runs `shakyd detect` over every trace of a labelled split (see ../shared/traces/README.md) once per candidate
setting, scores with that split's own `score.py`, and prints:

1. plain figures: each candidate on the whole split (what tuning on the split would report);
2. leave-one-group-out cross-validation: for every group of recordings (a source, and within a source a session,
   a subject or a file group: see `group_of`), the candidate that scores best on all the *other* groups is
   chosen, and only its triggers on the left-out group are kept; the pooled left-out triggers are scored like
   any detector's. This is what choosing settings on these recordings is worth on recordings not seen;
3. recall on the 10 Hz phone's shakes made gentler (the motion scaled down), a stand-in for softer players;
4. the presets on the Arduino board's and the Wiimote's recordings made gentler and harder (the motion scaled by
   0.75, 1.5 and 2), a stand-in for other people's gestures and shakes: a sound design finds more shakes and no
   fewer when they are harder, and turns away gestures whatever their strength;
5. calibration, judged honestly: the 10 Hz phone is calibrated once on the start of its longest recording
   (`shakyd detect --calibration-trace … --calibrate-shaking … --calibrate-still …`) and scored on the rest.

Usage:
  cross_validate.py [--shakyd PATH] [--split DIR] [--work DIR] [--candidates presets|grid]

Nothing here is tuned: the candidates are a small grid around the presets, and the objective below says what
"best" means (the targets: phone-like recall >= 0.92 at <= 0.8 false triggers per hour, Wiimote recall >= 0.96
with <= 4 % of its non-shake gestures triggering).
"""
import argparse
import csv
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

# Candidate settings: name -> extra `shakyd detect` arguments. The presets first.
PRESETS = {
    "light": ["--sensitivity", "light"],
    "medium": ["--sensitivity", "medium"],
    "hard": ["--sensitivity", "hard"],
}


def grid():
    """A small grid around `medium`, one parameter at a time, everything else at the preset: the share of the brisk
    threshold that counts below 20 Hz (the 10 Hz phone sees only a few points of each stroke), the rotation limit
    (off at 1), the sustained window's crest-factor limit (off at 100) and the cooldown.

    The brisk threshold itself is not a candidate: it is what calibration sets per device (and what a host moves by
    choosing a preset), and choosing it on these recordings buys gentler shakes with the Arduino board's vigorous
    "random motion" (2-3.5 g swings along one line), which no threshold/cooldown rule tells from a short shake. Its
    neighbours are shown as plain rows (see THRESHOLD_ROWS)."""
    out = dict(PRESETS)
    for share in (0.7, 0.8):  # 0.75 is medium's
        out[f"c{share:g}"] = ["--sensitivity", "medium", "--coarse-threshold-share", str(share)]
    for rotation in (0.3, 0.5, 1.0):  # 0.4 is medium's
        out[f"r{rotation:g}"] = ["--sensitivity", "medium", "--maximum-rotation", str(rotation)]
    for crest in (2.5, 3.5, 100):  # 2√2 is medium's
        out[f"k{crest:g}"] = ["--sensitivity", "medium", "--sustained-maximum-crest-factor", str(crest)]
    for cooldown in (0.45, 1.0):  # 0.75 is medium's
        out[f"cd{cooldown:g}"] = ["--sensitivity", "medium", "--cooldown", str(cooldown)]
    return out


# Plain figures only (never chosen in the cross-validation): `medium` with other brisk thresholds.
THRESHOLD_ROWS = {
    f"t{threshold:g}": ["--sensitivity", "medium", "--threshold", str(threshold)] for threshold in (14.5, 15, 17, 17.5)
}


def group_of(name, row):
    """The cross-validation group of one recording: its source plus a session, subject or file group."""
    source = row["source"]
    if source == "shakeassign":
        return f"{source}/{name.rsplit('_', 1)[-1][:-4]}"  # one recording session per file
    if source == "unitn":
        index = int(re.search(r"_w(\d+)", name).group(1))
        return f"{source}/w{index // 5 * 5:02d}-{index // 5 * 5 + 4:02d}"  # consecutive windows of each class
    if source == "oxford_stepcounter":
        return f"{source}/{row['subject']}/{row['device'][:12]}"
    if source == "hmp_wrist":
        month = re.search(r"_(\d{4}-\d{2})-", name).group(1)
        return f"{source}/{month}"  # recording month
    if source == "wiimote":
        if row["subject"] != "unknown":
            return f"{source}/{row['subject']}"
        return f"{source}/gesture-{name.split('_')[1]}"  # unknown people: one gesture kind at a time
    return f"{source}/{name}"


def load_score_module(split):
    path = os.path.join(split, "..", "score.py")
    spec = importlib.util.spec_from_file_location("score", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def write_triggers(path, rows):
    with open(path, "w") as f:
        f.write("file,t\n")
        for name, t in rows:
            f.write(f"{name},{t}\n")


def run_detect(shakyd, files, args, out_path):
    """Runs `shakyd detect` once over all files; returns [(file, t)]."""
    if not os.path.exists(out_path):
        with open(out_path + ".tmp", "w") as out:
            subprocess.run([shakyd, "detect", *args, *files], stdout=out, check=True)
        os.replace(out_path + ".tmp", out_path)
    return [(r["file"], r["t"]) for r in read_csv(out_path)]


def subset_split(work, manifest, labels, names, tag):
    """A split folder holding only `names` (score.py reads only manifest.csv and labels.csv)."""
    folder = os.path.join(work, "splits", tag)
    os.makedirs(folder, exist_ok=True)
    keep = set(names)
    for file_name, rows in (("manifest.csv", manifest), ("labels.csv", labels)):
        with open(os.path.join(folder, file_name), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            writer.writeheader()
            writer.writerows(r for r in rows if r["file"] in keep)
    return folder


def headline(score, split, triggers_path):
    stats, _ = score.score(split, triggers_path)
    phone = score.summarize(stats, score.phone_like_sources(stats))
    wii = score.summarize(stats, ["wiimote"]) if "wiimote" in stats else None
    gestures = score.gesture_share(split, triggers_path)
    return dict(
        phone_recall=phone["recall"], phone_hits=phone["hits"], phone_episodes=phone["episodes"],
        phone_fp_per_hour=phone["fp_per_hour"], phone_fp=phone["fp"], phone_latency=phone["median_latency_s"],
        wii_recall=wii["recall"] if wii else float("nan"), wii_hits=wii["hits"] if wii else 0,
        wii_episodes=wii["episodes"] if wii else 0,
        gesture_share=gestures["share"], gestures_triggered=gestures["triggered"],
        gestures=gestures["recordings"])


def objective(h):
    """What "best" means when choosing among candidates: found shakes count (also those of the gentler copies:
    softer players), a false trigger per hour costs about five phone shakes (0.05), a triggering gesture about as
    much as a missed Wiimote shake, a median latency over 0.2 s a fifth of all shakes. Missing values (a group
    without that kind of recording) count as nothing."""
    def value(x):
        return 0.0 if x != x else x
    return (value(h["phone_recall"]) + value(h.get("gentler_recall", float("nan"))) + value(h["wii_recall"])
            - 0.05 * value(h["phone_fp_per_hour"]) - value(h["gesture_share"])
            - (0.2 if value(h["phone_latency"]) > 0.2 else 0.0))


def describe(h):
    return ("%.3f (%d/%d) / %.2f / %.2f s | %.3f (%d/%d) / %.1f %% (%d/%d) | %.3f (%d/%d)" % (
        h["phone_recall"], h["phone_hits"], h["phone_episodes"], h["phone_fp_per_hour"], h["phone_latency"],
        h["wii_recall"], h["wii_hits"], h["wii_episodes"], 100 * h["gesture_share"], h["gestures_triggered"],
        h["gestures"], h.get("gentler_recall", float("nan")), h.get("gentler_hits", 0),
        h.get("gentler_episodes", 0)))


def with_gentler(score, split, h, gentle_path):
    """Adds the recall on the gentler copies (scored against the same labels) to the figures `h`."""
    stats, _ = score.score(split, gentle_path)
    s = score.summarize(stats, ["shakeassign"]) if "shakeassign" in stats else None
    if s and s["episodes"]:
        h.update(gentler_recall=s["recall"], gentler_hits=s["hits"], gentler_episodes=s["episodes"])
    return h


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shakyd", default=os.path.join(ROOT, ".build", "release", "shakyd"))
    parser.add_argument("--split", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "traces", "dev")))
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "detector-evaluation"))
    parser.add_argument("--candidates", choices=("presets", "grid"), default="grid")
    parser.add_argument("--no-calibration", action="store_true", help="skip the calibration evaluation")
    parser.add_argument("--json", help="also write every figure to this file")
    a = parser.parse_args()

    score, score_path = load_score_module(a.split)
    manifest = read_csv(os.path.join(a.split, "manifest.csv"))
    labels = read_csv(os.path.join(a.split, "labels.csv"))
    rows = {r["file"]: r for r in manifest}
    names = sorted(rows)
    files = [os.path.join(a.split, n) for n in names]
    groups = defaultdict(list)
    for n in names:
        groups[group_of(n, rows[n])].append(n)

    # The binary's identity keys the cache, so a rebuilt detector is rerun.
    stamp = "%d-%d" % (os.stat(a.shakyd).st_mtime_ns, os.stat(a.shakyd).st_size)
    cache = os.path.join(a.work, stamp)
    os.makedirs(cache, exist_ok=True)
    candidates = PRESETS if a.candidates == "presets" else grid()
    rows_only = {} if a.candidates == "presets" else THRESHOLD_ROWS
    gentle_files = gentler_copies(a, rows, names)
    triggers, gentle = {}, {}
    for name, args in {**candidates, **rows_only}.items():
        triggers[name] = run_detect(a.shakyd, files, args, os.path.join(cache, name + ".csv"))
        gentle[name] = run_detect(a.shakyd, gentle_files, args, os.path.join(cache, name + "-gentler.csv"))

    report = {"plain": {}, "cross_validated": {}, "folds": {}}
    print("phone-like: recall (hits/shakes) / false triggers per hour / median latency | "
          "Wiimote: recall (hits/shakes) / non-shake gestures that trigger | "
          "recall on the 10 Hz phone's shakes at %g× strength (see gentler_copies)\n" % GENTLER)
    print("Plain figures on the whole split (%d recordings):" % len(names))
    for name in [*candidates, *rows_only]:
        h = headline(score, a.split, os.path.join(cache, name + ".csv"))
        with_gentler(score, a.split, h, os.path.join(cache, name + "-gentler.csv"))
        report["plain"][name] = h
        print("  %-14s %s%s" % (name, describe(h), "  (not a candidate)" if name in rows_only else ""))

    # Leave one group out: choose on the others, keep the left-out group's triggers.
    by_file = {name: defaultdict(list) for name in candidates}
    for name in candidates:
        for f, t in triggers[name]:
            by_file[name][f].append(t)
    pooled, pooled_gentle = [], []
    chosen_counts = defaultdict(int)
    for group, members in sorted(groups.items()):
        training = [n for n in names if n not in set(members)]
        split = subset_split(a.work, manifest, labels, training, "train-" + group.replace("/", "_"))
        best, best_value = None, None
        for name in candidates:
            path = os.path.join(a.work, "splits", "t.csv")
            write_triggers(path, [(f, t) for f, t in triggers[name] if f in set(training)])
            gentle_path = os.path.join(a.work, "splits", "g.csv")
            write_triggers(gentle_path, [(f, t) for f, t in gentle[name] if f in set(training)])
            value = objective(with_gentler(score, split, headline(score, split, path), gentle_path))
            if best_value is None or value > best_value + 1e-12:
                best, best_value = name, value
        chosen_counts[best] += 1
        report["folds"][group] = best
        pooled += [(f, t) for f in members for t in by_file[best][f]]
        pooled_gentle += [(f, t) for f, t in gentle[best] if f in set(members)]
    pooled_path = os.path.join(cache, "cross-validated.csv")
    write_triggers(pooled_path, pooled)
    pooled_gentle_path = os.path.join(cache, "cross-validated-gentler.csv")
    write_triggers(pooled_gentle_path, pooled_gentle)
    cv = with_gentler(score, a.split, headline(score, a.split, pooled_path), pooled_gentle_path)
    report["cross_validated"] = cv
    print("\nLeave-one-group-out cross-validation (%d groups; candidate chosen per fold: %s):" % (
        len(groups), ", ".join("%s ×%d" % kv for kv in sorted(chosen_counts.items(), key=lambda kv: -kv[1]))))
    print("  %-14s %s" % ("chosen", describe(cv)))

    strength(a, rows, names, cache, report)

    if not a.no_calibration:
        calibration(a, score, manifest, labels, rows, cache, report)

    print("\nFull per-source table of the cross-validated triggers: python3 %s %s %s" % (
        score_path, a.split, pooled_path))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


GENTLER = 0.75
STRENGTHS = (0.75, 1.0, 1.5, 2.0)


def scaled_copy(source, target, scale):
    """Writes `source` to `target` with the motion (what remains after a centred moving average over about 1 s,
    i.e. gravity) scaled by `scale`."""
    import numpy as np
    data = np.loadtxt(source, delimiter=",", skiprows=1, ndmin=2)
    width = int(round(1 / max(float(np.median(np.diff(data[:, 0]))), 1e-3))) | 1
    kernel = np.ones(width) / width
    gravity = np.column_stack([np.convolve(np.pad(data[:, i], width // 2, mode="edge"), kernel, "valid")
                               for i in (1, 2, 3)])
    data[:, 1:] = gravity + scale * (data[:, 1:] - gravity)
    np.savetxt(target, data, delimiter=",", header="t,x,y,z", comments="", fmt="%.6f")


def strength(a, rows, names, cache, report):
    """The presets on the Arduino board's and the Wiimote's recordings with their motion scaled (see STRENGTHS):
    shakes found and recordings of everything else that trigger, per kind."""
    chosen = [n for n in names if rows[n]["source"] in ("unitn", "wiimote")]
    if not chosen:
        return
    kinds = {n: n.split("_")[1] for n in chosen}
    print("\nShakes found and other recordings that trigger, with the motion scaled (Arduino board: shake / other "
          "windows | Wiimote: shake / other gestures):")
    report["strength"] = {}
    for scale in STRENGTHS:
        folder = os.path.join(a.work, "strength-%g" % scale)
        os.makedirs(folder, exist_ok=True)
        paths = []
        for n in chosen:
            path = os.path.join(folder, n)
            if not os.path.exists(path):
                scaled_copy(os.path.join(a.split, n), path, scale)
            paths.append(path)
        for preset, args in PRESETS.items():
            fired = {f for f, _ in run_detect(a.shakyd, paths, args, os.path.join(cache, "%s-x%g.csv" % (preset, scale)))}
            counts = {}
            for n in chosen:
                key = (rows[n]["source"], kinds[n] == "shake")
                total, hit = counts.get(key, (0, 0))
                counts[key] = (total + 1, hit + (n in fired))
            def share(source, shake):
                total, hit = counts.get((source, shake), (0, 0))
                return "%d/%d" % (hit, total)
            figures = (share("unitn", True), share("unitn", False), share("wiimote", True), share("wiimote", False))
            report["strength"]["%s x%g" % (preset, scale)] = figures
            print("  ×%-4g %-7s %s / %s | %s / %s" % (scale, preset, *figures))


def gentler_copies(a, rows, names):
    """Copies of the 10 Hz phone's recordings with the motion (what remains after a centred 1 s moving average,
    i.e. gravity) scaled to GENTLER of its strength: a stand-in for people who shake more softly, whose shakes
    the held-out recordings show a 10 Hz phone missing. Same names, so the same labels score them."""
    import numpy as np
    target = os.path.join(a.work, "gentler-%g" % GENTLER)
    os.makedirs(target, exist_ok=True)
    paths = []
    for n in names:
        if rows[n]["rate_hz"] != "10":
            continue
        path = os.path.join(target, n)
        if not os.path.exists(path):
            data = np.loadtxt(os.path.join(a.split, n), delimiter=",", skiprows=1, ndmin=2)
            kernel = np.ones(11) / 11
            gravity = np.column_stack([np.convolve(np.pad(data[:, i], 5, mode="edge"), kernel, "valid")
                                       for i in (1, 2, 3)])
            data[:, 1:] = gravity + GENTLER * (data[:, 1:] - gravity)
            np.savetxt(path, data, delimiter=",", header="t,x,y,z", comments="", fmt="%.6f")
        paths.append(path)
    return paths


def calibration(a, score, manifest, labels, rows, cache, report):
    """Calibrate once per device on the start of its longest recording, score on everything else it recorded.

    Like a host calibrating a device once: the first labelled shakes of the 10 Hz phone's longest recording
    (from 0.5 s before each, until 3 s of shaking are covered) are the "shake now" step, and the two calmest
    2-s stretches between them the "hold still" step.
    Everything up to 1 s after the last of those shakes is then left out of the scoring, in every recording
    of that device only that file's beginning."""
    shakes, ignored = defaultdict(list), defaultdict(list)
    for r in labels:
        if r["kind"] == "shake":
            shakes[r["file"]].append((float(r["start"]), float(r["end"])))
        elif r["kind"] == "ignore":
            ignored[r["file"]].append((float(r["start"]), float(r["end"])))
    device = sorted(n for n in rows if rows[n]["rate_hz"] == "10")
    if not device:
        return
    source = max(device, key=lambda n: len(shakes[n]))
    episodes = sorted(shakes[source])
    used, covered = [], 0.0
    for x, y in episodes:
        used.append((x, y))
        covered += y - x
        if covered >= 3.0:
            break
    end = used[-1][1] + 1.0
    # "Hold still": the two calmest 2-s stretches of the calibration part outside shakes and "ignore" intervals
    # (the recording has no deliberate rest; handling it is harder on the calibration than holding still).
    import numpy as np
    busy = used + [(x, y) for x, y in ignored[source] if x < end]
    data = np.loadtxt(os.path.join(a.split, source), delimiter=",", skiprows=1, ndmin=2)
    spans = []
    for start in np.arange(0.0, end - 2.0, 0.5):
        if any(x - 0.5 < start + 2.0 and start < y + 0.5 for x, y in busy):
            continue
        part = data[(data[:, 0] >= start) & (data[:, 0] < start + 2.0), 1:]
        if len(part) > 5:
            spans.append((float(np.linalg.norm(part - part.mean(0), axis=1).std()), start))
    still = []
    for _, start in sorted(spans):
        if all(abs(start - s) >= 2.0 for s, _ in still):
            still.append((start, start + 2.0))
        if len(still) == 2:
            break
    arguments = ["--calibration-trace", os.path.join(a.split, source)]
    for x, y in used:
        arguments += ["--calibrate-shaking", "%g:%g" % (x - 0.5, y)]
    for x, y in still:
        arguments += ["--calibrate-still", "%g:%g" % (x, y)]
    paths = [os.path.join(a.split, n) for n in device]
    out = os.path.join(cache, "calibrated.csv")
    base = os.path.join(cache, "uncalibrated.csv")
    for extra, sink in ((arguments, out), ([], base)):
        result = subprocess.run([a.shakyd, "detect", *extra, *paths], capture_output=True, text=True, check=True)
        if extra:
            print("\n" + result.stderr.strip().replace(a.split + "/", ""))
        with open(sink, "w") as f:
            f.write("file,t\n")
            for r in csv.DictReader(result.stdout.splitlines()):
                if r["file"] != source or float(r["t"]) > end:
                    f.write(f"{r['file']},{r['t']}\n")
    folder = os.path.join(a.work, "splits", "calibration")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "manifest.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(manifest[0].keys()))
        w.writeheader()
        w.writerows(r for r in manifest if r["file"] in device)
    with open(os.path.join(folder, "labels.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(labels[0].keys()))
        w.writeheader()
        for r in labels:
            if r["file"] in device and (r["file"] != source or r["kind"] != "shake" or float(r["start"]) > end):
                w.writerow(r)
        w.writerow({"file": source, "start": 0.0, "end": end, "kind": "ignore"})
    report["calibration"] = {}
    print("Calibrated on %s up to %.1f s (%d shakes), scored on the rest of the device's recordings:" % (
        source, end, len(used)))
    for tag, path in (("medium", base), ("calibrated", out)):
        stats, _ = score.score(folder, path)
        s = score.summarize(stats)
        report["calibration"][tag] = s
        print("  %-14s recall %.3f (%d/%d) / %.2f false per hour / %.2f s" % (
            tag, s["recall"], s["hits"], s["episodes"], s["fp_per_hour"], s["median_latency_s"]))


if __name__ == "__main__":
    main()
