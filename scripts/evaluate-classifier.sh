#!/usr/bin/env bash
# Evaluates `ptcoach train`'s sequence classifier on the development manifests by cross-validation,
# so every number comes from recordings the model was not trained on.
#
#   scripts/evaluate-classifier.sh [DATA_DIR]      (default: <repo>/../shared/data)
#
# Protocols:
#   UI-PRMD recognition   leave-one-subject-out (5 folds; each subject's 3 views held out together)
#   form sets             stratified 5-fold (3-fold for bicep curl: its smallest class has 3 clips),
#                         repeated with seeds 1..5; out-of-fold predictions of all repeats pooled
# Metrics: precision = TP/(TP+FP), recall = TP/(TP+FN), F1 = 2PR/(P+R) per class;
#   weighted F1 = mean of per-class F1 weighted by the number of true examples (scikit-learn "weighted");
#   accuracy = correct / all.
#   bicep curl also leave-one-out (9 clips: 3-fold leaves only 2 good clips to train on)
# Model (`--method automatic`, the default of `ptcoach train`): logistic regression on summary features,
# or, when one of them cross-validates better *inside each training fold* (leave-one-out up to 30
# recordings, else stratified 5-fold) by more than 0.32*sqrt(n) recordings, logistic regression on ~30
# form features or DTW 1-nearest-neighbour on 32-step angle/height trajectories (band 8).
# What was tuned on what: L2 0.03 and 16 time bins (earlier), trajectory length/band and the selection
# margin 0.32 were chosen on UI-PRMD (leave-one-subject-out) and push-ups only; the form features were
# designed from Pose Trainer's paper (upper arm moving, curl depth, wrist height, trunk lean), not fitted.
# The Pose Trainer sets were not used to choose any setting. `--method logistic` gives the old model.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-$repo/../shared/data}"
manifests="$data/manifests"
[ -d "$manifests" ] || { echo "Error: no manifests at $manifests; pass the data folder as the first argument" >&2; exit 1; }

scratch="${SCRATCH:-$repo/.build-evaluate}"
swift build -c release --scratch-path "$scratch" --product ptcoach >&2
ptcoach="$scratch/release/ptcoach"

run() { "$ptcoach" evaluate-classifier "$@"; echo; }
run --manifest "$manifests/exercise-uiprmd-train.csv" --group-by subject
run --manifest "$manifests/form-pushup-train.csv" --folds 5 --repeats 5
for exercise in bicep-curl front-raise shoulder-press shoulder-shrug; do
    run --manifest "$manifests/form-pose-trainer-$exercise-train.csv" --folds 5 --repeats 5
done
run --manifest "$manifests/form-pose-trainer-bicep-curl-train.csv" --leave-one-out

# Timing of the user-facing commands: train on all 90 UI-PRMD files, predict them.
model="$(mktemp -t ptcoach-model.XXXXXX.json)"
trap 'rm -f "$model"' EXIT
start=$(date +%s.%N)
"$ptcoach" train --manifest "$manifests/exercise-uiprmd-train.csv" --out "$model" | tail -3
mid=$(date +%s.%N)
"$ptcoach" predict --model "$model" --manifest "$manifests/exercise-uiprmd-train.csv" --json | tail -1 | cut -c1-80
end=$(date +%s.%N)
echo "train (incl. 5-fold CV summary) $(echo "$mid - $start" | bc) s, predict 90 files $(echo "$end - $mid" | bc) s (release)"
