#!/usr/bin/env python3
"""Aggregator for scripts/qemu-profile.sh: QEMU `-d in_asm,exec,nochain` trace on stdin.

A block's instructions are counted from its `in_asm` listing; every `exec` line is one execution.
Names come from the debug line tables (`addr2line -i`: inlined frames resolved). Helper routines
(soft-float, 64-bit multiply, compiler-builtins) are real functions, never inlined: their
instructions are charged to the code that was running before the call (the last block outside the
helpers), so the "by part" table says which part of the tick pays for its soft-float.
"""
import array, collections, re, subprocess, sys

elf, addr2line, nm, top, arch, what = sys.argv[1:7]
top = int(top)
RUNS = 600
size = {}
seq = array.array('I')
cur_pc = None
in_asm = re.compile(r'^0x([0-9a-f]+):\s')
trace = re.compile(r'^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/')
n = 0
for line in sys.stdin:
    c = line[0]
    if c == 'T':
        m = trace.match(line)
        if m:
            pc = int(m.group(1), 16)
            seq.append(pc)
            seq.append(size.get(pc, 0))
    elif c == 'I' and line.startswith('IN:'):
        cur_pc, n = None, 0
    elif c == '0':
        m = in_asm.match(line)
        if m:
            a = int(m.group(1), 16)
            if cur_pc is None:
                cur_pc = a
            n += 1
            size[cur_pc] = n

syms = []
for l in subprocess.run([nm, '-C', '-n', elf], capture_output=True, text=True).stdout.splitlines():
    p = l.split(None, 2)
    if len(p) == 3 and p[1] in 'tTwW':
        syms.append((int(p[0], 16) & ~1, re.sub(r'::h[0-9a-f]{16}$', '', p[2])))
syms.sort()
import bisect
sym_addrs = [a for a, _ in syms]
def symbol(pc):
    i = bisect.bisect_right(sym_addrs, pc) - 1
    return syms[i][1] if i >= 0 else '??'

HELPER = re.compile(r'^(__aeabi_|__(add|sub|mul|div|cmp|eq|ne|lt|le|gt|ge|unord|fix|float|neg|extend|trunc|pow|clz|ashl|lshr|ashr|udiv|umod|mod)[a-z0-9]*|compiler_builtins::)')
WRAPPER = re.compile(r'(qemu_profile|__cortex_m_rt_main|DemoRig::tick|DemoScene::step$|App<.*>::poll|::poll$|^main$|black_box)')

pcs = sorted(set(seq[0::2]))
chains = {}
srcline = {}
r = subprocess.run([addr2line, '-e', elf, '-f', '-i', '-C', '-a'] + [hex(p) for p in pcs],
                   capture_output=True, text=True).stdout.splitlines()
cur, lines = None, []
def flush():
    if cur is not None:
        # addr2line -f prints function, then file:line, per frame
        fns = [lines[i] for i in range(0, len(lines), 2)]
        locs = [lines[i] for i in range(1, len(lines), 2)]
        chains[cur] = [re.sub(r'::h[0-9a-f]{16}$', '', f) for f in fns if f != '??']
        if locs:
            loc = re.sub(r' \(discriminator \d+\)', '', locs[0])
            srcline[cur] = re.sub(r'^.*/(core|firmware|src)/', r'\1/', loc)
for l in r:
    if l.startswith('0x') and len(l) > 2 and all(ch in '0123456789abcdefx' for ch in l):
        flush(); cur, lines = int(l, 16), []
    else:
        lines.append(l)
flush()

info = {}
for pc in pcs:
    s = symbol(pc)
    ch = chains.get(pc) or [s]
    helper = bool(HELPER.match(s))
    outer = [f for f in reversed(ch) if not WRAPPER.search(f)]
    part = outer[0] if outer else ch[-1]
    sub = outer[1] if len(outer) > 1 else ''
    info[pc] = (helper, s if helper else ch[0], part, sub, srcline.get(pc, '??'))

total = 0
inner = collections.Counter()
parts = collections.Counter()
subs = collections.Counter()
helpers_by_part = collections.Counter()
calls = collections.Counter()
last = ('(start)', '')
last_loc = '(start)'
bylines = collections.Counter()
prev_helper = False
for i in range(0, len(seq), 2):
    pc, k = seq[i], seq[i + 1]
    helper, fn, part, sub, loc = info[pc]
    total += k
    inner[fn] += k
    if helper:
        bylines[last_loc] += k
    else:
        bylines[loc] += k
        last_loc = loc
    if helper:
        parts[last[0]] += k
        subs[last] += k
        helpers_by_part[last[0]] += k
        if not prev_helper:
            calls[(fn, last[0])] += 1
    else:
        last = (part, sub)
        parts[part] += k
        subs[(part, sub)] += k
    prev_helper = helper

def short(s, w=100):
    return s if len(s) <= w else s[:w - 1] + '…'
print(f'qemu-profile {arch} {what}: {total:,} instructions in {RUNS} runs = {total / RUNS:,.0f} per run')
print(f'\n== by part of the run (helpers charged to their caller) ==')
print(f'{"per run":>10} {"share":>6} {"of it helpers":>13}  part')
for p, k in parts.most_common(top):
    print(f'{k / RUNS:>10,.0f} {100 * k / total:>5.1f}% {100 * helpers_by_part[p] / max(k, 1):>12.0f}%  {short(p)}')
print(f'\n== by part and the function inside it ==')
for (p, s), k in subs.most_common(top):
    print(f'{k / RUNS:>10,.0f} {100 * k / total:>5.1f}%  {short(p, 60)}  >  {short(s, 60)}')
print(f'\n== by innermost function (helpers by their own name) ==')
for f, k in inner.most_common(top):
    print(f'{k / RUNS:>10,.0f} {100 * k / total:>5.1f}%  {short(f)}')
print(f'\n== by source line (a block counts at its first instruction; helpers at their caller) ==')
for l, k in bylines.most_common(top):
    print(f'{k / RUNS:>10,.0f} {100 * k / total:>5.1f}%  {short(l)}')
print(f'\n== helper entries per run, by part ==')
for (f, p), c in calls.most_common(top):
    print(f'{c / RUNS:>10,.1f}  {f}  <- {short(p, 80)}')
