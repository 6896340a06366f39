#!/bin/bash
# End-to-end test of scripts/datagen.sbatch on a one-node Slurm cluster that this
# script starts itself (Debian: `apt-get install slurm-wlm munge`; run as root):
# it writes a slurm.conf for this host, starts munged, slurmctld and slurmd, submits
# a 3-task array, kills one task midway (and cuts a record onto its shard, as a node
# crash in the middle of a write would), reruns that task, then checks and merges the
# shards and compares them byte for byte with a direct local run of the same seeds.
# Opt-in, never part of `cargo test`:
#
#   cargo build --release --features qili/dev-tools && sudo scripts/slurm-test.sh [target/release/qili]
#
# Settings (environment): GAMES (per shard, 40), NODES (8000), BASE_SEED (100),
# WORK (a scratch directory; default a new one under /tmp, kept for inspection).
# Exit status 0 only if every check passed.

set -euo pipefail

QILI=$(realpath "${1:-target/release/qili}")
SCRIPT=$(realpath "$(dirname "$0")/datagen.sbatch")
GAMES=${GAMES:-40}
NODES=${NODES:-8000}
BASE_SEED=${BASE_SEED:-100}
WORK=${WORK:-$(mktemp -d /tmp/qili-slurm.XXXXXX)}
TASKS=3
KILLED=1
mkdir -p "$WORK"/{state,spool,logs,data,local}
WORK=$(realpath "$WORK")

say() { echo "slurm-test: $*"; }
fail() {
    echo "slurm-test: FAIL: $*" >&2
    exit 1
}
[[ -x $QILI ]] || fail "no qili binary at $QILI"
"$QILI" datagen --help >/dev/null 2>&1 || fail "$QILI has no datagen (build it with --features qili/dev-tools)"
for tool in munged slurmctld slurmd sbatch squeue scancel sinfo; do
    command -v "$tool" >/dev/null || fail "$tool not found (apt-get install slurm-wlm munge)"
done
[[ $(id -u) == 0 ]] || fail "run as root (it starts munged, slurmctld and slurmd)"

host=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF=$WORK/slurm.conf
# proctrack/linuxproc and task/none: no cgroups needed (containers, CI machines).
cat >"$SLURM_CONF" <<EOF
ClusterName=qilitest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/logs/slurmctld.log
SlurmdLogFile=$WORK/logs/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

pids=()
cleanup() {
    # Only the daemons this script started, by their ids.
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

if ! pgrep -x munged >/dev/null; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge: /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
    runuser -u munge -- munged
    sleep 1
    pids+=("$(cat /run/munge/munged.pid)")
fi
slurmctld -D -i -f "$SLURM_CONF" >"$WORK/logs/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$WORK/logs/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 1
done
[[ ${state:-} == idle ]] || fail "the node did not come up (state '${state:-}'; see $WORK/logs)"
say "cluster up: node $host, $cpus CPUs, work $WORK"

finished() { ! squeue -h -j "$1" 2>/dev/null | grep -q .; }
wait_job() {
    for _ in $(seq 1800); do
        finished "$1" && return 0
        sleep 1
    done
    fail "job $1 did not finish"
}
games_in() { if [[ -f $1.games ]]; then echo $(($(wc -l <"$1.games") - 1)); else echo 0; fi; }

submit() {
    sbatch --parsable --array="$1" --chdir="$WORK" --output="$WORK/logs/task-%A_%a.log" \
        --export="ALL,QILI=$QILI,GAMES=$GAMES,NODES=$NODES,BASE_SEED=$BASE_SEED,OUT_DIR=$WORK/data" \
        "$SCRIPT"
}

t0=$(date +%s)
job=$(submit "0-$((TASKS - 1))")
say "submitted array job $job (tasks 0-$((TASKS - 1)), $GAMES games at $NODES nodes each)"
victim=$WORK/data/shard-$((BASE_SEED + KILLED)).bin
for _ in $(seq 1800); do
    n=$(games_in "$victim")
    ((n >= GAMES / 3)) && break
    finished "$job" && fail "the array ended before task $KILLED could be killed"
    sleep 0.2
done
scancel --signal=KILL "${job}_$KILLED"
sleep 1
killed_at=$(games_in "$victim")
((killed_at < GAMES)) || fail "task $KILLED had finished before the kill"
# A node crash in the middle of a write: a cut record after the last finished game.
head -c 100 "$victim" >>"$victim"
say "killed task $KILLED after $killed_at of $GAMES games; appended a 100-byte cut record"
wait_job "$job"
again=$(submit "$KILLED")
say "reran task $KILLED as job $again"
wait_job "$again"
say "array done in $(($(date +%s) - t0)) s"
grep -h "resuming" "$WORK"/logs/task-"${again}"_*.log || fail "the rerun did not resume"

shards=()
for i in $(seq 0 $((TASKS - 1))); do shards+=("$WORK/data/shard-$((BASE_SEED + i)).bin"); done
"$QILI" data check "${shards[@]}" | tee "$WORK/check.txt"
"$QILI" data merge --out "$WORK/slurm-all.bin" "${shards[@]}" | tail -1

t1=$(date +%s)
local_pids=()
for i in $(seq 0 $((TASKS - 1))); do
    s=$((BASE_SEED + i))
    "$QILI" datagen --games "$GAMES" --nodes "$NODES" --seed "$s" \
        --out "$WORK/local/shard-$s.bin" >/dev/null 2>&1 &
    local_pids+=($!)
done
# These processes only: a bare `wait` would wait for the daemons too.
for p in "${local_pids[@]}"; do wait "$p" || fail "local datagen failed"; done
say "direct local run done in $(($(date +%s) - t1)) s"
locals=("$WORK"/local/shard-*.bin)
"$QILI" data merge --out "$WORK/local-all.bin" "${locals[@]}" | tail -1

for i in $(seq 0 $((TASKS - 1))); do
    s=$((BASE_SEED + i))
    cmp "$WORK/data/shard-$s.bin" "$WORK/local/shard-$s.bin" || fail "shard $s differs from the local run"
    cmp "$WORK/data/shard-$s.bin.games" "$WORK/local/shard-$s.bin.games" ||
        fail "sidecar $s differs from the local run"
done
cmp "$WORK/slurm-all.bin" "$WORK/local-all.bin" || fail "the merges differ"
grep -q "^merge: $TASKS shards, .*, 0 duplicates$" "$WORK/check.txt" ||
    fail "duplicates among the shards"
say "PASS: $TASKS shards ($(stat -c %s "$WORK/slurm-all.bin") bytes merged) equal the local run byte for byte"
