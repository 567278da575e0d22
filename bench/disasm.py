#!/usr/bin/env python3
"""Compares the machine code of two unixbench builds, function by function and loop by loop.

    python3 bench/disasm.py BEFORE AFTER [REGEX]

BEFORE and AFTER are unstripped static builds (CARGO_PROFILE_RELEASE_STRIP=false make, or
cargo build --release --target x86_64-unknown-linux-musl with that variable; stripping does not
change the code). REGEX (default: the kernels, sys, timing and protocol) picks the functions by
demangled name. Addresses, symbol hashes and the crate a module lives in (`unixbench::sys` and
`base::sys` are the same module before and after the workspace split, as are `catalogue::model`
and `base::model` before and after base's cold half moved out) are normalised away, and
the monomorphised copies of a generic function are compared as a set.

Output: the functions whose instructions are identical, those that differ, and those only one
build has (inlined in the other); then the loops that read or bump the counting kernels' timed
counter (`timing::ITERATIONS`, `timing::STOP`) and differ, first as they are, then with
registers and stack offsets ignored (a different register choice is not a different loop), then
only the innermost ones (no loop inside them) as they are: the loop that is timed, without the
code around it that an outer backward branch also spans. A loop is the code from a backward
branch's target to the branch. Needs objdump (binutils).
"""

import collections
import re
import subprocess
import sys

MOVED = r"(sys|args|protocol|timing|selfexe|sort|json|error|suite|baselines|fmt|model|version|suggest)"


def crate_neutral(name):
    name = re.sub(r"\bcatalogue::" + MOVED + r"::", r"base::\1::", name)
    return re.sub(r"\bunixbench::" + MOVED + r"::", r"base::\1::", name)


def norm(ins, regs):
    m = re.search(r"#\s*[0-9a-f]+ <([^>+]*)", ins)
    sym = crate_neutral(m.group(1)) if m else "X"
    # The comment after the operands, not a `#` of a closure's name (`{closure#0}`).
    ins = re.sub(r"\s#\s.*$", "", ins).strip()
    ins = re.sub(r"\[rip\+0x[0-9a-f]+\]", "[rip+" + sym + "]", ins)
    ins = re.sub(r"\b[0-9a-f]{6,} <([^>+]*)(\+0x[0-9a-f]+)?>",
                 lambda m: "<" + m.group(1) + ("+off" if m.group(2) else "") + ">", ins)
    ins = re.sub(r"\b0x[24][0-9a-f]{5}\b", "ADDR", ins)
    ins = crate_neutral(ins)
    if regs:
        ins = re.sub(r"\b(r[a-z0-9]+|e[a-z]{2}|[a-d]l|[sd]il|[sb]pl|xmm\d+)\b", "R", ins)
        ins = re.sub(r"\[R\+0x[0-9a-f]+\]", "[R+S]", ins)
    if re.match(r"(nop|xchg\s+ax,ax|data16|cs nop)", ins):
        return None
    return ins


def functions(path):
    """name -> sorted list of bodies, each a list of (address, instruction text)."""
    out = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", "-M", "intel", path],
                         capture_output=True, text=True, check=True).stdout
    fs = collections.defaultdict(list)
    body = None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            body = []
            fs[crate_neutral(m.group(1))].append(body)
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m and body is not None:
            body.append((int(m.group(1), 16), m.group(2)))
    return fs


def code(bodies, regs=False):
    return sorted([i for i in (norm(x, regs) for _, x in b) if i] for b in bodies)


def timed_loops(bodies, regs, innermost=False):
    loops = []
    for b in bodies:
        addrs = [a for a, _ in b]
        spans = []
        for i, (a, ins) in enumerate(b):
            m = re.match(r"j\w+\s+([0-9a-f]+) <", ins)
            if m and int(m.group(1), 16) <= a and int(m.group(1), 16) in addrs:
                spans.append((addrs.index(int(m.group(1), 16)), i))
        if innermost:
            # A loop with another inside it is the code around a timed loop (set-up, clean-up,
            # the calls out of it), not the loop itself.
            spans = [s for s in spans if not any(t != s and s[0] <= t[0] and t[1] <= s[1] for t in spans)]
        for j, i in spans:
            loop = [x for x in (norm(y, regs) for _, y in b[j:i + 1]) if x]
            if any("timing::ITERATIONS" in x or "timing::STOP" in x for x in loop):
                loops.append(loop)
    return sorted(loops)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    pat = re.compile(sys.argv[3] if len(sys.argv) == 4 else r"^(unixbench::kernels::|base::(sys|timing|protocol)::)")
    a, b = functions(sys.argv[1]), functions(sys.argv[2])
    names = sorted(n for n in set(a) | set(b) if pat.search(n))
    same, differ = [], []
    for n in names:
        if n in a and n in b:
            (same if code(a[n]) == code(b[n]) else differ).append(n)
    print(f"identical: {len(same)}   differ: {len(differ)}")
    for n in differ:
        print("  differs:", n)
    for n in names:
        if (n in a) != (n in b):
            print("  only in", "BEFORE:" if n in a else "AFTER: ", n)
    for regs, inner in ((False, False), (True, False), (False, True)):
        what = "innermost, as they are" if inner else "registers and stack offsets ignored" if regs else "as they are"
        bad = [n for n in names if n in a and n in b
               and timed_loops(a[n], regs, inner) != timed_loops(b[n], regs, inner)]
        with_loops = [n for n in names if n in a and timed_loops(a[n], regs, inner)]
        print(f"timed loops ({what}): {len(with_loops) - len(bad)} of {len(with_loops)} functions identical")
        for n in bad:
            print("  differs:", n)


if __name__ == "__main__":
    main()
