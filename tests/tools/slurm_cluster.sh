#!/usr/bin/env bash
# Starts and stops a throwaway single-node Slurm cluster on this host, for
# tests that need a real scheduler (Debian 12: slurm-wlm 22.05 + munge).
#
#   tests/tools/slurm_cluster.sh start DIR   # DIR: empty scratch directory
#   tests/tools/slurm_cluster.sh stop DIR
#
# start: everything the cluster writes (munge key and socket, slurm.conf,
# state, spool, pid files, logs) lives under DIR; /etc/slurm and /etc/munge
# are not used. Missing packages are installed with apt-get when root. On
# success it prints shell lines for the client environment and exits 0:
#   if env=$(tests/tools/slurm_cluster.sh start "$d"); then eval "$env"; fi
# When the cluster cannot run here it prints one line "SKIP: <why>" and
# exits 77 (nothing is left running). Other non-zero exits are bugs/usage.
#
# stop: ends the jobs, slurmd, slurmctld and munged of DIR only (processes
# are matched by the exact DIR paths on their command line), waits until they
# are gone (SIGKILL after a few seconds) and exits 0 even if none was running.
#
# Finished jobs stay visible to `squeue --states=all` and `scontrol show job`
# for MinJobAge (600 s). There is no slurmdbd, so sacct reports "accounting
# storage is disabled"; DIR/jobcomp.txt has one line per finished job record.
set -euo pipefail

SKIP_RC=77
READY_TIMEOUT=60   # seconds to wait for the node to become idle
STOP_GRACE=5       # seconds between SIGTERM and SIGKILL

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}

skip() {
  echo "SKIP: $*"
  exit "$SKIP_RC"
}

# --- process helpers (all matching is by exact argv element) ----------------

# True while PID exists and is not a zombie (orphaned daemons are reparented
# to an init that may reap late; a zombie no longer holds ports or files).
alive() {
  local stat
  read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}

# True if PID has ARG as one element of its command line.
has_arg() {
  local pid=$1 want=$2 a
  local -a args=()
  mapfile -d '' args 2>/dev/null <"/proc/$pid/cmdline" || return 1
  for a in "${args[@]}"; do
    [[ $a == "$want" ]] && return 0
  done
  return 1
}

# Live pids named NAME (comm) whose argv contains ARG exactly, from PIDFILE
# and from a scan of /proc (in case the pid file is missing); the exact DIR
# path in ARG keeps other clusters' daemons and reused pids out.
find_pids() {
  local name=$1 want=$2 pidfile=$3 p comm
  local -A seen=()
  if [[ -r $pidfile ]]; then
    p=$(tr -dc '0-9' <"$pidfile")
    [[ -n $p ]] && seen[$p]=1
  fi
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    has_arg "$p" "$want" && seen[$p]=1
  done
  for p in "${!seen[@]}"; do
    comm=
    read -r comm 2>/dev/null <"/proc/$p/comm" || continue
    [[ $comm == "$name" ]] && has_arg "$p" "$want" && alive "$p" && echo "$p"
  done
  return 0
}

# Children of PID (slurmctld forks slurmscriptd, which renames its argv).
children_of() {
  local parent=$1 p stat
  local -a f
  for p in /proc/[0-9]*; do
    read -r stat 2>/dev/null <"$p/stat" || continue
    read -r -a f <<<"${stat##*) }"
    [[ ${f[1]:-} == "$parent" ]] && echo "${p#/proc/}"
  done
  return 0
}

