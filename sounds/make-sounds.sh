#!/usr/bin/env bash
# Synthesises every Shaky Words sound cue with sox: 16-bit mono 48000 Hz WAV, peak -1 dBFS.
#
# Usage: sounds/make-sounds.sh [OUTPUT_DIR]    (default: the folder holding this script)
# Needs sox (Debian package `sox`). The output is deterministic: no dither, no random noise.
set -euo pipefail

command -v sox >/dev/null || { echo "make-sounds.sh: sox is missing; install the Debian package sox" >&2; exit 1; }

out=${1:-$(cd "$(dirname "$0")" && pwd)}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rate=48000
# Every sox call: no dither (-D), so the files are the same on every run.
fmt=(-D -r "$rate" -b 16 -c 1)

# piece NAME LENGTH SYNTH-ARGS... [-- EFFECTS...] : one synthesised piece with a short attack and a release.
# It is made 12 dB quiet so that mixed tones and filters never clip; `finish` normalises.
piece() {
    local name=$1 length=$2
    shift 2
    local synth=() effects=()
    while (($#)) && [ "$1" != "--" ]; do synth+=("$1"); shift; done
    (($#)) && shift
    effects=("$@")
    sox "${fmt[@]}" -n "$work/$name.wav" synth "$length" "${synth[@]}" gain -12 "${effects[@]}" \
        fade q 0.004 "$length" "$(awk "BEGIN { print $length / 3 }")"
}

# rest NAME LENGTH : silence.
rest() {
    sox "${fmt[@]}" -n "$work/$1.wav" trim 0 "$2"
}

# finish CUE PIECES... : concatenates pieces, normalises to -1 dBFS, writes CUE.wav.
finish() {
    local cue=$1
    shift
    local inputs=()
    for p in "$@"; do inputs+=("$work/$p.wav"); done
    sox "${fmt[@]}" "${inputs[@]}" "$work/$cue-raw.wav"
    sox "${fmt[@]}" "$work/$cue-raw.wav" "$out/$cue.wav" gain -n -1
}

# hint: the shake sound, a quick rising shimmer (350 ms).
piece hint 0.35 sine 900:1800 sine mix 1350:2700 -- tremolo 28 60
finish hint hint

# buzz-0…7: one tone per team slot, a pentatonic scale from C5 (300 ms each).
buzz_notes=(523.25 587.33 659.26 783.99 880.00 1046.50 1174.66 1318.51)
for slot in "${!buzz_notes[@]}"; do
    f=${buzz_notes[$slot]}
    octave=$(awk "BEGIN { print $f * 2 }")
    piece "buzz-$slot" 0.3 square "$f" sine mix "$octave" -- lowpass 3000
    finish "buzz-$slot" "buzz-$slot"
done

# correct: a bright rising third and fifth.
piece correct-a 0.12 sine 1046.50 sine mix 2093.00
piece correct-b 0.30 sine 1318.51 sine mix 1567.98
finish correct correct-a correct-b

# wrong: a low falling buzz.
piece wrong 0.45 sawtooth 220:110 -- lowpass 1200
finish wrong wrong

# tick: a short woodblock-like click, once per second of the last five.
piece tick 0.04 sine 2200 sine mix 3300
finish tick tick

# time-up: three insistent beeps.
piece beep 0.14 square 880 -- lowpass 2500
rest gap 0.06
finish time-up beep gap beep gap beep

# round-over: a falling arpeggio.
piece ro-a 0.14 triangle 783.99
piece ro-b 0.14 triangle 659.26
piece ro-c 0.40 triangle 523.25
finish round-over ro-a ro-b ro-c

# game-over: a fanfare climbing to a held chord.
piece go-a 0.15 square 523.25 -- lowpass 2500
piece go-b 0.15 square 659.26 -- lowpass 2500
piece go-c 0.15 square 783.99 -- lowpass 2500
rest go-gap 0.05
piece go-d 0.90 square 1046.50 sine mix 1318.51 sine mix 1567.98 -- lowpass 3000
finish game-over go-a go-b go-c go-gap go-d

# startup: a soft two-note chime.
piece chime-a 0.30 sine 659.26 sine mix 1318.51
piece chime-b 0.60 sine 987.77 sine mix 1975.53
finish startup chime-a chime-b

# Check: every cue present, 48000 Hz mono 16-bit, not clipped.
for f in "$out"/*.wav; do
    peak=$(sox "$f" -n stat 2>&1 | awk '/Maximum amplitude/ { print $3 }')
    awk -v p="$peak" -v f="$f" 'BEGIN { if (p + 0 > 0.9) { print f ": peak " p " is above -1 dBFS" > "/dev/stderr"; exit 1 } }'
done
echo "wrote $(ls "$out"/*.wav | wc -l) cues to $out"
