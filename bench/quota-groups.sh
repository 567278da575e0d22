# Sourced by bench/ab.sh and bench/quota.sh: one cgroup per CPU quota, under cgroup v2's cpu
# controller where it is there, else v1's (as root).
#   quota_groups NAME QUOTAS...   sets $root and $v (2 or 1) and makes $root/NAME-Q for each
#                                 quota Q, a percentage of one CPU (100 ms periods)
#   remove_quota_groups NAME QUOTAS...
quota_groups() {
    name=$1
    shift
    if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
        root=/sys/fs/cgroup v=2
    elif [ -d /sys/fs/cgroup/cpu ]; then
        root=/sys/fs/cgroup/cpu v=1
    else
        echo "$0: no cgroup cpu controller here" >&2
        exit 1
    fi
    for q in "$@"; do
        mkdir "$root/$name-$q"
        if [ $v = 2 ]; then
            echo "$((q * 1000)) 100000" > "$root/$name-$q/cpu.max"
        else
            echo 100000 > "$root/$name-$q/cpu.cfs_period_us"
            echo $((q * 1000)) > "$root/$name-$q/cpu.cfs_quota_us"
        fi
    done
}

remove_quota_groups() {
    name=$1
    shift
    for q in "$@"; do rmdir "$root/$name-$q" 2>/dev/null || true; done
}