# Job processes of this cluster: slurmstepds inherit SLURM_CONF=DIR/slurm.conf
# from slurmd (set below when starting it), and job steps get it in their
# environment together with SLURM_JOB_ID.
job_pids() {
  local want="SLURM_CONF=$1" p e mine job comm
  local -a env=()
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [[ $p == "$$" || $p == "$BASHPID" ]] && continue
    mapfile -d '' env 2>/dev/null <"/proc/$p/environ" || continue
    mine=0 job=0
    for e in "${env[@]}"; do
      [[ $e == "$want" ]] && mine=1
      [[ $e == SLURM_JOB_ID=* ]] && job=1
    done
    [[ $mine -eq 1 ]] || continue
    comm=
    [[ $job -eq 1 ]] || read -r comm 2>/dev/null <"/proc/$p/comm" || true
    if [[ $job -eq 1 || $comm == slurmstepd ]]; then
      alive "$p" && echo "$p"
    fi
  done
  return 0
}

# SIGTERM the pids, wait up to STOP_GRACE s, then SIGKILL what is left and
# wait until all are gone.
terminate() {
  local p i left
  [[ $# -gt 0 ]] || return 0
  kill -TERM "$@" 2>/dev/null || true
  for ((i = 0; i < STOP_GRACE * 10; i++)); do
    left=0
    for p in "$@"; do alive "$p" && left=1; done
    [[ $left -eq 0 ]] && return 0
    sleep 0.1
  done
  kill -KILL "$@" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    left=0
    for p in "$@"; do alive "$p" && left=1; done
    [[ $left -eq 0 ]] && return 0
    sleep 0.1
  done
  echo "slurm_cluster: could not kill: $*" >&2
  return 1
}

# --- stop --------------------------------------------------------------------

do_stop() {
  local dir=$1 conf p
  local -a pids kids
  conf="$dir/slurm.conf"

  # Cancel jobs first so slurmstepd ends their processes itself; stepds
  # would outlive a killed slurmd.
  local i ids
  if [[ -f $conf ]] && [[ -n $(find_pids slurmctld "$conf" "$dir/slurmctld.pid") ]]; then
    ids=$(SLURM_CONF=$conf timeout 5 squeue -h -o '%A' 2>/dev/null | sort -u | tr '\n' ' ' || true)
    if [[ -n ${ids// /} ]]; then
      # shellcheck disable=SC2086  # word splitting of the id list is wanted
      SLURM_CONF=$conf timeout 5 scancel $ids >/dev/null 2>&1 || true
      for ((i = 0; i < 100; i++)); do
        [[ -z $(job_pids "$conf") ]] && break
        sleep 0.1
      done
    fi
  fi

  # slurmd and slurmctld together (slurmscriptd is slurmctld's child), then
  # munged, which both use while shutting down.
  mapfile -t pids < <(find_pids slurmd "$conf" "$dir/slurmd.pid"
    find_pids slurmctld "$conf" "$dir/slurmctld.pid")
  kids=()
  for p in "${pids[@]}"; do
    mapfile -t -O "${#kids[@]}" kids < <(children_of "$p")
  done
  local rc=0
  terminate "${pids[@]}" || rc=1
  pids=()
  for p in "${kids[@]}"; do alive "$p" && pids+=("$p"); done
  mapfile -t -O "${#pids[@]}" pids < <(job_pids "$conf")
  terminate "${pids[@]}" || rc=1
  mapfile -t pids < <(find_pids munged "--socket=$dir/munge/munge.socket" "$dir/munge/munged.pid")
  terminate "${pids[@]}" || rc=1
  return "$rc"
}

# --- start -------------------------------------------------------------------

# Installs slurm-wlm and munge if any needed command is missing.
ensure_packages() {
  local dir=$1 c missing=()
  for c in munged munge unmunge slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
    command -v "$c" >/dev/null 2>&1 || missing+=("$c")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  [[ $(id -u) -eq 0 ]] || skip "not root and missing commands: ${missing[*]} (apt-get install slurm-wlm munge)"
  command -v apt-get >/dev/null 2>&1 || skip "missing commands ${missing[*]} and no apt-get to install slurm-wlm munge"
  local log="$dir/log/apt.log"
  local -a install=(apt-get install -y -q --no-install-recommends
    -o DPkg::Lock::Timeout=120 slurm-wlm munge)
  # Package lists may be stale or absent: update only when needed.
  if ! DEBIAN_FRONTEND=noninteractive "${install[@]}" >>"$log" 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$log" 2>&1 || true
    DEBIAN_FRONTEND=noninteractive "${install[@]}" >>"$log" 2>&1 ||
      skip "apt-get install slurm-wlm munge failed (see $log)"
  fi
  for c in "${missing[@]}"; do
    command -v "$c" >/dev/null 2>&1 || skip "$c still missing after installing slurm-wlm munge"
  done
}

# True if some TCP socket on this host uses local port $1.
port_in_use() {
  if command -v ss >/dev/null 2>&1; then
    [[ -n $(ss -Htan "sport = :$1" 2>/dev/null) ]]
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
  fi
}

# A random free port below the Linux ephemeral range (32768+), not in $@.
pick_port() {
  local p i
  for ((i = 0; i < 200; i++)); do
    p=$((10000 + RANDOM % 22000))
    [[ " $* " == *" $p "* ]] && continue
    port_in_use "$p" || { echo "$p"; return 0; }
  done
  return 1
}

# Waits up to $2 s for command $1... to succeed.
wait_for() {
  local secs=$1 i
  shift
  for ((i = 0; i < secs * 10; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

# Both are called through wait_for.
# shellcheck disable=SC2317
munge_ok() { munge -n -S "$1" | unmunge -S "$1"; }
# shellcheck disable=SC2317
pid_file_ok() { [[ -s $1 ]] && alive "$(tr -dc '0-9' <"$1")"; }

# Last non-empty line of a log, for the SKIP message.
last_line() { grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 1 || true; }

do_start() {
  local dir=$1
  [[ $dir != *[[:space:]\#=,]* ]] || skip "DIR path contains characters slurm.conf cannot hold: $dir"
  # munged's socket path must fit sockaddr_un (108 bytes).
  [[ ${#dir} -le 80 ]] || skip "DIR path too long for the munge socket (${#dir} > 80 chars): $dir"
  mkdir -p "$dir/log" "$dir/munge" "$dir/state" "$dir/spool"
  ensure_packages "$dir"
  [[ $(id -u) -eq 0 ]] || skip "must run as root (slurmd has to be root to launch jobs; uid $(id -u))"

  # Anything started from here on is stopped again if start does not finish.
  trap 'do_stop "$DIR" >/dev/null 2>&1 || true' EXIT

  # --- munge: own key, socket, pid, seed and log under DIR ---
  local sock="$dir/munge/munge.socket" key="$dir/munge/munge.key"
  if ! mungekey -c -k "$key" >>"$dir/log/munged.out" 2>&1; then
    dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
  fi
  chmod 0400 "$key"
  chmod 0755 "$dir/munge"
  # --force: munged refuses sockets whose ancestors lack o+x (e.g. a 0700
  # mktemp dir); all clients here are root, so a warning is enough.
  munged --force --key-file="$key" --socket="$sock" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" </dev/null >>"$dir/log/munged.out" 2>&1 ||
    skip "munged failed to start: $(last_line "$dir/log/munged.out")"
  wait_for 10 munge_ok "$sock" ||
    skip "munged not answering on $sock: $(last_line "$dir/log/munged.log")"

  # --- slurm.conf ---
  local node host hw cpus sockets cores threads mem
  host=$(uname -n)
  node=${host%%.*}
  # Topology as slurmd sees it, so the node is not drained for a mismatch.
  hw=$(slurmd -C 2>/dev/null | head -n 1 || true)
  field() { sed -n "s/.*[[:space:]]$1=\([0-9][0-9]*\).*/\1/p" <<<"$hw"; }
  cpus=$(field CPUs)
  sockets=$(field SocketsPerBoard)
  cores=$(field CoresPerSocket)
  threads=$(field ThreadsPerCore)
  mem=$(field RealMemory)
  [[ -n $cpus ]] || cpus=$(nproc)
  [[ -n $mem ]] || mem=$(($(sed -n 's/^MemTotal:[[:space:]]*\([0-9]*\).*/\1/p' /proc/meminfo) / 1024))
  # A bit below the real size: more than slurmd finds would drain the node.
  mem=$((mem * 9 / 10))
  [[ $mem -ge 1 ]] || mem=1
  local topo="CPUs=$cpus"
  if [[ -n $sockets && -n $cores && -n $threads ]]; then
    topo+=" Sockets=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads"
  fi
  local ctld_port slurmd_port
  ctld_port=$(pick_port) || skip "no free TCP port found for slurmctld"
  slurmd_port=$(pick_port "$ctld_port") || skip "no free TCP port found for slurmd"

  local conf="$dir/slurm.conf"
  cat >"$conf" <<EOF
# Generated by tests/tools/slurm_cluster.sh: single-node test cluster.
ClusterName=simtlab-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Clients and daemons all find munged through this socket.
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
# No cgroups: plain process tracking, no task binding or memory enforcement.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SwitchType=switch/none
# No slurmdbd: sacct is unavailable; jobcomp keeps a line per finished job.
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
# Share the node by core and memory so array tasks run side by side;
# jobs without --mem get an even share instead of the whole node.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$((mem / cpus > 0 ? mem / cpus : 1))
SchedulerType=sched/backfill
# Schedule batch jobs on submit (default waits up to 3 s).
SchedulerParameters=batch_sched_delay=0
MaxArraySize=10001
MaxJobCount=50000
# Keep finished jobs visible to squeue --states=all / scontrol for 10 min.
MinJobAge=600
# Short timers: fast start, fast kill on cancel or time limit.
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
KillWait=2
OverTimeLimit=0
NodeName=$node NodeAddr=127.0.0.1 $topo RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

  # --- daemons: they daemonise themselves; stdio must not hold the
  # caller's $(...) pipe open. SLURM_CONF in slurmd's environment also
  # marks its slurmstepds as ours for stop. ---
  export SLURM_CONF=$conf
  slurmctld -f "$conf" </dev/null >>"$dir/log/slurmctld.out" 2>&1 ||
    skip "slurmctld failed to start: $(last_line "$dir/log/slurmctld.out")"
  wait_for 15 pid_file_ok "$dir/slurmctld.pid" ||
    skip "slurmctld exited: $(last_line "$dir/log/slurmctld.log")"
  wait_for 15 scontrol ping ||
    skip "slurmctld not answering on port $ctld_port: $(last_line "$dir/log/slurmctld.log")"
  slurmd -f "$conf" -N "$node" </dev/null >>"$dir/log/slurmd.out" 2>&1 ||
    skip "slurmd failed to start: $(last_line "$dir/log/slurmd.out")"
  wait_for 15 pid_file_ok "$dir/slurmd.pid" ||
    skip "slurmd exited: $(last_line "$dir/log/slurmd.log")"

  local state="" i
  for ((i = 0; i < READY_TIMEOUT * 4; i++)); do
    state=$(sinfo -h -n "$node" -o '%t' 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 0.25
  done
  [[ $state == idle ]] ||
    skip "node $node not idle after ${READY_TIMEOUT}s (state '${state}'): $(last_line "$dir/log/slurmd.log")"

  trap - EXIT
  printf 'export SLURM_CONF=%q\n' "$conf"
}

# --- main --------------------------------------------------------------------

[[ $# -eq 2 ]] || usage
cmd=$1
[[ -n $2 ]] || usage
case $cmd in
  start)
    mkdir -p "$2"
    DIR=$(cd "$2" && pwd -P)
    if [[ -n $(ls -A "$DIR") ]]; then
      echo "slurm_cluster: $DIR is not empty" >&2
      exit 2
    fi
    do_start "$DIR"
    ;;
  stop)
    [[ -d $2 ]] || exit 0
    DIR=$(cd "$2" && pwd -P)
    do_stop "$DIR" || true
    ;;
  *) usage ;;
esac
exit 0
