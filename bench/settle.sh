# Sourced by the benchmark scripts: wait for the load a previous run left to fall.
#
# settle SCRIPT WHAT: waits until the 1-minute load average is under SETTLE_LOAD (default 1),
# at most SETTLE_MAX seconds (default 600), then prints "SCRIPT: WHAT starts at load L, after
# waiting N s". A run started in the tail of another's 8-shell test (load 7-9) is slowed where
# the other was not.
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }
settle() {
    waited=0
    while [ "$waited" -lt "${SETTLE_MAX:-600}" ] &&
        awk -v l="$(load)" -v m="${SETTLE_LOAD:-1}" 'BEGIN { exit !(l + 0 >= m + 0) }'; do
        sleep 5
        waited=$((waited + 5))
    done
    echo "$1: $2 starts at load $(load), after waiting ${waited} s"
}
