import os, subprocess, sys, time, statistics as st
# Issue 20: before/after x projection on/off, alternated; docs/performance.md "Issue 20: projection".
# usage: proj-measure.py ROUNDS FILE BIN_BEFORE BIN_AFTER
rounds, f, before, after = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
sides = [("before", before, True), ("before", before, False), ("after", after, True), ("after", after, False)]
res = {}
def run(exe, proj):
    args = [exe, "check", "--format", "json"] + ([] if proj else ["--no-projection"]) + [f]
    t = time.monotonic()
    with open("/dev/null", "wb") as null:
        p = subprocess.Popen(args, stdout=null)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t
    code = os.waitstatus_to_exitcode(status)
    if code != 0: print("exit", code, args, file=sys.stderr)
    return wall, ru.ru_utime + ru.ru_stime
for r in range(rounds):
    order = sides[r % 4:] + sides[:r % 4]
    if r % 2: order = order[::-1]
    row = {}
    for name, exe, proj in order:
        row[(name, proj)] = run(exe, proj)
    for k, v in row.items(): res.setdefault(k, []).append(v)
    print(r, {f"{k[0]}-{'on' if k[1] else 'off'}": f"{v[0]:.3f}/{v[1]:.3f}" for k, v in row.items()}, flush=True)
def med(xs): return st.median(xs)
print("load", os.getloadavg())
for k in [("before", False), ("before", True), ("after", False), ("after", True)]:
    w = [x[0] for x in res[k]]; c = [x[1] for x in res[k]]
    print(f"{k[0]:6} {'on ' if k[1] else 'off'}  wall median {med(w):.3f}  cpu median {med(c):.3f}")
for name in ["before", "after"]:
    rw = [a[0] / b[0] for a, b in zip(res[(name, True)], res[(name, False)])]
    rc = [a[1] / b[1] for a, b in zip(res[(name, True)], res[(name, False)])]
    print(f"{name}: on/off per-round ratio median wall {med(rw):.2f} (range {min(rw):.2f}-{max(rw):.2f}), cpu {med(rc):.2f} (range {min(rc):.2f}-{max(rc):.2f})")
for proj in [True, False]:
    rw = [a[0] / b[0] for a, b in zip(res[("after", proj)], res[("before", proj)])]
    rc = [a[1] / b[1] for a, b in zip(res[("after", proj)], res[("before", proj)])]
    print(f"after/before {'on ' if proj else 'off'}: median wall {med(rw):.2f}, cpu {med(rc):.2f}")
