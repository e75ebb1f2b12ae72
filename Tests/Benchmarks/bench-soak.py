#!/usr/bin/env python3
"""A long party against one shakyd: many games in a row while watchers come and go, to show what stays and what grows.

Starts shakyd (the given binary, `--input demo --sound-device none`, a state folder of its own) and plays --games games
of --questions questions for three teams through the Varlink interface, as a host's tools do: each question is
opened, hinted, buzzed by every team and answered in buzz order (one question in four right, the others wrong, so
some games have winners and some none), and after each game the scoreboard, the history, the leaderboard and a pack
search are read. Meanwhile --watchers Game.Watch calls are held, each hanging up after a few events and calling
again, as phones and a board that reconnect do.

Every --every games it prints shakyd's resident memory split into anonymous memory (heap, stacks: what a leak grows)
and pages of files (its code and libraries, as each path first runs), its open file descriptors and threads, and the
database's size; at the end, the growth of each per 1000 games from the first row (taken after one game, so start-up is
not counted as growth) and over the run's second half (what keeps growing once the party is under way). Then it stops
shakyd and starts it again on the party's database, as after a reboot, and prints what that start-up (which reads every
page of the file once) keeps and peaks at.

Run by `make bench-soak`; needs the Python varlink client (`make setup` puts it in .venv).
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import varlink

from daemon_probe import listening, status

TEAMS = ["Owls", "Foxes", "Bees"]


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shakyd", required=True, help="the shakyd binary")
    parser.add_argument("--games", type=int, default=2000, help="games played (default 2000)")
    parser.add_argument("--questions", type=int, default=5, help="questions a game (default 5)")
    parser.add_argument("--watchers", type=int, default=5, help="Game.Watch calls held and renewed (default 5)")
    parser.add_argument("--every", type=int, default=250, help="games between rows (default 250)")
    return parser.parse_args()


def megabytes(path):
    return os.path.getsize(path) / 1024 / 1024 if os.path.exists(path) else 0


def sample(pid, database):
    fields = status(pid)
    return {
        "rss": fields["VmRSS"] / 1024,
        "anon": fields["RssAnon"] / 1024,
        "file": fields["RssFile"] / 1024,
        "fds": len(os.listdir("/proc/%d/fd" % pid)),
        "threads": fields["Threads"],
        "database": megabytes(database),
        "log": megabytes(database + "-wal"),
    }


class Watchers:
    """Game.Watch calls that each read a few events, hang up and call again."""

    def __init__(self, address, count):
        self.address = address
        self.stopping = threading.Event()
        self.calls = 0
        self.failures = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.watch, args=(seed,), daemon=True) for seed in range(count)]
        for thread in self.threads:
            thread.start()

    def watch(self, seed):
        chooser = random.Random(seed)
        while not self.stopping.is_set():
            try:
                with varlink.Client(address=self.address) as client, client.open("io.shakywords.Game") as game:
                    with self.lock:
                        self.calls += 1
                    wanted = chooser.randint(3, 40)
                    for count, _ in enumerate(game.Watch(_more=True)):
                        if count >= wanted or self.stopping.is_set():
                            break
            except Exception:  # the daemon stopping under it, or a refusal: counted, then called again
                with self.lock:
                    self.failures += 1
                time.sleep(0.1)

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join(5)


def answers_by_question(packs):
    answers = {}
    for pack in packs.List()["packs"]:
        for question in packs.Show(pack["name"])["questions"]:
            answers[question["text"]] = question["answer"]
    return answers


def play_game(game, packs, answers, questions, number):
    """Plays one game; returns how many answers were judged, and how many of them right."""
    judged = right_ones = 0
    game.New(TEAMS, None, questions, None, None, None, True)
    for index in range(questions):
        status = game.Next()["status"]
        if status["phase"] != "indication":
            break
        try:
            game.Hint()
        except varlink.VarlinkError:  # hints come at most every 1.5 s; a refusal is part of a game
            pass
        for team in TEAMS:
            game.Buzz(team)
        right = (number + index) % 4
        for _ in TEAMS:
            status = game.Status()["status"]
            if status["phase"] != "answering":
                break
            up = status["teamUp"]
            right_answer = answers.get(status.get("question"))
            reply = game.Answer(up, right_answer if right == TEAMS.index(up) and right_answer else "no idea")
            judged += 1
            right_ones += 1 if reply["correct"] else 0
    if game.Status()["status"]["phase"] == "roundOver":
        game.Next()  # after the last question: the game is over, and goes into the history and the leaderboard
    game.Scoreboard()
    game.History(10)
    game.Leaderboard(10)
    packs.Search("river", None, 20)
    return judged, right_ones


def start_daemon(shakyd, folder, log):
    """Starts shakyd on the folder's state and socket and waits until it answers; exits with its log if it cannot."""
    socket_path = os.path.join(folder, "shaky.sock")
    daemon = subprocess.Popen(
        [shakyd, "--input", "demo", "--sound-device", "none", "--state-dir", os.path.join(folder, "state"),
         "--socket", socket_path], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while not listening(socket_path):
        if daemon.poll() is not None or time.monotonic() > deadline:
            stop_daemon(daemon)
            log.flush()
            with open(log.name) as written:
                sys.exit("shakyd did not start; it said:\n" + written.read())
        time.sleep(0.05)
    return daemon


def stop_daemon(daemon):
    if daemon.poll() is None:
        daemon.terminate()
        daemon.wait(15)


def main():
    options = arguments()
    folder = tempfile.mkdtemp(prefix="shaky-soak-")
    address = "unix:" + os.path.join(folder, "shaky.sock")
    database = os.path.join(folder, "state", "shaky.sqlite")
    log = open(os.path.join(folder, "shakyd.log"), "w")
    daemon = None
    try:
        daemon = start_daemon(options.shakyd, folder, log)
        watchers = Watchers(address, options.watchers)
        rows = []
        started = time.monotonic()
        judged = right_ones = 0
        print("%6s %8s %8s %8s %5s %7s %7s %7s %7s" % (
            "games", "RSS MiB", "anon", "files", "fds", "threads", "DB MiB", "WAL", "s"))
        with varlink.Client(address=address) as client, client.open("io.shakywords.Game") as game, \
                client.open("io.shakywords.Packs") as packs:
            answers = answers_by_question(packs)
            for number in range(1, options.games + 1):
                game_judged, game_right = play_game(game, packs, answers, options.questions, number)
                judged += game_judged
                right_ones += game_right
                if number == 1 or number % options.every == 0 or number == options.games:
                    row = sample(daemon.pid, database)
                    row["games"] = number
                    rows.append(row)
                    print("%6d %8.1f %8.1f %8.1f %5d %7d %7.2f %7.2f %7.0f" % (
                        number, row["rss"], row["anon"], row["file"], row["fds"], row["threads"], row["database"],
                        row["log"], time.monotonic() - started), flush=True)
        watchers.stop()
        # Growth over the whole run, and over its second half: what keeps growing once the party is under way.
        middle = min(rows, key=lambda row: abs(row["games"] - options.games / 2))
        for name, first in (("after the first game", rows[0]), ("over the second half", middle)):
            last = rows[-1]
            per = 1000 / max(1, last["games"] - first["games"])
            print("per 1000 games %s: anonymous %+.2f MiB, files %+.2f MiB, descriptors %+.0f, threads %+.0f, "
                  "database with its log %+.2f MiB" % (
                      name, (last["anon"] - first["anon"]) * per, (last["file"] - first["file"]) * per,
                      (last["fds"] - first["fds"]) * per, (last["threads"] - first["threads"]) * per,
                      (last["database"] + last["log"] - first["database"] - first["log"]) * per))
        print("answers judged: %d, right: %d; watch calls: %d, of which failed: %d" % (
            judged, right_ones, watchers.calls, watchers.failures))
        if daemon.poll() is not None:
            sys.exit("shakyd exited (status %d) during the soak" % daemon.returncode)
        # A restart on the party's database, as after a reboot: what its start-up (the check of every page, the
        # saved game) and a first look at the history cost.
        stop_daemon(daemon)
        daemon = start_daemon(options.shakyd, folder, log)
        with varlink.Client(address=address) as client, client.open("io.shakywords.Game") as game:
            game.Status()
            game.History(10)
            game.Leaderboard(10)
        fields = status(daemon.pid)
        print("restarted on it (database %.2f MiB): RSS %.1f MiB (anonymous %.1f), peak %.1f MiB" % (
            megabytes(database), fields["VmRSS"] / 1024, fields["RssAnon"] / 1024, fields["VmHWM"] / 1024))
    finally:
        if daemon is not None:
            stop_daemon(daemon)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
