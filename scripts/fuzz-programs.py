#!/usr/bin/env python3
"""Mutation fuzzing of what applications hand cpucl as programs.

Takes the OpenCL C sources (.cl) and SPIR-V modules (.spv) of a corpus
(tests/data by default) and the cpucl binaries built from the sources,
changes each a little at random (lines moved, dropped or duplicated,
tokens swapped, statements with barriers and built-ins inserted; bits
flipped, words overwritten, instructions' word counts changed, inputs cut
short) and hands every mutant to build/tests/fuzz_program, which builds it
and compiles its kernels for a launch that never runs. A mutant is kept in
OUT (default /tmp/cpucl-fuzz) when the driver crashed, hung past TIMEOUT
seconds, or failed a build without a log: each is a cpucl bug. Prints the
count of each outcome.

  scripts/fuzz-programs.py [--runs N] [--seed S] [--timeout T] [--out DIR]
                           [--driver PATH] [--options "-cl-std=CL2.0 ..."] [CORPUS ...]

The driver's library is the build's (direct link); set
CPUCL_CACHE=0 (the script does) so every build compiles.
"""
import argparse
import glob
import os
import random
import re
import shutil
import struct
import subprocess
import sys

SNIPPETS = [
    'barrier(CLK_LOCAL_MEM_FENCE);', 'work_group_barrier(CLK_GLOBAL_MEM_FENCE);', 'return;',
    'if (get_local_id(0) == 3) return;', 'if (get_global_id(0) & 1) barrier(CLK_LOCAL_MEM_FENCE);',
    'for (int z_ = 0; z_ < get_local_id(0); z_++) { barrier(CLK_LOCAL_MEM_FENCE); }',
    'while (1) { barrier(CLK_LOCAL_MEM_FENCE); if (get_group_id(0) > 2) break; }',
    'goto l_; l_: ;', 'int z_ = sub_group_reduce_add((int)get_local_id(0));',
    'float4 v_ = (float4)(1.0f); v_ = v_.wzyx * sin(v_);', 'printf("%d %v4f\\n", 1, (float4)(2));',
    'double d_ = 1.0 / 3.0;', '{ local int t_[16]; t_[get_local_id(0) & 15] = 1; }',
    'int z_ = work_group_scan_inclusive_add(1);', 'mem_fence(CLK_GLOBAL_MEM_FENCE);',
    'switch (get_local_id(0)) { case 0: barrier(CLK_LOCAL_MEM_FENCE); break; default: break; }',
    'int z_[1 << 20]; z_[get_global_id(0) & 7] = 0;', 'int z_ = 1 / 0;',
    'ulong16 u_ = (ulong16)(1) << 63;', 'int3 i_ = (int3)(1, 2, 3) % (int3)(0);',
]
TOKENS = ['(', ')', '{', '}', ';', ',', '*', '&', '[', ']', '0', '-1', '0x7fffffff', 'int', 'float4',
          '__global', '__local', '__private', '__constant', 'const', 'volatile', 'restrict',
          'struct', 'sizeof', 'get_global_id(0)', 'get_local_size(0)',
          'barrier(CLK_LOCAL_MEM_FENCE)', 'return', 'if', 'else', 'while', 'for', '#', '...',
          '.xyzw', '->', '++', '<<', '?', ':', 'double', 'half', 'long', 'static', 'inline',
          '__attribute__((reqd_work_group_size(1,1,1)))', 'kernel', 'void']
OPTIONS = ['-cl-std=CL2.0', '-cl-std=CL2.0 -cl-fast-relaxed-math', '-cl-std=CL1.2',
           '-cl-std=CL2.0 -cl-opt-disable', '-cl-std=CL2.0 -cl-uniform-work-group-size',
           '-cl-std=CL2.0 -cl-denorms-are-zero', '-cl-std=CLC++']


def mutate_source(text, rng):
    lines = text.split('\n')
    kind = rng.randrange(6)
    if kind == 0:
        places = [i for i, line in enumerate(lines) if line.rstrip().endswith((';', '{'))]
        if places:
            lines.insert(rng.choice(places) + 1, rng.choice(SNIPPETS))
    elif kind == 1 and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    elif kind == 2:
        lines.insert(rng.randrange(len(lines)), lines[rng.randrange(len(lines))])
    elif kind >= 3:
        tokens = re.findall(r'\w+|\S', text)
        for _ in range(rng.randint(1, 3)):
            if not tokens:
                break
            at = rng.randrange(len(tokens))
            edit = rng.randrange(3)
            if edit == 0:
                del tokens[at]
            elif edit == 1:
                tokens[at] = rng.choice(TOKENS)
            else:
                tokens.insert(at, rng.choice(TOKENS))
        return ' '.join(tokens).replace('# ', '\n#').replace(' #', '\n#') + '\n'
    return '\n'.join(lines)


