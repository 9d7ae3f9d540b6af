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
#   the four Pose Trainer sets also leave-one-out (bicep curl: 9 clips, 3 good; 3-fold leaves 2 good to train on)
# Model (`--method automatic`, the default of `ptcoach train`), decided inside each training fold:
#   up to 30 training recordings (every Pose Trainer fold): the majority vote of three models trained on
#     the fold: logistic regression on summary features, logistic regression on 18 form features of the
#     active side (elbow angle, upper arm against trunk, elbow travel, wrist height and travel, trunk lean:
#     5th/95th percentile and range) and DTW 1-nearest-neighbour on 32-step angle/height trajectories of
#     the active side (band 8);
#   above 30 (UI-PRMD, push-ups): logistic regression, unless form logistic or DTW cross-validates better
#     *inside the training fold* (stratified 5-fold) by more than 0.32*sqrt(n) recordings.
# The "active side" is the side whose joints move more in the recording; the other side is left out of
# the form features and trajectories (in side views it is hidden or guessed), and a joint is used only
# when seen in 80% of the frames of an average training recording.
# Every logistic regression weighs its classes equally (scikit-learn's class_weight="balanced"), so a small class
#   is not outvoted by its size: chosen as the general default, it changed only the bicep curls (9 clips, 3 good;
#   leave-one-out 0.410 -> 0.556, 3-fold 0.568 unchanged); every other figure here stayed the same.
# What was tuned on what: L2 0.03 and 16 time bins (earlier), trajectory length/band and the selection
# margin 0.32 were chosen on UI-PRMD (leave-one-subject-out) and push-ups only; the form features were
# designed from Pose Trainer's paper (upper arm moving, curl depth, wrist height, trunk lean), not fitted.
# The active-side-only features, the 80% coverage, leaving the head out of the trajectories and the vote
# for small training sets were decided by looking at these same dev sets (per-model cross-validation,
# bicep-curl keypoints); no number was fitted to them, and every figure this script prints still comes from
# folds whose model never saw the scored clip. `--method logistic` (or form-logistic, nearest-neighbor, vote)
# gives one model alone.
#
# Form rules as features: every form manifest's recordings name one library exercise in their header
# (`exercise` label), so `ptcoach train`/`evaluate-classifier` also measure that exercise's form rules
# (Sources/CoachKit/Resources/Exercises/<id>.json, thresholds written from the clinical literature, not
# from these clips) over each recording: per rule the margin past its bound (95th/5th percentile over the
# recording, or the median over the peak tenth of the frames for `at: peak` rules) and the share of frames
# past it, plus the primary angle's range (RuleFeatureSpec). With rules, training sets of at most 30
# recordings take the "rule vote": the vote above plus the coach's own verdict (any rule broken), mapped
# to labels by per-label rates in the training fold (RuleVerdict); above 30 a rule model (logistic on the
# rule features, or the verdict) is one more candidate against logistic regression by the same margin.
# That design is the second of two tried on these dev sets: the first let inner leave-one-out counts pick
# a rule model for small sets and lost on bicep curls (LOO 0.242). One exception since: when the verdict
# alone gets every held-out training recording right, it is chosen (it learns no threshold, so that count
# is not fitted). Exception to "not from these clips": bicep-curl's `elbow-still` rule (the upper arm's
# inclination against the vertical may change by at most 18 degrees) was added after measuring these 9
# clips (good 9-11, bad 21-74 between the 5th and 95th percentiles; the real sample curl video 15), so
# its bicep-curl figures are on the clips it was written from. Every set is printed twice: with the
# rules (default) and with `--exercise none` (the classifier as it was before).
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
for rules in header none; do
    options=()
    [ "$rules" = none ] && options=(--exercise none)
    run --manifest "$manifests/form-pushup-train.csv" --folds 5 --repeats 5 "${options[@]}"
    run --manifest "$manifests/form-pushup-train.csv" --leave-one-out --quiet "${options[@]}"
    for exercise in bicep-curl front-raise shoulder-press shoulder-shrug; do
        run --manifest "$manifests/form-pose-trainer-$exercise-train.csv" --folds 5 --repeats 5 "${options[@]}"
    done
    for exercise in bicep-curl front-raise shoulder-press shoulder-shrug; do
        run --manifest "$manifests/form-pose-trainer-$exercise-train.csv" --leave-one-out "${options[@]}"
    done
done

# Timing of the user-facing commands: train on all 90 UI-PRMD files, predict them.
model="$(mktemp -t ptcoach-model.XXXXXX.json)"
trap 'rm -f "$model"' EXIT
start=$(date +%s.%N)
"$ptcoach" train --manifest "$manifests/exercise-uiprmd-train.csv" --out "$model" | tail -3
mid=$(date +%s.%N)
"$ptcoach" predict --model "$model" --manifest "$manifests/exercise-uiprmd-train.csv" --json | tail -1 | cut -c1-80
end=$(date +%s.%N)
echo "train (incl. 5-fold CV summary) $(echo "$mid - $start" | bc) s, predict 90 files $(echo "$end - $mid" | bc) s (release)"
