#!/usr/bin/env python3
"""Evaluate the shake detector on labelled traces the way a held-out set judges it.

Runs `shakyd detect` over every trace of a labelled split (see ../shared/traces/README.md) once per candidate
setting, scores with that split's own `score.py`, and prints:

1. plain figures: each candidate on the whole split (what tuning on the split would report);
2. leave-one-group-out cross-validation: for every group of recordings (a source, and within a source a session,
   a subject or a file group: see `group_of`), the candidate that scores best on all the *other* groups is
   chosen, and only its triggers on the left-out group are kept; the pooled left-out triggers are scored like
   any detector's. This is what choosing settings on these recordings is worth on recordings not seen;
3. calibration, judged honestly: each long recording with shakes is calibrated on its first part
   (`shakyd detect --calibrate-shaking … --calibrate-still …`) and scored on the rest only.

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
    """A small grid around `medium`: the brisk threshold and the sustained threshold, the two levels that move
    recall against false triggers the most; everything else stays at the preset."""
    out = dict(PRESETS)
    for threshold in (13, 14.5, 16, 17.5, 19):
        for sustained in (3.5, 4.5, 5.5):
            out[f"t{threshold:g}_s{sustained:g}"] = [
                "--sensitivity", "medium", "--threshold", str(threshold), "--sustained-threshold", str(sustained)]
    return out


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
    """What "best" means when choosing among candidates: found shakes count, a false trigger per hour costs about
    five phone shakes (0.05), a triggering gesture about as much as a missed Wiimote shake. Missing values (a
    group without that kind of recording) count as nothing."""
    def value(x):
        return 0.0 if x != x else x
    return (value(h["phone_recall"]) + value(h["wii_recall"]) - 0.05 * value(h["phone_fp_per_hour"])
            - value(h["gesture_share"]) - (0.2 if value(h["phone_latency"]) > 0.2 else 0.0))


def describe(h):
    return ("%.3f (%d/%d) / %.2f / %.2f s | %.3f (%d/%d) / %.1f %% (%d/%d)" % (
        h["phone_recall"], h["phone_hits"], h["phone_episodes"], h["phone_fp_per_hour"], h["phone_latency"],
        h["wii_recall"], h["wii_hits"], h["wii_episodes"], 100 * h["gesture_share"], h["gestures_triggered"],
        h["gestures"]))


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
    triggers = {}
    for name, args in candidates.items():
        triggers[name] = run_detect(a.shakyd, files, args, os.path.join(cache, name + ".csv"))

    report = {"plain": {}, "cross_validated": {}, "folds": {}}
    print("phone-like: recall (hits/shakes) / false triggers per hour / median latency | "
          "Wiimote: recall (hits/shakes) / non-shake gestures that trigger\n")
    print("Plain figures on the whole split (%d recordings):" % len(names))
    for name in candidates:
        h = headline(score, a.split, os.path.join(cache, name + ".csv"))
        report["plain"][name] = h
        print("  %-14s %s" % (name, describe(h)))

    # Leave one group out: choose on the others, keep the left-out group's triggers.
    by_file = {name: defaultdict(list) for name in candidates}
    for name, rows_ in triggers.items():
        for f, t in rows_:
            by_file[name][f].append(t)
    pooled = []
    chosen_counts = defaultdict(int)
    for group, members in sorted(groups.items()):
        training = [n for n in names if n not in set(members)]
        split = subset_split(a.work, manifest, labels, training, "train-" + group.replace("/", "_"))
        best, best_value = None, None
        for name in candidates:
            path = os.path.join(a.work, "splits", "t.csv")
            write_triggers(path, [(f, t) for f, t in triggers[name] if f in set(training)])
            value = objective(headline(score, split, path))
            if best_value is None or value > best_value + 1e-12:
                best, best_value = name, value
        chosen_counts[best] += 1
        report["folds"][group] = best
        pooled += [(f, t) for f in members for t in by_file[best][f]]
    pooled_path = os.path.join(cache, "cross-validated.csv")
    write_triggers(pooled_path, pooled)
    cv = headline(score, a.split, pooled_path)
    report["cross_validated"] = cv
    print("\nLeave-one-group-out cross-validation (%d groups; candidate chosen per fold: %s):" % (
        len(groups), ", ".join("%s ×%d" % kv for kv in sorted(chosen_counts.items(), key=lambda kv: -kv[1]))))
    print("  %-14s %s" % ("chosen", describe(cv)))

    gentler(a, score, manifest, labels, rows, names, candidates, report)

    if not a.no_calibration:
        calibration(a, score, manifest, labels, rows, cache, report)

    print("\nFull per-source table of the cross-validated triggers: python3 %s %s %s" % (
        score_path, a.split, pooled_path))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


def gentler(a, score, manifest, labels, rows, names, candidates, report):
    """Recall on the 10 Hz phone's shakes made gentler: each recording's motion (what remains after a centred
    1 s moving average, i.e. gravity) scaled down, as a stand-in for people who shake more softly."""
    import numpy as np
    phone10 = [n for n in names if rows[n]["rate_hz"] == "10"]
    if not phone10:
        return
    report["gentler"] = {}
    print("\nRecall on the 10 Hz phone's shakes with the motion scaled down (plain figures; false triggers "
          "per hour in brackets):")
    folder = os.path.join(a.work, "gentler")
    for factor in (0.75, 0.6):
        target = os.path.join(folder, "%g" % factor)
        os.makedirs(target, exist_ok=True)
        paths = []
        for n in phone10:
            path = os.path.join(target, n)
            if not os.path.exists(path):
                data = np.loadtxt(os.path.join(a.split, n), delimiter=",", skiprows=1, ndmin=2)
                kernel = np.ones(11) / 11
                gravity = np.column_stack([np.convolve(np.pad(data[:, i], 5, mode="edge"), kernel, "valid")
                                           for i in (1, 2, 3)])
                data[:, 1:] = gravity + factor * (data[:, 1:] - gravity)
                np.savetxt(path, data, delimiter=",", header="t,x,y,z", comments="", fmt="%.6f")
            paths.append(path)
        split = subset_split(a.work, manifest, labels, phone10, "phone10")
        line = []
        for name in ("medium",) + tuple(k for k in candidates if k not in PRESETS)[:0]:
            out = os.path.join(target, name + ".csv")
            with open(out, "w") as f:
                subprocess.run([a.shakyd, "detect", *candidates[name], *paths], stdout=f, check=True)
            stats, _ = score.score(split, out)
            s = score.summarize(stats)
            report["gentler"]["%g" % factor] = s
            line.append("%s %.3f (%d/%d) [%.2f]" % (name, s["recall"], s["hits"], s["episodes"], s["fp_per_hour"]))
        print("  ×%-5g %s" % (factor, "  ".join(line)))


def calibration(a, score, manifest, labels, rows, cache, report):
    """Calibrate on the first part of each long recording with shakes, score on the rest (and only the rest).

    The calibration part ends 1 s after the recording's third labelled shake (a host asks for a few seconds of
    shaking): its shakes are the "shake now" step, and its time outside shakes and "ignore" intervals (the
    person holding and handling the device) the "hold still" step, which is harder on the calibration than
    holding still."""
    shakes, ignored = defaultdict(list), defaultdict(list)
    for r in labels:
        if r["kind"] == "shake":
            shakes[r["file"]].append((float(r["start"]), float(r["end"])))
        elif r["kind"] == "ignore":
            ignored[r["file"]].append((float(r["start"]), float(r["end"])))
    eligible = [n for n in sorted(shakes) if float(rows[n]["duration_s"]) >= 30 and len(shakes[n]) >= 4]
    if not eligible:
        return
    out = os.path.join(cache, "calibrated.csv")
    base = os.path.join(cache, "uncalibrated-rest.csv")
    cut = {}
    with open(out, "w") as calibrated, open(base, "w") as uncalibrated:
        calibrated.write("file,t\n")
        uncalibrated.write("file,t\n")
        for n in eligible:
            episodes = sorted(shakes[n])
            end = episodes[2][1] + 1.0
            cut[n] = end
            busy = sorted(episodes[:3] + [(x, y) for x, y in ignored[n] if x < end])
            still, cursor = [], 0.0
            for x, y in busy:
                if x > cursor + 0.6:
                    still.append((cursor + 0.05, x - 0.05))
                cursor = max(cursor, y)
            arguments = []
            for x, y in episodes[:3]:
                arguments += ["--calibrate-shaking", "%g:%g" % (x, y)]
            for x, y in still:
                arguments += ["--calibrate-still", "%g:%g" % (x, y)]
            path = os.path.join(a.split, n)
            for extra, sink in ((arguments, calibrated), ([], uncalibrated)):
                result = subprocess.run([a.shakyd, "detect", *extra, path], capture_output=True, text=True,
                                        check=True)
                if extra:
                    print("  " + result.stderr.strip().replace(a.split + "/", ""))
                for r in csv.DictReader(result.stdout.splitlines()):
                    if float(r["t"]) > end:
                        sink.write(f"{r['file']},{r['t']}\n")
    # Score only the time after each cut: drop the earlier shakes and make the calibration part "ignore".
    folder = os.path.join(a.work, "splits", "calibration")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "manifest.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(manifest[0].keys()))
        w.writeheader()
        w.writerows(r for r in manifest if r["file"] in cut)
    with open(os.path.join(folder, "labels.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(labels[0].keys()))
        w.writeheader()
        for r in labels:
            if r["file"] in cut and (r["kind"] != "shake" or float(r["start"]) > cut[r["file"]]):
                w.writerow(r)
        for n, end in cut.items():
            w.writerow({"file": n, "start": 0.0, "end": end, "kind": "ignore"})
    report["calibration"] = {}
    print("Calibration scored on the rest of %s:" % ", ".join(eligible))
    for tag, path in (("medium", base), ("calibrated", out)):
        stats, _ = score.score(folder, path)
        s = score.summarize(stats)
        report["calibration"][tag] = s
        print("  %-14s recall %.3f (%d/%d) / %.2f false per hour / %.2f s" % (
            tag, s["recall"], s["hits"], s["episodes"], s["fp_per_hour"], s["median_latency_s"]))


if __name__ == "__main__":
    main()