def mutate_words(data, rng, spirv):
    data = bytearray(data)
    first = 5 if spirv else 2  # SPIR-V's header; a binary's magic
    words = len(data) // 4
    if words <= first:
        return bytes(data)
    kind = rng.randrange(4 if spirv else 3)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(first, words)
        if kind == 0:
            data[at * 4 + rng.randrange(4)] ^= 1 << rng.randrange(8)
        elif kind == 1:
            value = rng.choice([0, 1, 2, 3, 0xffffffff, 0x10000, rng.randrange(1 << 16)])
            struct.pack_into('<I', data, at * 4, value)
        elif kind == 2:
            return bytes(data[:at * 4])
        else:  # an instruction's word count, the word's high half
            word = struct.unpack_from('<I', data, at * 4)[0]
            struct.pack_into('<I', data, at * 4, (word & 0xffff) | (rng.randrange(12) << 16))
    return bytes(data)


def run(driver, path, options, timeout):
    env = dict(os.environ, CPUCL_CACHE='0', ASAN_OPTIONS='detect_leaks=0')
    try:
        done = subprocess.run([driver, path] + ([options] if options else []),
                              capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return 'hang', b''
    if done.returncode < 0:
        return 'crash (signal %d)' % -done.returncode, done.stderr
    names = {0: 'built', 1: 'refused with a log', 2: 'failed without a log', 3: 'unreadable'}
    return names.get(done.returncode, 'exit %d' % done.returncode), done.stderr


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('corpus', nargs='*', default=[os.path.join(here, '..', 'tests', 'data')])
    parser.add_argument('--runs', type=int, default=200)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--timeout', type=float, default=120)
    parser.add_argument('--out', default='/tmp/cpucl-fuzz')
    parser.add_argument('--driver', default=os.path.join(here, '..', 'build', 'tests', 'fuzz_program'))
    parser.add_argument('--options', default=None, help='build options (default: one at random)')
    args = parser.parse_args()
    if not os.access(args.driver, os.X_OK):
        sys.exit('no driver at %s: build the project first' % args.driver)
    os.makedirs(args.out, exist_ok=True)
    inputs = []
    for folder in args.corpus:
        inputs += sorted(glob.glob(os.path.join(folder, '*.cl')) + glob.glob(os.path.join(folder, '*.spv')))
    for source in [p for p in inputs if p.endswith('.cl')]:
        binary = os.path.join(args.out, os.path.basename(source)[:-3] + '.bin')
        done = subprocess.run([args.driver, '--write-binary', source, binary], capture_output=True,
                              env=dict(os.environ, CPUCL_CACHE='0'))
        if done.returncode == 0:
            inputs.append(binary)
    if not inputs:
        sys.exit('no .cl or .spv inputs in %s' % ' '.join(args.corpus))
    rng = random.Random(args.seed)
    outcomes = {}
    for case in range(args.runs):
        original = rng.choice(inputs)
        data = open(original, 'rb').read()
        if original.endswith('.cl'):
            text = data.decode('utf-8', 'replace')
            for _ in range(rng.randint(1, 2)):
                text = mutate_source(text, rng)
            data = text.encode()
        else:
            data = mutate_words(data, rng, original.endswith('.spv'))
        suffix = os.path.splitext(original)[1]
        path = os.path.join(args.out, 'case%d-%d%s' % (args.seed, case, suffix))
        with open(path, 'wb') as f:
            f.write(data)
        options = args.options if args.options is not None else (
            rng.choice(OPTIONS) if suffix == '.cl' else '')
        outcome, stderr = run(args.driver, path, options, args.timeout)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if outcome.startswith(('crash', 'hang', 'failed without')):
            tail = stderr.decode('utf-8', 'replace').strip().splitlines()[-3:]
            print('%s: %s (from %s, options %r)' % (path, outcome, os.path.basename(original), options))
            for line in tail:
                print('    ' + line)
            sys.stdout.flush()
        else:
            os.remove(path)
    for outcome, count in sorted(outcomes.items()):
        print('%6d  %s' % (count, outcome))
    return 1 if any(o.startswith(('crash', 'hang', 'failed without')) for o in outcomes) else 0


if __name__ == '__main__':
    sys.exit(main())
