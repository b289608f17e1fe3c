#!/bin/sh
# bench/gpu_static.sh - static GPU figures of a generated OpenCL program, without a GPU.
#
# usage: bench/gpu_static.sh   (env: BIN = chunkfill CLI, default build-release/chunkfill;
#        PACK, default ../shared/vanilla/26.3; SETTINGS, default minecraft:overworld;
#        CLANG, default clang (Debian's clang 14); MCPU, default gfx90a;
#        NVPTX_ARCH, default sm_80 (clang 14/15 know no sm_90; empty: no PTX figures);
#        PROG, a generated program's file to read instead of `chunkfill emit`'s)
# Emits the program (`chunkfill emit`), compiles it with clang for amdgcn-amd-amdhsa
# (-O3, OpenCL C 1.2) and reports per kernel: VGPRs, AGPRs, SGPRs, spills, scratch
# bytes (private segment), code bytes and the fp64 instructions in its code (static
# count: each instruction once, loops and branches not weighed). Then the same for probe
# kernels, one octave sample each: cf_perlin, cf_smeared of kernels/cf_math.h (the point
# path: k_columns' shifted noises), and the corner stage's split octave (emit.c): the
# per-corner part probe_corner (axis records read from the chunk's table, then
# cf_perlin_lattice) and the pre-pass k_axes' per-axis-value parts probe_axis_xz (cf_axis)
# and probe_axis_y (cf_axis_y, smeared: its dearest form). The fp64 instructions of an
# octave sample at a corner = probe_corner's + the pre-pass's share per corner
# ((ncx + ncz) * probe_axis_xz + ncy * probe_axis_y) / (ncx * ncy * ncz), the lattice read
# from k_corners_0 (where k_axes writes the y records once per batch, also with the ncy
# term divided by the batch: 64 and 4096 chunks). With NVPTX_ARCH, also the .f64 PTX
# instructions per kernel and probe (PTX: no register figures, ptxas is not here).
# CF_GPU: the GPU form device.c builds for a GPU (gradients by selects).
# The device library is a stub (the OpenCL builtins the program uses as clang builtins,
# written below) so that calls to floor, sqrt, get_global_id... are inlined as a
# vendor library would be; a call left unresolved is listed (it would make the scratch
# figure unknown: clang then reserves 16384 bytes).
# CLF, AMD and NV are flag lists: split on purpose
# shellcheck disable=SC2086
set -e
cd "$(dirname "$0")/.."
BIN=${BIN:-build-release/chunkfill}
PACK=${PACK:-../shared/vanilla/26.3}
SETTINGS=${SETTINGS:-minecraft:overworld}
CLANG=${CLANG:-clang}
MCPU=${MCPU:-gfx90a}
NVPTX_ARCH=${NVPTX_ARCH-sm_80}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${PROG:-}" ]; then cp "$PROG" "$tmp/prog.cl"; else "$BIN" emit --pack "$PACK" --settings "$SETTINGS" >"$tmp/prog.cl"; fi
cat >"$tmp/devlib.cl" <<'CL'
#define OV __attribute__((overloadable))
double OV floor(double x) { return __builtin_floor(x); }
float OV floor(float x) { return __builtin_floorf(x); }
double OV fabs(double x) { return __builtin_fabs(x); }
float OV fabs(float x) { return __builtin_fabsf(x); }
double OV sqrt(double x) { return __builtin_sqrt(x); }
float OV sqrt(float x) { return __builtin_sqrtf(x); }
double OV fmod(double a, double b) { return __builtin_fmod(a, b); }
float OV fmod(float a, float b) { return __builtin_fmodf(a, b); }
int OV isnan(double x) { return __builtin_isnan(x); }
int OV isnan(float x) { return __builtin_isnan(x); }
int OV signbit(double x) { return __builtin_signbit(x); }
int OV signbit(float x) { return __builtin_signbitf(x); }
int OV min(int a, int b) { return a < b ? a : b; }
int OV max(int a, int b) { return a > b ? a : b; }
float OV clamp(float v, float lo, float hi) { return __builtin_fminf(__builtin_fmaxf(v, lo), hi); }
#ifdef __AMDGCN__
size_t OV get_global_id(uint d)
{
    return d == 0 ? __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x()
         : d == 1 ? __builtin_amdgcn_workgroup_id_y() * __builtin_amdgcn_workgroup_size_y() + __builtin_amdgcn_workitem_id_y()
                  : __builtin_amdgcn_workgroup_id_z() * __builtin_amdgcn_workgroup_size_z() + __builtin_amdgcn_workitem_id_z();
}
size_t OV get_local_id(uint d)
{
    return d == 0 ? __builtin_amdgcn_workitem_id_x() : d == 1 ? __builtin_amdgcn_workitem_id_y() : __builtin_amdgcn_workitem_id_z();
}
size_t OV get_local_size(uint d)
{
    return d == 0 ? __builtin_amdgcn_workgroup_size_x() : d == 1 ? __builtin_amdgcn_workgroup_size_y() : __builtin_amdgcn_workgroup_size_z();
}
void OV barrier(uint flags)
{
    (void)flags;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#else
size_t OV get_local_id(uint d)
{
    return d == 0 ? __nvvm_read_ptx_sreg_tid_x() : d == 1 ? __nvvm_read_ptx_sreg_tid_y() : __nvvm_read_ptx_sreg_tid_z();
}
size_t OV get_local_size(uint d)
{
    return d == 0 ? __nvvm_read_ptx_sreg_ntid_x() : d == 1 ? __nvvm_read_ptx_sreg_ntid_y() : __nvvm_read_ptx_sreg_ntid_z();
}
void OV barrier(uint flags)
{
    (void)flags;
    __nvvm_bar_sync(0);
}
size_t OV get_global_id(uint d)
{
    return d == 0 ? __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x()
         : d == 1 ? __nvvm_read_ptx_sreg_ctaid_y() * __nvvm_read_ptx_sreg_ntid_y() + __nvvm_read_ptx_sreg_tid_y()
                  : __nvvm_read_ptx_sreg_ctaid_z() * __nvvm_read_ptx_sreg_ntid_z() + __nvvm_read_ptx_sreg_tid_z();
}
#endif
CL
cat >"$tmp/probe.cl" <<'CL'
#include "cf_nodes.h"
/* one octave sample each: offsets (and the smear scale) from the table, the point per work-item */
__kernel void probe_perlin(CF_TAB t, __global const double *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = cf_perlin(t + 32, cf_ld_f64(t), cf_ld_f64(t + 8), cf_ld_f64(t + 16), in[3 * i], in[3 * i + 1], in[3 * i + 2]);
}
__kernel void probe_smeared(CF_TAB t, __global const double *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = cf_smeared(t + 32, cf_ld_f64(t), cf_ld_f64(t + 8), cf_ld_f64(t + 16), cf_ld_f64(t + 24), in[3 * i],
                        in[3 * i + 1], in[3 * i + 2]);
}
/* the corner stage's octave: per corner (records as cf_stack_axes reads them), per axis value */
__kernel void probe_corner(CF_TAB t, __global const int *a, __global float *out)
{
    size_t g = get_global_id(0);
    int i = g % 5, j = (g / 5) % 49, k = g / 245;
    __global const int *ax = a + 2 * i, *ay = a + 20 + 3 * j, *az = a + 10 + 2 * k;
    out[g] = cf_perlin_lattice(t + 32, ax[0], ay[0], az[0], as_float(ax[1]), as_float(ay[1]), as_float(az[1]),
                               as_float(ay[2]));
}
__kernel void probe_axis_xz(CF_TAB t, __global const double *in, __global int *rec)
{
    size_t g = get_global_id(0);
    float u;
    rec[2 * g] = cf_axis(in[g] * cf_ld_f64(t + 8), cf_ld_f64(t), &u);
    rec[2 * g + 1] = as_int(u);
}
__kernel void probe_axis_y(CF_TAB t, __global const double *in, __global int *rec)
{
    size_t g = get_global_id(0);
    float v, f;
    rec[3 * g] = cf_axis_y(in[g] * cf_ld_f64(t + 8), cf_ld_f64(t), cf_ld_f64(t + 24), &v, &f);
    rec[3 * g + 1] = as_int(v);
    rec[3 * g + 2] = as_int(f);
}
CL
CLF="-cl-std=CL1.2 -D__OPENCL_VERSION__=120 -DCF_GPU -Ikernels -nogpulib -O3"
AMD="-target amdgcn-amd-amdhsa -mcpu=$MCPU"
$CLANG $CLF $AMD -emit-llvm -c "$tmp/devlib.cl" -o "$tmp/devlib.bc"
for f in prog probe; do
  $CLANG $CLF $AMD -Xclang -mlink-builtin-bitcode -Xclang "$tmp/devlib.bc" -c "$tmp/$f.cl" -o "$tmp/$f.o"
  llvm-readelf --notes "$tmp/$f.o" >"$tmp/$f.notes"
  llvm-readelf -s --wide "$tmp/$f.o" >"$tmp/$f.syms"
  llvm-objdump -d --mcpu="$MCPU" "$tmp/$f.o" >"$tmp/$f.dis"
done
if [ -n "$NVPTX_ARCH" ]; then
  NV="-target nvptx64-nvidia-cuda -march=$NVPTX_ARCH"
  $CLANG $CLF $NV -emit-llvm -c "$tmp/devlib.cl" -o "$tmp/devlib-nv.bc"
  for f in prog probe; do
    $CLANG $CLF $NV -Xclang -mlink-builtin-bitcode -Xclang "$tmp/devlib-nv.bc" -S "$tmp/$f.cl" -o "$tmp/$f.ptx" || : >"$tmp/$f.ptx"
  done
fi
echo "program: $SETTINGS of $PACK ($(wc -c <"$tmp/prog.cl") bytes of OpenCL C); $($CLANG --version | head -1), -O3, $MCPU${NVPTX_ARCH:+, nvptx64 $NVPTX_ARCH}; $(date -u +%Y-%m-%d)"
echo
python3 - "$tmp" "$NVPTX_ARCH" <<'PY'
import os, re, sys
tmp, nv = sys.argv[1], sys.argv[2]
def meta(f):
    # one record a kernel, a YAML list item ("- .agpr_count: ..."); its fields come in
    # alphabetical order, some before .name
    ks, cur = {}, {}
    for l in open(os.path.join(tmp, f + ".notes")):
        if re.match(r"\s*- \.", l): cur = {}
        m = re.match(r"\s*(?:- )?\.(name|vgpr_count|agpr_count|sgpr_count|vgpr_spill_count|sgpr_spill_count|private_segment_fixed_size|group_segment_fixed_size):\s+(\S+)", l)
        if not m: continue
        if m.group(1) == "name": ks[m.group(2)] = cur
        else: cur[m.group(1)] = int(m.group(2))
    return ks
def syms(f):
    size, und = {}, []
    for l in open(os.path.join(tmp, f + ".syms")):
        p = l.split()
        if len(p) >= 8 and p[3] == "FUNC": size[p[7]] = int(p[2])
        if len(p) >= 8 and p[6] == "UND" and p[7:]: und.append(p[7])
    return size, und
def fp64(f):
    n, k = {}, None
    for l in open(os.path.join(tmp, f + ".dis")):
        m = re.match(r"[0-9a-f]+ <(.*)>:", l)
        if m: k = m.group(1); continue
        if k and re.match(r"\s+[sv]_\w*f64", l): n[k] = n.get(k, 0) + 1
    return n
def ptx(f):
    n, k = {}, None
    p = os.path.join(tmp, f + ".ptx")
    if not os.path.exists(p): return n
    for l in open(p):
        m = re.search(r"\.entry\s+(\w+)|\.func\s+(?:\([^)]*\)\s*)?(\w+)", l)
        if m: k = m.group(1) or m.group(2); continue
        op = l.split()[0] if l.split() else ""
        if op.startswith("@") and len(l.split()) > 1: op = l.split()[1] # predicated
        if k and ".f64" in op and not op.startswith(("ld.", "st.", "mov.")): n[k] = n.get(k, 0) + 1
    return n
for f, title in (("prog", "kernels of the program"), ("probe", "one octave sample (probe kernels)")):
    ks, (size, und), d, p = meta(f), syms(f), fp64(f), ptx(f)
    print(f"**{title}**")
    print()
    hdr = "| kernel | VGPRs | AGPRs | SGPRs | VGPR / SGPR spills | scratch bytes | local (LDS) bytes | code bytes | fp64 instructions (static) |"
    print(hdr + (" PTX .f64 instructions |" if nv else ""))
    print("|---" * (9 + (1 if nv else 0)) + "|")
    for k, m in ks.items():
        row = f"| {k} | {m.get('vgpr_count', '?')} | {m.get('agpr_count', 0)} | {m.get('sgpr_count', '?')} | {m.get('vgpr_spill_count', 0)} / {m.get('sgpr_spill_count', 0)} | {m.get('private_segment_fixed_size', '?')} | {m.get('group_segment_fixed_size', 0)} | {size.get(k, '?')} | {d.get(k, 0)} |"
        print(row + (f" {p.get(k, '-')} |" if nv else ""))
    other = {k: v for k, v in size.items() if k not in ks}
    if other: print("\nfunctions left as calls (not inlined): " + ", ".join(f"{k} ({v} bytes, {d.get(k, 0)} fp64)" for k, v in other.items()))
    if und: print("\nunresolved calls (scratch unknown): " + ", ".join(und))
    print()
    if f == "probe" and all(k in d or k in ks for k in ("probe_corner", "probe_axis_xz", "probe_axis_y")):
        m = re.search(r"int i = q % (\d+), j = \(q / \d+\) % (\d+)", open(os.path.join(tmp, "prog.cl")).read())
        if m:
            nx, ny = int(m.group(1)), int(m.group(2))
            c, a, b = d.get("probe_corner", 0), d.get("probe_axis_xz", 0), d.get("probe_axis_y", 0)
            share = (2 * nx * a + ny * b) / (nx * ny * nx)
            print(f"fp64 instructions per octave sample at a corner ({nx} x {ny} x {nx} corners a chunk): {c} at the corner"
                  f" + {share:.2f} (its share of k_axes: ({2 * nx} x {a} + {ny} x {b}) / {nx * ny * nx}) = {c + share:.2f}")
            if "the batch's y records" in open(os.path.join(tmp, "prog.cl")).read():
                # k_axes writes the y records once per batch (every chunk has the same y values)
                for bn in (64, 4096):
                    sh = (2 * nx * a + ny * b / bn) / (nx * ny * nx)
                    print(f"  with the y records shared by a batch of {bn} chunks (device.c: 64 on a CPU device, up to 4096 on a GPU):"
                          f" {c} + ({2 * nx} x {a} + {ny} x {b} / {bn}) / {nx * ny * nx} = {c + sh:.2f}")
            print()
PY
