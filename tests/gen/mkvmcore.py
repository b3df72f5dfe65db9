#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkvmcore.py - write a synthetic x86_64 /proc/vmcore from a small text spec.

    mkvmcore.py SPEC OUT.vmcore [--expect OUT.json] [--levels 2,4,8,16,31]

The vmcore is an ELF64 LE core file laid out like the kernel's /proc/vmcore:
program headers at offset 64, a PT_NOTE (CORE/NT_PRSTATUS notes plus a
VMCOREINFO note), an optional kernel-text PT_LOAD and one direct-map PT_LOAD
per RAM range.  The memory image contains real x86_64 page tables (4 or 5
levels), the mem_section structures (SPARSEMEM_EXTREME / SPARSEMEM) or a
FLATMEM mem_map, and one struct page per pfn encoded the way the chosen
kernel generation does (see gens.py).

Next to it an expectation JSON is written: for each dump level, which pfn
ranges makedumpfile's rules (makedumpfile-notes.md 3.3) exclude and with
which counter.  The expectation is derived from the spec (what each page
*is*), never by scanning the struct pages we wrote.

See README.md in this directory for the spec language.  Standard library
only; python3 >= 3.9.
"""

import bisect
import json
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gens as G  # noqa: E402
import arm64 as A64  # noqa: E402
import ppc64 as P64  # noqa: E402
import riscv64 as RV  # noqa: E402
import s390x as S390  # noqa: E402

PAGE = 4096
PAGE_SHIFT = 12
E = '<'            # the dumped machine's byte order, for struct formats


def set_page_size(size):
    """The dumped machine's page size: 4096 unless an arm64 spec says."""
    global PAGE, PAGE_SHIFT
    PAGE, PAGE_SHIFT = size, size.bit_length() - 1


def set_byte_order(big):
    """Little-endian unless the spec's machine is big-endian (s390x)."""
    global E
    E = '>' if big else '<'
START_KERNEL_MAP = G.START_KERNEL_MAP
LIST_POISON1 = 0xdead000000000100
LIST_POISON2 = 0xdead000000000122
TAIL_MAPPING = 0xdead000000000400
FLAG_DECOR = 0x0017ffff00000000      # node/zone/section bits (above bit 31)
PTE_TABLE = 0x63                      # P|RW|A|D
PTE_LEAF = 0x8000000000000163         # NX|G|D|A|RW|P
PTE_LARGE = 0x80000000000001e3        # NX|G|PSE|D|A|RW|P
PTE_KTEXT = 0x00000000000001e3        # kernel text 2M (executable)
ADDR_MASK = 0x000ffffffffff000

ALL_KINDS = ('kernel', 'reserved', 'zero', 'free', 'unaccepted', 'anon', 'ksm',
             'thp', 'cache', 'pcache', 'swapcache', 'ownerpriv', 'movable',
             'slab', 'hugetlb', 'hwpoison', 'offline', 'compound', 'pgtable',
             'zsmalloc', 'garbage')
COMPOUND_KINDS = ('thp', 'cache', 'pcache', 'anon', 'slab', 'hugetlb',
                  'compound')
COUNTERS = ('zero', 'cache', 'private_cache', 'user', 'free', 'hwpoison',
            'offline')


class SpecError(Exception):
    pass


def num(s):
    """Parse 0x.., decimal, with optional K/M/G/T suffix; negative ok."""
    s = s.strip()
    neg = s.startswith('-')
    if neg:
        s = s[1:]
    mult = 1
    suf = s[-1:].upper()
    if suf in ('K', 'M', 'G', 'T') and not s.lower().startswith('0x'):
        mult = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40}[suf]
        s = s[:-1]
    elif suf in ('K', 'M', 'G', 'T') and s.lower().startswith('0x') \
            and s[-1] in 'KMGT':
        mult = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40}[suf]
        s = s[:-1]
    v = int(s, 0) * mult
    return -v if neg else v


# ---------------------------------------------------------------------------
# Spec parsing

class Spec:
    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        set_page_size(4096)
        set_byte_order(False)
        self.arm = None            # the `arch arm64` options, or x86_64
        self.dmesg = False         # a 3.5-5.9 record log buffer
        self.gen = None
        self.paging = 4
        self.model = 'sparse_extreme'
        self.section_bits = 27
        self.max_physmem_bits = None
        self.page_offset = None
        self.vmemmap = None
        self.vmemmap_size = '4k'
        self.vmemmap_phys = None
        self.ram = []
        self.kernel = dict(load=16 << 20, size=8 << 20, offset=0, ptload=True)
        self.cpus = 2
        self.crashtime = 1700000000
        self.seed = 1
        self.uts_kref = False      # `uts kref`: the layout before 5.11
        self.vi_set = []
        self.vi_del = []
        self.pages = []
        self.corrupt = []
        self.freelists = None      # None | 'node_data' | 'contig'
        self.makedumpfile = 'ok'   # ok | differs | fails | skip
        self.notes = []
        self.parse(open(path).read())

    def parse(self, text):
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            w = line.split()
            try:
                self._directive(w)
            except (ValueError, IndexError, KeyError) as e:
                raise SpecError('%s:%d: %s: %s' % (self.path, lineno, raw, e))
        if self.gen is None:
            raise SpecError('%s: missing "gen"' % self.path)
        if not self.ram:
            raise SpecError('%s: no "ram"' % self.path)

    def _arch(self, w):
        if w[0] == 'x86_64':
            return
        if w[0] == 'ppc64le':
            return self._arch_ppc64(w)
        if w[0] == 'riscv64':
            return self._arch_riscv64(w[1:])
        if w[0] == 's390x':
            return self._arch_s390x(w[1:])
        if w[0] != 'arm64':
            raise ValueError('arch x86_64|arm64|ppc64le|riscv64|s390x')
        if self.ram:
            raise ValueError('arch must come before ram')
        a = dict(page=4096, va=48, vabits=None, layout='flipped', pa=48,
                 linear=None, phys_offset=None)
        for o in w[1:]:
            k, v = o.split('=', 1)
            if k == 'page':
                a[k] = {'4k': 4096, '16k': 16384, '64k': 65536}[v.lower()]
            elif k in ('va', 'vabits', 'pa'):
                a[k] = int(v)
            elif k == 'layout' and v in ('flipped', 'old'):
                a[k] = v
            elif k == 'linear' and v in ('l0', 'l1', 'l2', 'page'):
                a[k] = v
            elif k == 'phys_offset':
                a[k] = num(v)
            else:
                raise ValueError('arch arm64 page=4k|16k|64k va=N [vabits=N] '
                                 '[layout=flipped|old] [pa=48|52] '
                                 '[linear=l0|l1|l2|page] [phys_offset=ADDR]')
        self.arm = a
        self.kernel['ptload'] = False
        set_page_size(a['page'])

    def _arch_ppc64(self, w):
        """arch ppc64le page=4k|64k mmu=radix|hash (ppc64.py)."""
        if self.ram:
            raise ValueError('arch must come before ram')
        a = dict(machine='ppc64le', page=65536, mmu='radix', pa=51,
                 linear=None, phys_offset=None, vmemmap='tables',
                 cpu_spec=False)
        for o in w[1:]:
            k, v = o.split('=', 1)
            if k == 'page':
                a[k] = {'4k': 4096, '64k': 65536}[v.lower()]
            elif k == 'mmu' and v in ('radix', 'hash'):
                a[k] = v
            elif k == 'vmemmap' and v in ('tables', 'list'):
                a[k] = v
            elif k == 'cpu_spec' and v in ('yes', 'no'):
                a[k] = v == 'yes'
            else:
                raise ValueError('arch ppc64le page=4k|64k mmu=radix|hash '
                                 '[vmemmap=tables|list] [cpu_spec=yes|no]')
        self.arm = a
        self.kernel['ptload'] = False
        set_page_size(a['page'])

    def _arch_riscv64(self, w):
        """riscv64.py's geometry, built by the arm64 code (self.arm)."""
        if self.ram:
            raise ValueError('arch must come before ram')
        a = dict(arch='riscv64', page=4096, va=39, vabits=None, pa=56,
                 linear=None, phys_offset=None)
        for o in w:
            k, v = o.split('=', 1)
            if k == 'va':
                a[k] = int(v)
            elif k == 'linear' and v in ('l0', 'l1', 'l2', 'page'):
                a[k] = v
            elif k == 'napot' and v == 'vmemmap':
                a[k] = v
            else:
                raise ValueError('arch riscv64 va=39|48|57 '
                                 '[linear=l0|l1|l2|page] [napot=vmemmap]')
        self.arm = a
        self.kernel['ptload'] = False

    def _arch_s390x(self, w):
        """s390x.py's geometry, built by the arm64 code (self.arm);
        big-endian."""
        if self.ram:
            raise ValueError('arch must come before ram')
        a = dict(arch='s390x', page=4096, levels=3, layout='legacy',
                 os_info=False, vabits=None, pa=46, linear=None,
                 phys_offset=None)
        for o in w:
            k, v = o.split('=', 1)
            if k == 'levels' and v in ('3', '4', '5'):
                a[k] = int(v)
            elif k == 'layout' and v in ('legacy', 'vr'):
                a[k] = v
            elif k == 'os_info' and v in ('yes', 'no'):
                a[k] = v == 'yes'
            elif k == 'linear' and v in ('l1', 'l2', 'page'):
                a[k] = v
            else:
                raise ValueError('arch s390x levels=3|4|5 '
                                 '[layout=legacy|vr] [os_info=yes|no] '
                                 '[linear=l1|l2|page]')
        self.arm = a
        self.kernel['ptload'] = False
        set_byte_order(True)

    def _directive(self, w):
        d = w[0]
        if d == 'arch':
            self._arch(w[1:])
        elif d == 'gen':
            if w[1] not in G.GENS:
                raise KeyError('unknown gen %r (have %s)' %
                               (w[1], ' '.join(G.GENS)))
            self.gen = w[1]
        elif d == 'paging':
            self.paging = int(w[1])
            if self.paging not in (4, 5):
                raise ValueError('paging must be 4 or 5')
        elif d == 'model':
            if w[1] not in ('sparse_extreme', 'sparse', 'flat'):
                raise ValueError('model: sparse_extreme|sparse|flat')
            self.model = w[1]
        elif d == 'section_bits':
            self.section_bits = int(w[1], 0)
        elif d == 'max_physmem_bits':
            self.max_physmem_bits = int(w[1], 0)
        elif d == 'page_offset':
            self.page_offset = num(w[1])
        elif d == 'vmemmap':
            self.vmemmap = None if w[1] == 'default' else (
                'none' if w[1] == 'none' else num(w[1]))
            if len(w) > 2:
                self.vmemmap_size = {'page': '4k', 'l2': '2m', 'l1': '1g',
                                     '1m': '2m', '2g': '1g'}.get(
                    w[2].lower(), w[2].lower())
                if self.vmemmap_size not in ('4k', '2m', '1g'):
                    raise ValueError('vmemmap mapping size: 4k|2m|1g')
            for o in w[3:]:
                k, v = o.split('=', 1)
                if k == 'phys':
                    self.vmemmap_phys = num(v)
                else:
                    raise ValueError('unknown vmemmap option ' + k)
        elif d == 'ram':
            s, e = num(w[1]), num(w[2])
            if s % PAGE or e % PAGE or e <= s:
                raise ValueError('ram range must be page aligned, end > start')
            self.ram.append((s, e))
        elif d == 'kernel':
            for o in w[1:]:
                k, v = o.split('=', 1)
                if k == 'ptload':
                    self.kernel['ptload'] = v in ('yes', '1', 'true')
                elif k in ('load', 'size', 'offset'):
                    self.kernel[k] = num(v)
                else:
                    raise ValueError('unknown kernel option ' + k)
        elif d == 'cpus':
            self.cpus = int(w[1])
        elif d == 'crashtime':
            self.crashtime = int(w[1])
        elif d == 'uts':
            if w[1:] != ['kref']:
                raise ValueError('uts kref')
            self.uts_kref = True
        elif d == 'seed':
            self.seed = int(w[1])
        elif d == 'vmcoreinfo':
            if w[1] == 'set':
                k, v = ' '.join(w[2:]).split('=', 1)
                self.vi_set.append((k, v))
            elif w[1] == 'del':
                self.vi_del.append(w[2])
            else:
                raise ValueError('vmcoreinfo set KEY=VALUE | del KEY')
        elif d == 'pages':
            start, count, kind = num(w[1]), num(w[2]), w[3]
            if kind not in ALL_KINDS:
                raise ValueError('unknown kind %r' % kind)
            opts = {}
            for o in w[4:]:
                if '=' in o:
                    k, v = o.split('=', 1)
                    opts[k] = v
                else:
                    opts[o] = True
            self.pages.append((start, count, kind, opts))
        elif d == 'corrupt':
            if w[1] == 'pgdat':
                num(w[2])
            if w[1] == 'freelist':
                if len(w) < 5 or w[4] not in ('loop', 'badptr', 'badprev'):
                    raise ValueError('corrupt freelist ORDER MT '
                                     'loop|badptr|badprev [...]')
                int(w[2], 0), int(w[3], 0)
            self.corrupt.append(w[1:])
        elif d == 'freelists':
            if w[1] == 'off':
                self.freelists = None
            elif w[1] == 'on':
                self.freelists = 'auto'
                for o in w[2:]:
                    k, v = o.split('=', 1)
                    if k != 'pgdat' or v not in ('node_data', 'contig'):
                        raise ValueError('freelists on [pgdat=node_data|'
                                         'contig]')
                    self.freelists = v
            else:
                raise ValueError('freelists on|off')
        elif d == 'dmesg':
            if w[1] != 'records':
                raise ValueError('dmesg records')
            self.dmesg = True
        elif d == 'makedumpfile':
            self.makedumpfile = w[1]
        elif d == 'note':
            self.notes.append(' '.join(w[1:]))
        else:
            raise ValueError('unknown directive ' + d)


# ---------------------------------------------------------------------------
# Physical memory

class PhysMem:
    def __init__(self, ranges):
        self.ranges = sorted(ranges)
        self.starts = [s for s, e in self.ranges]
        self.bufs = []
        for s, e in self.ranges:
            buf = bytearray(e - s)
            for off in range(0, e - s, PAGE):
                pfn = (s + off) >> PAGE_SHIFT
                buf[off:off + PAGE] = struct.pack(
                    '<QQ', 0x5446495353d4e56 ^ (pfn << 20), pfn) * (PAGE // 16)
            self.bufs.append(buf)

    def find(self, pa):
        i = bisect.bisect_right(self.starts, pa) - 1
        if i >= 0 and pa < self.ranges[i][1]:
            return i
        return None

    def in_ram(self, pa, size=1):
        i = self.find(pa)
        return i is not None and pa + size <= self.ranges[i][1]

    def write(self, pa, data):
        i = self.find(pa)
        if i is None or pa + len(data) > self.ranges[i][1]:
            raise SpecError('write outside RAM at %#x (+%d)' % (pa, len(data)))
        o = pa - self.ranges[i][0]
        self.bufs[i][o:o + len(data)] = data

    def read(self, pa, n):
        i = self.find(pa)
        o = pa - self.ranges[i][0]
        return bytes(self.bufs[i][o:o + n])

    def zero_page(self, pfn):
        self.write(pfn << PAGE_SHIFT, bytes(PAGE))

    def is_zero_page(self, pfn):
        pa = pfn << PAGE_SHIFT
        i = self.find(pa)
        o = pa - self.ranges[i][0]
        return self.bufs[i][o:o + PAGE].count(0) == PAGE


# ---------------------------------------------------------------------------
# Units: one allocation as the kernel sees it (a page, a compound page, a
# buddy block).  The expectation is computed from these.

class Unit:
    __slots__ = ('pfn', 'n', 'kind', 'order', 'order_field', 'opts',
                 'doubtful', 'either', 'flo')

    def __init__(self, pfn, n, kind, order=0, order_field=None, opts=None):
        self.pfn, self.n, self.kind, self.order = pfn, n, kind, order
        self.order_field = order if order_field is None else order_field
        self.opts = opts or {}
        self.doubtful = False
        self.either = False
        self.flo = None         # order of the free list it is linked on


# ---------------------------------------------------------------------------

class Builder:
    def __init__(self, spec):
        self.s = spec
        self.g = G.GENS[spec.gen]
        self.L = self.g['layout']
        self.F = self.g['flags']
        self.T = self.g['types']
        self.rng = random.Random(spec.seed)
        self.table_off = {}    # table pfn -> byte offset (ppc64)
        self.warnings = []
        self.setup_layout()

    # -- geometry ---------------------------------------------------------
    def setup_layout(self):
        s, g = self.s, self.g
        self.l5 = s.paging == 5
        if s.page_offset is not None:
            self.page_offset = s.page_offset
        else:
            self.page_offset = 0xff11000000000000 if self.l5 \
                else g['page_offset4']
        if s.vmemmap == 'none':
            self.vmemmap = None
        elif s.vmemmap is None:
            self.vmemmap = 0xffd4000000000000 if self.l5 \
                else 0xffffea0000000000
        else:
            self.vmemmap = s.vmemmap
        if s.model == 'flat':
            self.vmemmap = None
        self.max_physmem_bits = s.max_physmem_bits or (52 if self.l5 else 46)
        k = s.kernel
        self.kload, self.ksize, self.koffset = k['load'], k['size'], k['offset']
        self.A = None
        if s.arm:
            self.setup_arm()
        else:
            self.stext = START_KERNEL_MAP + 0x1000000 + self.koffset
            self.phys_base = self.kload - (self.stext - START_KERNEL_MAP)
        if self.phys_base % (2 << 20) or self.kload % (2 << 20):
            raise SpecError('kernel load/offset must keep phys_base 2M aligned')
        self.mem = PhysMem(s.ram)
        for (a, b), (c, d) in zip(self.mem.ranges, self.mem.ranges[1:]):
            if c < b:
                raise SpecError('overlapping ram ranges')
        if not self.mem.in_ram(self.kload, self.ksize):
            raise SpecError('kernel image not inside RAM')
        self.max_mapnr = max(e for _, e in self.mem.ranges) >> PAGE_SHIFT
        self.ram_pfns = [(a >> PAGE_SHIFT, b >> PAGE_SHIFT)
                         for a, b in self.mem.ranges]
        self.psize = self.L['size']
        self.pages_per_section = 1 << (s.section_bits - PAGE_SHIFT)
        self.nr_mem_sections = 1 << (self.max_physmem_bits - s.section_bits)
        self.ms_size = g['mem_section_size']
        self.sections_per_root = PAGE // self.ms_size
        # pfn bookkeeping
        self.owner = {}        # pfn -> label for pages not free for alloc
        self.meta_kind = {}    # pfn -> kind of generator-allocated page
        self.units = []
        kp0 = self.kload >> PAGE_SHIFT
        for p in range(kp0, kp0 + (self.ksize >> PAGE_SHIFT)):
            self.owner[p] = 'kimage'
        self.kimage_next = (self.kload + self.ksize) >> PAGE_SHIFT
        self.table_level = {}  # table pfn -> its level (s390x)
        if getattr(self.A, 'arch', None) == 's390x':
            for p in (0, 1):          # the lowcore, zero but os_info's
                self.owner[p] = 'lowcore'
                self.meta_kind[p] = 'lowcore'
                self.mem.zero_page(p)

    def setup_arm(self):
        """arm64: the layout of arm64.py; phys_base is PHYS_OFFSET."""
        s, a = self.s, self.s.arm
        if a.get('machine') == 'ppc64le':
            return self.setup_ppc64()
        try:
            if a.get('arch') == 'riscv64':
                self.A = RV.Riscv64(a['va'], min(r[0] for r in s.ram))
                self.A.napot = a.get('napot') == 'vmemmap'
            elif a.get('arch') == 's390x':
                self.A = S390.S390x(a['levels'], a['layout'],
                                    min(r[0] for r in s.ram),
                                    max(r[1] for r in s.ram))
                self.A.os_info = a['os_info']
            else:
                self.A = A64.Arm64(a['page'], a['va'], a['vabits'],
                                   a['layout'], a['pa'],
                                   min(r[0] for r in s.ram))
        except ValueError as ex:
            raise SpecError(str(ex))
        if a['phys_offset'] is not None:
            self.A.phys_offset = a['phys_offset']
        self.l5 = False
        self.page_offset = self.A.lin_start
        if s.vmemmap == 'none' or s.model == 'flat':
            self.vmemmap = None
        elif s.vmemmap is None:
            self.vmemmap = self.A.vmemmap_base(self.L['size'])
        self.max_physmem_bits = s.max_physmem_bits or a['pa']
        if hasattr(self.A, 'image_base'):
            self.kvbase = self.A.image_base(self.kload, self.koffset)
        else:
            self.kvbase = self.A.kimage_vaddr + self.koffset
        self.kimage_voffset = (self.kvbase - self.kload) & A64.M64
        self.stext = self.kvbase + 0x10000
        self.phys_base = self.A.phys_offset
        if self.koffset % (64 << 10):
            raise SpecError('arm64 kernel offset must be 64K aligned')
        if a.get('arch') == 'riscv64' and (self.koffset | self.kload |
                                           self.ksize) % (2 << 20):
            raise SpecError('riscv64 kernel load, size, offset: 2M aligned')

    def setup_ppc64(self):
        """ppc64le: the image is part of the linear map, loaded at 0."""
        s = self.s
        try:
            self.A = P64.Ppc64(s.arm['page'], s.arm['mmu'],
                               self.g['version'])
        except ValueError as ex:
            raise SpecError(str(ex))
        if self.kload != 0 or self.koffset:
            raise SpecError('ppc64 kernel load=0 offset=0 (the image is '
                            'linear)')
        self.l5 = False
        self.page_offset = self.A.lin_start
        if s.vmemmap == 'none' or s.model == 'flat':
            self.vmemmap = None
        elif s.vmemmap is None:
            self.vmemmap = self.A.vmemmap_base(self.L['size'])
        self.max_physmem_bits = s.max_physmem_bits or s.arm['pa']
        self.vmemmap_list = s.arm['vmemmap'] == 'list'
        if self.vmemmap_list and s.arm['mmu'] != 'hash':
            raise SpecError('vmemmap=list is the hash MMU\'s')
        self.kvbase = self.A.lin_start
        self.kimage_voffset = self.A.lin_start
        self.stext = self.A.lin_start
        self.phys_base = 0

    def pfn_in_ram(self, pfn):
        return self.mem.in_ram(pfn << PAGE_SHIFT)

    # -- address translation of our own mapping -----------------------------
    def kva(self, pa):
        if self.A:
            return (pa + self.kimage_voffset) & A64.M64
        return START_KERNEL_MAP + pa - self.phys_base

    def dva(self, pa):
        if self.A:
            return self.A.lva(pa)
        return self.page_offset + pa

    def va2pa(self, va):
        if self.A:
            return self.va2pa_arm(va)
        if va >= START_KERNEL_MAP:
            return va - START_KERNEL_MAP + self.phys_base
        if self.vmemmap is not None and self.vmemmap <= va < self.vmemmap + (1 << 46):
            pa = self.vmap.get(va >> PAGE_SHIFT)
            if pa is None:
                return None
            return (pa << PAGE_SHIFT) | (va & (PAGE - 1))
        return va - self.page_offset

    def va2pa_arm(self, va):
        if self.kvbase <= va < self.kvbase + self.ksize:
            return va - self.kimage_voffset
        if self.A.is_linear(va):
            return va - self.A.lin_start + self.A.phys_offset
        pa = self.vmap.get(va >> PAGE_SHIFT)
        if pa is None:
            return None
        return (pa << PAGE_SHIFT) | (va & (PAGE - 1))

    def write_va(self, va, data):
        while data:
            n = min(len(data), PAGE - (va & (PAGE - 1)))
            pa = self.va2pa(va)
            if pa is None or not self.mem.in_ram(pa, n):
                return False
            self.mem.write(pa, data[:n])
            va += n
            data = data[n:]
        return True

    # -- allocation -------------------------------------------------------
    def kimage_alloc(self, label):
        """A page of the kernel image's .data/.bss (top down)."""
        self.kimage_next -= 1
        p = self.kimage_next
        if p < (self.kload >> PAGE_SHIFT) + 16:
            raise SpecError('kernel image too small')
        self.mem.zero_page(p)
        self.meta_kind[p] = label
        return p

    def alloc(self, label, npages=1, align=1):
        """Contiguous free RAM pages, top down (like memblock)."""
        for a, b in reversed(self.ram_pfns):
            p = (b - npages) // align * align
            while p >= a:
                if all((q not in self.owner) for q in range(p, p + npages)):
                    for q in range(p, p + npages):
                        self.owner[q] = label
                        self.meta_kind[q] = label
                        self.mem.zero_page(q)
                    return p
                p -= align
        raise SpecError('out of RAM allocating %d page(s) for %s' %
                        (npages, label))

    # -- spec pages -------------------------------------------------------
    def place_units(self):
        s = self.s
        for start, count, kind, opts in s.pages:
            order = int(opts.get('order', 0))
            if kind in ('thp', 'hugetlb') and 'order' not in opts:
                order = 9
            if kind == 'free':
                order = int(opts.get('order', 0))
            if kind == 'unaccepted':
                order = self.g['free_area_len'] - 1
            if kind == 'garbage':
                order = 0
            step = 1 << order
            if 'fake_order' in opts and kind == 'free':
                step = 1
            if count % step:
                raise SpecError('pages %#x: count %d not a multiple of 2^%d'
                                % (start, count, order))
            if start % step and 'misaligned' not in opts:
                raise SpecError('pages %#x: not aligned to order %d '
                                '(add "misaligned")' % (start, order))
            for p in range(start, start + count):
                if not self.pfn_in_ram(p):
                    raise SpecError('pages: pfn %#x not in RAM' % p)
                if p in self.owner:
                    raise SpecError('pages: pfn %#x already used (%s)'
                                    % (p, self.owner[p]))
                self.owner[p] = kind
            for p in range(start, start + count, step):
                of = opts.get('fake_order')
                u = Unit(p, step, kind, order,
                         int(of) if of is not None else None, opts)
                if kind == 'garbage':
                    u.either = True
                self.units.append(u)
        self.units.sort(key=lambda u: u.pfn)
        # a fixed vmemmap backing (phys=) is reserved before any allocation
        if s.vmemmap_phys is not None and s.vmemmap_size != '4k' and \
                s.model != 'flat' and s.vmemmap != 'none':
            chunk = self.leaf_chunk(s.vmemmap_size)
            for a, c in self.ram_pfns:
                for q in range(max(a, s.vmemmap_phys >> PAGE_SHIFT),
                               min(c, (s.vmemmap_phys + chunk) >> PAGE_SHIFT)):
                    if q in self.owner:
                        raise SpecError('vmemmap phys overlaps pfn %#x (%s)'
                                        % (q, self.owner[q]))
                    self.owner[q] = 'memmap'

    # -- page tables --------------------------------------------------------
    def build_tables(self):
        if self.A:
            return self.build_tables_arm()
        self.tables = {}       # table pfn -> {index: entry}
        self.top = self.kimage_alloc('pgtable')
        self.tables[self.top] = {}
        self.static_tables = {self.top}
        # kernel text: top[511] -> (p4d[511] ->) pud[510] -> pmd with 2M pages
        kp = self.map_table_path(START_KERNEL_MAP, 2, static=True)
        lo = (self.kload - self.phys_base) >> 21
        hi = (self.kload + self.ksize - self.phys_base + (2 << 20) - 1) >> 21
        for i in range(lo, hi):
            pa = self.phys_base + (i << 21)
            self.tables[kp][i] = pa | PTE_KTEXT
        # direct map: 1G pages over every RAM range
        done = set()
        for a, b in self.mem.ranges:
            for gb in range(a >> 30, ((b - 1) >> 30) + 1):
                if gb in done:
                    continue
                done.add(gb)
                va = self.page_offset + (gb << 30)
                t = self.map_table_path(va, 3)
                self.tables[t][(va >> 30) & 511] = (gb << 30) | PTE_LARGE

    def build_tables_arm(self):
        """swapper_pg_dir in the image; the image mapped with pages, the
        linear map with blocks (level 1 with 4K pages, else level 2, or
        as `arch ... linear=` says)."""
        A = self.A
        self.tables = {}
        self.top = self.kimage_alloc('pgtable')
        for _ in range(getattr(A, 'top_pages', 1) - 1):
            self.top = self.kimage_alloc('pgtable')   # contiguous, down
        self.tables[self.top] = {}
        self.table_level[self.top] = A.top
        self.static_tables = {self.top}
        ppc = getattr(A, 'machine', None) == 'ppc64le'
        klevel = getattr(A, 'kernel_level', 3)
        for pa in range(self.kload, self.kload + self.ksize,
                        A.block_size(klevel)) if klevel and not ppc else ():
            va = self.kva(pa)
            t = self.map_table_path(va, 4 - klevel, static=True)
            self.tables[t][A.idx(va, klevel)] = A.page_desc(pa, exec_=True)
        if ppc:
            lin = A.linear
            if lin is None:          # hash: bolted, not in these tables
                return
        else:
            lin = self.s.arm['linear'] or ('l1' if A.shift == 12 else 'l2')
        if lin == 'page':
            for a, b in self.mem.ranges:
                for pa in range(a, b, PAGE):
                    va = A.lva(pa)
                    t = self.map_table_path(va, 1)
                    self.tables[t][A.idx(va, 3)] = A.page_desc(pa)
            return
        level = int(lin[1])
        size = A.block_size(level)
        for a, b in self.mem.ranges:
            for blk in range(a // size, (b - 1) // size + 1):
                pa = blk * size
                if pa < A.phys_offset:
                    raise SpecError('linear block at %#x is below PHYS_OFFSET'
                                    % pa)
                va = A.lva(pa)
                t = self.map_table_path(va, 4 - level)
                try:
                    self.tables[t][A.idx(va, level)] = A.block_desc(pa, level)
                except ValueError as ex:
                    raise SpecError(str(ex))

    def nlev(self):
        return self.A.levels if self.A else (5 if self.l5 else 4)

    def tidx(self, va, i):
        """Index of VA in the table I steps below the top."""
        return self.A.idx(va, self.A.top + i) if self.A else self.idx(va, i)

    def table_entry(self, pfn, level=None):
        """An entry pointing at table PFN, in a table of LEVEL."""
        if hasattr(self.A, 'table_desc_at'):
            return self.A.table_desc_at(pfn << PAGE_SHIFT, level)
        if self.A:
            return self.A.table_desc(pfn << PAGE_SHIFT)
        return (pfn << PAGE_SHIFT) | PTE_TABLE

    def entry_pfn(self, e):
        if self.A:
            return self.A.desc_pa(e) >> PAGE_SHIFT
        return (e & ADDR_MASK) >> PAGE_SHIFT

    def leaf_chunk(self, size):
        """Bytes one vmemmap leaf of SIZE maps: on arm64 '4k', '2m', '1g'
        stand for a page, a level-2 block and a level-1 block."""
        depth = {'4k': 1, '2m': 2, '1g': 3}[size]
        if self.A:
            return self.A.block_size(4 - depth)
        return {1: PAGE, 2: 2 << 20, 3: 1 << 30}[depth]

    def leaf_desc(self, pa, size):
        if self.A:
            depth = {'4k': 1, '2m': 2, '1g': 3}[size]
            if depth == 1:
                return self.A.page_desc(pa)
            try:
                return self.A.block_desc(pa, 4 - depth)
            except ValueError as ex:
                raise SpecError(str(ex))
        return pa | (PTE_LEAF if size == '4k' else PTE_LARGE)

    def idx(self, va, level):
        # level: 0 = top .. ; with 4 levels: pml4, pud, pmd, pte
        shifts = [48, 39, 30, 21, 12] if self.l5 else [39, 30, 21, 12]
        return (va >> shifts[level]) & 511

    def map_table_path(self, va, depth_from_bottom, static=False):
        """Return the table pfn at the level that has depth_from_bottom
        levels below it (1 = PTE table, 2 = PMD table, 3 = PUD table),
        creating intermediate tables."""
        t = self.top
        for level in range(self.nlev() - depth_from_bottom):
            i = self.tidx(va, level)
            e = self.tables[t].get(i)
            if e is None:
                lvl = (self.A.top if self.A else 0) + level + 1
                n = self.table_pages(lvl)
                if static:
                    for _ in range(n):       # contiguous, down
                        nt = self.kimage_alloc('pgtable')
                else:
                    nt = self.alloc('pgtable', n, n)
                self.tables[nt] = {}
                self.table_level[nt] = lvl
                off = self.table_frag(level + 1)
                if off:
                    self.table_off[nt] = off
                self.tables[t][i] = self.table_entry(nt, lvl - 1) + off
                t = nt
            else:
                t = self.entry_pfn(e)
        return t

    def table_pages(self, level):
        """Pages a table at LEVEL takes (s390x: 4 for a region or
        segment table)."""
        if hasattr(self.A, 'table_pages'):
            return self.A.table_pages(level)
        return 1

    def table_frag(self, level):
        """Byte offset in its page of a new table at LEVEL (0 = top):
        ppc64 packs small PTE tables several to a page (ppc64.py)."""
        if not self.A or not hasattr(self.A, 'frag_offset'):
            return 0
        return self.A.frag_offset(self.A.top + level)

    def leaf_entry(self, va, size):
        """(table pfn, index) of the entry mapping va with a 'size' leaf."""
        depth = {'4k': 1, '2m': 2, '1g': 3}[size]
        t = self.map_table_path(va, depth)
        if self.A:
            return t, self.A.idx(va, 4 - depth)
        shift = {1: 12, 2: 21, 3: 30}[depth]
        return t, (va >> shift) & 511

    def write_tables(self):
        fmt = getattr(self.A, 'entry_fmt', E + 'Q')   # ppc64: big-endian
        for t, ents in self.tables.items():
            off = self.table_off.get(t, 0)         # ppc64 fragments
            # a top table may span pages (ppc64 radix 4K: 64 KiB)
            buf = bytearray(max(PAGE, -(-(max(ents, default=0) + 1) * 8
                                        // PAGE) * PAGE))
            if hasattr(self.A, 'empty_entry'):     # s390x: TT|I, PTE I
                lvl = self.table_level[t]
                buf = bytearray(self.table_pages(lvl) * PAGE)
                empty = struct.pack(fmt, self.A.empty_entry(lvl))
                buf[:] = empty * (len(buf) // 8)
            for i, e in ents.items():
                struct.pack_into(fmt, buf, off + i * 8, e)
            self.mem.write(t << PAGE_SHIFT, bytes(buf))

    # -- memory model --------------------------------------------------------
    def present_sections(self):
        secs = set()
        for a, b in self.ram_pfns:
            for sec in range(a // self.pages_per_section,
                             (b - 1) // self.pages_per_section + 1):
                secs.add(sec)
        return sorted(secs)

    def build_memmap(self):
        """Decide where each pfn's struct page lives; allocate backing."""
        self.vmap = {}
        s = self.s
        if s.model == 'flat':
            n = self.max_mapnr * self.psize
            np_ = (n + PAGE - 1) // PAGE
            p0 = self.alloc('memmap', np_)
            self.flat_mem_map = self.dva(p0 << PAGE_SHIFT)
            self.memmap_ranges = [(0, self.max_mapnr, self.flat_mem_map)]
            return
        self.sections = self.present_sections()
        self.memmap_ranges = []
        for sec in self.sections:
            p0 = sec * self.pages_per_section
            p1 = min(p0 + self.pages_per_section, self.max_mapnr)
            if self.vmemmap is None:
                n = (p1 - p0) * self.psize
                q = self.alloc('memmap', (n + PAGE - 1) // PAGE)
                self.memmap_ranges.append((p0, p1, self.dva(q << PAGE_SHIFT)))
            else:
                self.memmap_ranges.append(
                    (p0, p1, self.vmemmap + p0 * self.psize))
        if self.vmemmap is None:
            return
        # back the vmemmap range of each section
        size = self.s.vmemmap_size
        chunk = self.leaf_chunk(size)
        if self.vmemmap % chunk and not self.A:
            raise SpecError('vmemmap base not aligned to its mapping size')
        chunks = set()
        for p0, p1, va in self.memmap_ranges:
            end = va + (p1 - p0) * self.psize
            c = va // chunk * chunk
            while c < end:
                chunks.add(c)
                c += chunk
        self.vmemmap_leaves = {}
        self.vmemmap_blocks = {}     # ppc64 vmemmap_list: va -> pa
        for c in sorted(chunks):
            if self.s.vmemmap_phys is not None and size != '4k':
                pa = self.s.vmemmap_phys + (c - self.vmemmap)
                if pa % chunk:
                    raise SpecError('vmemmap phys= not aligned to %s' % size)
                for q in range(pa >> PAGE_SHIFT, (pa + chunk) >> PAGE_SHIFT):
                    if self.pfn_in_ram(q):
                        if q in self.owner and self.owner[q] != 'memmap':
                            raise SpecError('vmemmap phys overlaps pfn %#x (%s)'
                                            % (q, self.owner[q]))
                        self.owner[q] = 'memmap'
                        self.meta_kind[q] = 'memmap'
                        self.mem.zero_page(q)
            else:
                npg = chunk // PAGE
                pa = self.alloc('memmap', npg, npg) << PAGE_SHIFT
            for k in range(chunk // PAGE):
                self.vmap[(c >> PAGE_SHIFT) + k] = (pa >> PAGE_SHIFT) + k
            if getattr(self, 'vmemmap_list', False):
                # ppc64 hash: bolted, listed in vmemmap_list, not mapped
                self.vmemmap_blocks[c] = pa
                continue
            t, i = self.leaf_entry(c, size)
            self.tables[t][i] = self.leaf_desc(pa, size)
            self.vmemmap_leaves[c] = (t, i)

    def build_mem_section(self):
        s = self.s
        if s.model == 'flat':
            p = self.kimage_alloc('kdata')
            self.sym_mem_map = self.kva(p << PAGE_SHIFT)
            self.mem.write(p << PAGE_SHIFT,
                           struct.pack(E + 'Q', self.flat_mem_map))
            return
        secmap = {}
        for (p0, p1, va), sec in zip(self.memmap_ranges, self.sections):
            secmap[sec] = (va - p0 * self.psize) | self.g['section_flags']
        if s.model == 'sparse':
            total = self.nr_mem_sections * self.ms_size
            npg = (total + PAGE - 1) // PAGE
            base = None
            for _ in range(npg):
                base = self.kimage_alloc('kdata')
            self.sym_mem_section = self.kva(base << PAGE_SHIFT)
            self.length_mem_section = self.nr_mem_sections
            for sec, v in secmap.items():
                self.mem.write((base << PAGE_SHIFT) + sec * self.ms_size,
                               struct.pack(E + 'Q', v))
            self.roots = None
            return
        nroots = -(-self.nr_mem_sections // self.sections_per_root)
        self.length_mem_section = nroots
        rbytes = nroots * 8
        npg = (rbytes + PAGE - 1) // PAGE
        if self.g['root_in_image']:
            base = None
            for _ in range(npg):
                base = self.kimage_alloc('kdata')
            self.sym_mem_section = self.kva(base << PAGE_SHIFT)
        else:
            base = self.alloc('memsection', npg)
            self.sym_mem_section = self.dva(base << PAGE_SHIFT)
        self.root_base_pa = base << PAGE_SHIFT
        self.roots = {}
        for sec, v in sorted(secmap.items()):
            r = sec // self.sections_per_root
            if r not in self.roots:
                q = self.alloc('memsection')
                self.roots[r] = q
                self.mem.write(self.root_base_pa + r * 8,
                               struct.pack(E + 'Q', self.dva(q << PAGE_SHIFT)))
            self.mem.write((self.roots[r] << PAGE_SHIFT) +
                           (sec % self.sections_per_root) * self.ms_size,
                           struct.pack(E + 'Q', v))

    # -- struct page encoding -------------------------------------------------
    def fl(self, *names):
        v = FLAG_DECOR
        for n in names:
            v |= 1 << self.F[n]
        return v

    def spage_va(self, pfn):
        for p0, p1, va in self.memmap_ranges:
            if p0 <= pfn < p1:
                return va + (pfn - p0) * self.psize
        return None

    def put(self, buf, field, size, val):
        off = self.L.get(field) if isinstance(field, str) else field
        if off is None:
            return
        fmt = {1: E + 'B', 2: E + 'H', 4: E + 'I', 8: E + 'Q'}[size]
        struct.pack_into(fmt, buf, off, val & ((1 << (8 * size)) - 1))

    def base_page(self, flags, mapcount=-1, refcount=1, mapping=0, private=0,
                  index=0):
        b = bytearray(self.psize)
        self.put(b, 'flags', 8, flags)
        self.put(b, 'count', 4, refcount)
        self.put(b, 'mapcount', 4, mapcount)
        self.put(b, 'mapping', 8, mapping)
        self.put(b, 'private', 8, private)
        self.put(b, 'index', 8, index)
        self.put(b, 'lru', 8, LIST_POISON1)
        self.put(b, self.L['lru'] + 8, 8, LIST_POISON2)
        return b

    def tail_page(self, head_va, order, pfn_i, dtor, head_kind):
        """Struct page i (>=1) of a compound page."""
        g = self.g
        b = self.base_page(FLAG_DECOR, mapcount=-1, refcount=0,
                           mapping=TAIL_MAPPING if g['version'] >= (4, 5)
                           else 0)
        if g['chead_name'] is None:
            # pre-4.4: PG_tail + first_page in private
            self.put(b, 'flags', 8, self.fl('tail'))
            self.put(b, 'private', 8, head_va)
            self.put(b, 'mapping', 8, 0)
        else:
            self.put(b, 'chead', 8, head_va | 1)
        if pfn_i == 1:
            mode = g['compound_mode']
            if mode == 'lru_ptr':
                self.put(b, 'lru', 8, dtor)
                self.put(b, self.L['lru'] + 8, 8, order)
            elif mode == 'u32':
                self.put(b, 'dtor', 4, dtor)
                self.put(b, 'order', 4, order)
            elif mode in ('u8', 'folio'):
                self.put(b, 'dtor', 1, dtor)
                self.put(b, 'order', 1, order)
                self.put(b, 20, 4, 0xffffffff)     # compound_mapcount -1
                nr = 1 << order if order < 32 else 0
                if g['tail1_odd'] and head_kind in ('thp', 'cache', 'anon',
                                                    'pcache', 'hugetlb'):
                    # _subpages_mapcount / _pincount: one subpage mapped
                    self.put(b, 24, 4, 1)
                    self.put(b, 28, 4, 0)
                else:
                    self.put(b, 24, 4, 0)
                    self.put(b, 28, 4, nr)
            elif mode == 'flags1':
                f = FLAG_DECOR | (order & 0xff)
                if dtor == 'hugetlb' and g['hugetlb_mode'] == 'pg_hugetlb':
                    f |= 1 << self.F['hugetlb']
                if head_kind in ('thp', 'anon', 'cache', 'pcache'):
                    f |= 1 << self.F['large_rmappable']
                self.put(b, 'flags', 8, f)
                self.put(b, 16, 4, 0xffffffff)       # _entire_mapcount
                self.put(b, 20, 4, 0)                # _nr_pages_mapped
                self.put(b, 24, 4, 1 if head_kind in ('thp', 'anon', 'cache',
                                                     'pcache') else 0)
                self.put(b, 28, 4, 1 << order if order < 32 else 0)
        return b

    def dtor_value(self, kind):
        g = self.g
        if g['compound_mode'] == 'flags1':
            return 'hugetlb' if kind == 'hugetlb' else None
        if g['compound_mode'] == 'lru_ptr':
            return self.sym_free_huge_page if kind == 'hugetlb' \
                else self.sym_free_compound_page
        d = g['dtors']
        if kind == 'hugetlb':
            return d['hugetlb']
        if kind == 'thp':
            return d['thp']
        return d['compound']

    def unit_pages(self, u):
        """Return list of (pfn, struct page bytes) for a unit."""
        g, T, kind = self.g, self.T, self.kind_of(u)
        head = []
        n = u.n
        anon_vma = 0xffff888004a3c001 | (u.pfn << 8 & 0xffff00)
        addr_space = 0xffff888003b0e6e8 + ((u.pfn & 0xff) << 9)
        mapping, flags, mapcount, private, refcount = 0, FLAG_DECOR, -1, 0, 1
        compound = kind in COMPOUND_KINDS and u.order > 0
        if kind in ('kernel', 'zero', 'garbage'):
            pass
        elif kind == 'reserved':
            flags = self.fl('reserved')
        elif kind == 'free':
            refcount = 0
            private = u.order_field
            if g['buddy_mode'] == 'flag':
                flags = self.fl('buddy')
            else:
                mapcount = T['buddy']
            compound = False
        elif kind == 'unaccepted':
            refcount = 0
            mapcount = T['unaccepted']
            compound = False
        elif kind in ('anon', 'thp'):
            flags = self.fl('lru', 'swapbacked', 'uptodate', 'dirty')
            mapping = anon_vma
            mapcount = 0
        elif kind == 'ksm':
            flags = self.fl('lru', 'swapbacked', 'uptodate')
            mapping = anon_vma | 3
            mapcount = 1
        elif kind == 'cache':
            flags = self.fl('lru', 'uptodate', 'referenced')
            mapping = addr_space
            mapcount = 2 if u.pfn & 1 else -1
        elif kind == 'pcache':
            flags = self.fl('lru', 'uptodate', 'private')
            mapping = addr_space
            private = 0xffff888005c00000 + ((u.pfn & 0xfff) << 7)
        elif kind == 'swapcache':
            flags = self.fl('swapcache', 'swapbacked', 'uptodate')
            private = 0x1a2b                  # swp_entry_t
        elif kind == 'ownerpriv':
            # PG_owner_priv_1 (PG_checked/PG_pinned) without swapbacked
            flags = self.fl('owner_priv', 'uptodate')
            mapping = addr_space
        elif kind == 'movable':
            mapping = 0xffffffffc0a1b2c0 | 2  # PAGE_MAPPING_MOVABLE
        elif kind == 'slab':
            if 'slab' in T and g['version'] >= (6, 10):
                mapcount = T['slab']
            else:
                flags = self.fl('slab')
                # SLUB counters overlapping _mapcount may look like buddy
                if g['buddy_mode'] == 'mapcount':
                    mapcount = T['buddy']
                if 'offline' in T:
                    mapcount = T['offline'] if u.pfn & 1 else T['buddy']
            private = 0x0000ffff00000002
            mapping = 0xffff888003c0a000       # slab_cache pointer
            if g['slab_mapping_odd']:
                mapping = 3                    # slab.slabs
        elif kind == 'hugetlb':
            flags = FLAG_DECOR
            mapping = addr_space
            if g['hugetlb_mode'] == 'type':
                mapcount = T['hugetlb']
        elif kind == 'compound':
            flags = FLAG_DECOR
        elif kind == 'hwpoison':
            flags = self.fl('hwpoison')
            refcount = 2
        elif kind == 'offline':
            mapcount = T['offline']
            refcount = 1
        elif kind == 'pgtable':
            if 'table' in T:
                mapcount = T['table']
        elif kind == 'zsmalloc':
            mapcount = T['zsmalloc'] | 0x000123
            mapping = 0xffffffffc0a1b2c0 | 2
        if compound:
            flags |= 1 << self.F['head']
        b = self.base_page(flags, mapcount, refcount, mapping, private,
                           index=u.pfn & 0xffff)
        if kind == 'garbage':
            b = self.garbage_page()
        head.append((u.pfn, b))
        if compound:
            head_va = self.spage_va(u.pfn)
            dt = self.dtor_value(kind)
            for i in range(1, n):
                head.append((u.pfn + i, self.tail_page(
                    head_va, u.order_field, i, dt, kind)))
        elif kind == 'free' or kind == 'unaccepted':
            for i in range(1, n):
                head.append((u.pfn + i, self.base_page(FLAG_DECOR, -1, 0)))
        return head

    def kind_of(self, u):
        return u.kind

    def garbage_page(self):
        """Random struct page that is neither a compound head nor a buddy /
        unaccepted head, so its effect stays on this one page."""
        while True:
            b = bytearray(self.rng.getrandbits(8) for _ in range(self.psize))
            f = struct.unpack_from(E + 'Q', b, self.L['flags'])[0]
            f &= ~(1 << self.F['head'])
            if 'buddy' in self.F:
                f &= ~(1 << self.F['buddy'])
            struct.pack_into(E + 'Q', b, self.L['flags'], f)
            mc = struct.unpack_from(E + 'i', b, self.L['mapcount'])[0]
            if mc in self.T.values():
                continue
            return b

    def check_kinds(self):
        T, g = self.T, self.g
        need = dict(offline='offline', unaccepted='unaccepted',
                    zsmalloc='zsmalloc')
        for u in self.units:
            if u.kind in need and need[u.kind] not in T:
                raise SpecError('kind %s does not exist in gen %s'
                                % (u.kind, g['name']))
            if u.kind == 'hwpoison' and 'hwpoison' not in self.F:
                raise SpecError('no PG_hwpoison in gen %s' % g['name'])

    def write_struct_pages(self):
        s = self.s
        by_pfn = {}
        for u in self.units:
            for pfn, b in self.unit_pages(u):
                by_pfn[pfn] = b
        plain = self.base_page(FLAG_DECOR)
        reserved = self.base_page(self.fl('reserved'))
        table_pg = self.base_page(FLAG_DECOR, mapcount=self.T.get('table', -1))
        self.unwritable = set()
        for p0, p1, va in self.memmap_ranges:
            for pfn in range(p0, p1):
                b = by_pfn.get(pfn)
                if b is None:
                    mk = self.meta_kind.get(pfn)
                    if not self.pfn_in_ram(pfn):
                        b = reserved
                    elif self.owner.get(pfn) == 'kimage':
                        b = reserved
                    elif mk == 'pgtable':
                        b = table_pg
                    else:
                        b = plain
                if not self.write_va(va + (pfn - p0) * self.psize, bytes(b)):
                    self.unwritable.add(pfn)
        if self.unwritable and not s.corrupt:
            ex = sorted(self.unwritable)[:4]
            raise SpecError('struct pages of %d pfns (e.g. %s) are not in '
                            'RAM' % (len(self.unwritable),
                                     ', '.join('%#x' % x for x in ex)))

    def write_page_data(self):
        for u in self.units:
            if u.kind in ('zero', 'unaccepted') or u.opts.get('data') == 'zero':
                for p in range(u.pfn, u.pfn + u.n):
                    self.mem.zero_page(p)

    def write_uts(self):
        p = self.kimage_alloc('kdata')
        self.sym_init_uts_ns = self.kva(p << PAGE_SHIFT)
        fields = ['Linux', 'vmsift-gen', self.g['osrelease'],
                  '#1 SMP PREEMPT_DYNAMIC',
                  self.uts_machine(), '(none)']
        b = b''.join(f.encode().ljust(65, b'\0') for f in fields)
        if self.s.uts_kref:      # struct kref (refcount 1) before the name
            b = struct.pack(E + 'I', 1) + b
        self.mem.write(p << PAGE_SHIFT, b)

    def write_dmesg(self):
        """The record log buffer of tests/dmesg/mkdmesg.py ('records'),
        placed in the kernel image; its symbols relocated there."""
        sys.path.insert(0, os.path.join(os.path.dirname(
            os.path.abspath(__file__)), '..', 'dmesg'))
        import mkdmesg as M
        buf = bytearray(M.LOGBUF + 0x4000)
        _, extra = M.build_records('records', buf)
        base = None
        for _ in range(-(-len(buf) // PAGE)):
            base = self.kimage_alloc('kdata')
        pa = base << PAGE_SHIFT
        struct.pack_into(E + 'Q', buf, M.SYM['log_buf'],
                         self.kva(pa + M.LOGBUF))
        self.mem.write(pa, bytes(buf))
        self.dmesg_keys = [('SYMBOL(%s)' % k, '%x' % self.kva(pa + v))
                           for k, v in extra['syms']]
        self.dmesg_keys += [tuple(k.split('=', 1)) for k in extra['keys']]

    # -- free lists (pglist_data / zone / free_area) ------------------------
    # Zones of x86_64 by pfn, in the kernel's order; ZONE_MOVABLE is empty.
    ZONES = (('DMA', 0, 0x1000), ('DMA32', 0x1000, 0x100000),
             ('Normal', 0x100000, 1 << 40), ('Movable', 0, 0))

    def freelist_layout(self):
        """Offsets of the synthetic pglist_data/zone/free_area (x86_64,
        shaped like 2.6.32..6.x: node_zones[] first, then zonelists, then
        nr_zones and the node span; free_area[] early in struct zone,
        vm_stat[] and the span after it)."""
        orders = self.g['free_area_len']
        mt = self.g['migrate_types']
        fa = dict(size=mt * 16 + 8, free_list=0, nr_free=mt * 16)
        z = dict(free_area=192)
        z['vm_stat'] = -(-(z['free_area'] + orders * fa['size']) // 64) * 64 + 64
        z['zone_start_pfn'] = z['vm_stat'] + 40 * 8
        z['spanned_pages'] = z['zone_start_pfn'] + 8
        z['present_pages'] = z['zone_start_pfn'] + 16
        z['size'] = -(-(z['zone_start_pfn'] + 64) // 64) * 64
        nz = len(self.ZONES) * z['size']
        pg = dict(node_zones=0, nr_zones=nz + 0x200)
        pg['node_mem_map'] = pg['nr_zones'] + 8
        pg['node_start_pfn'] = pg['nr_zones'] + 16
        pg['node_present_pages'] = pg['nr_zones'] + 24
        pg['node_spanned_pages'] = pg['nr_zones'] + 32
        pg['node_id'] = pg['nr_zones'] + 40
        pg['size'] = -(-(pg['nr_zones'] + 0x100) // 64) * 64
        return dict(orders=orders, mt=mt, fa=fa, zone=z, pgdat=pg,
                    nodes=1024, nodemask=128)

    def build_freelists(self):
        """One node (node 0) holding every RAM range.  Its pglist_data is
        node_data[0] (NUMA; allocated in the node's memory) or
        contig_page_data (in the kernel image).  Every 'free' unit is put
        on zone.free_area[order].free_list[mt] through page.lru."""
        self.freel = None
        mode = self.s.freelists
        if mode is None:
            for c in self.s.corrupt:
                if c[0] in ('freelist', 'pgdat'):
                    raise SpecError('corrupt freelist needs "freelists on"')
            return
        if mode == 'auto':
            mode = 'contig' if self.s.model == 'flat' else 'node_data'
        X = self.freelist_layout()
        X['mode'] = mode
        self.freel = X
        fa, z, pg = X['fa'], X['zone'], X['pgdat']
        npg = -(-pg['size'] // PAGE)
        if mode == 'node_data':
            base = self.alloc('pgdat', npg)
            pgdat_va = self.dva(base << PAGE_SHIFT)
            p = self.kimage_alloc('kdata')        # node_data[MAX_NUMNODES]
            self.sym_node_data = self.kva(p << PAGE_SHIFT)
            self.mem.write(p << PAGE_SHIFT, struct.pack(E + 'Q', pgdat_va))
        else:
            X['nodemask'] = 8                     # MAX_NUMNODES 1
            base = None
            for _ in range(npg):
                base = self.kimage_alloc('kdata')
            pgdat_va = self.kva(base << PAGE_SHIFT)
            self.sym_contig_page_data = pgdat_va
        # node_states[N_ONLINE], exported as node_online_map (also without
        # NUMA: the kernel exports it unconditionally)
        p = self.kimage_alloc('kdata')
        self.sym_node_online_map = self.kva(p << PAGE_SHIFT)
        self.mem.write(p << PAGE_SHIFT, struct.pack(E + 'Q', 1))
        self.pgdat_va = pgdat_va
        buf = bytearray(pg['size'])

        def put(off, v, size=8):
            struct.pack_into({4: E + 'I', 8: E + 'Q'}[size], buf, off, v)
        n0, n1 = self.ram_pfns[0][0], self.ram_pfns[-1][1]
        put(pg['node_start_pfn'], n0)
        put(pg['node_spanned_pages'], n1 - n0)
        put(pg['node_present_pages'], sum(b - a for a, b in self.ram_pfns))
        if self.s.model == 'flat':
            put(pg['node_mem_map'], self.flat_mem_map)
        zones = []
        nr_zones = 0
        for zi, (name, lo, hi) in enumerate(self.ZONES):
            present = [(max(a, lo), min(b, hi)) for a, b in self.ram_pfns
                       if max(a, lo) < min(b, hi)]
            zones.append(present)
            if present:
                nr_zones = zi + 1
        put(pg['nr_zones'], nr_zones, 4)
        # the lists: (zone, order, mt) -> [pfn, ...] in list order
        lists = {}
        for u in self.units:
            if u.kind != 'free':
                continue
            o = u.n.bit_length() - 1
            if o >= X['orders']:
                raise SpecError('free block %#x of order %d cannot be on a '
                                'free list (LENGTH(zone.free_area) %d)'
                                % (u.pfn, o, X['orders']))
            zi = next(i for i, pr in enumerate(zones)
                      if any(a <= u.pfn < b for a, b in pr))
            mt = int(u.opts.get('mt', (u.pfn >> 9) % 3))
            if not 0 <= mt < X['mt']:
                raise SpecError('free block %#x: mt %d out of range'
                                % (u.pfn, mt))
            u.flo = o
            lists.setdefault((zi, o, mt), []).insert(0, u.pfn)  # list_add
        self.fl_lists = lists
        lru = self.L['lru']
        links = {}       # list_head va -> [next, prev]
        heads = {}
        for zi, present in enumerate(zones):
            if not present:
                continue         # never initialised: all zero, spanned 0
            zoff = pg['node_zones'] + zi * z['size']
            zs, ze = present[0][0], present[-1][1]
            put(zoff + z['zone_start_pfn'], zs)
            put(zoff + z['spanned_pages'], ze - zs)
            put(zoff + z['present_pages'], sum(b - a for a, b in present))
            nfree = 0
            for o in range(X['orders']):
                aoff = zoff + z['free_area'] + o * fa['size']
                nr = 0
                for mt in range(X['mt']):
                    hoff = aoff + fa['free_list'] + mt * 16
                    h = pgdat_va + hoff
                    heads[(zi, o, mt)] = h
                    ents = [self.spage_va(p) + lru
                            for p in lists.get((zi, o, mt), [])]
                    chain = [h] + ents
                    for i, e in enumerate(chain):
                        links[e] = [chain[(i + 1) % len(chain)],
                                    chain[i - 1]]
                    nr += len(ents)
                put(aoff + fa['nr_free'], nr)
                nfree += nr << o
            nfp = 0     # NUMBER(NR_FREE_PAGES)
            put(zoff + z['vm_stat'] + 8 * nfp, nfree)
        self.fl_heads = heads
        self.fl_corrupt(links, lists, heads)
        for c in self.s.corrupt:
            if c[0] == 'pgdat':              # node_data[0] -> dva(PADDR)
                if mode != 'node_data':
                    raise SpecError('corrupt pgdat needs pgdat=node_data')
                self.write_va(self.sym_node_data,
                              struct.pack(E + 'Q', self.dva(num(c[1]))))
        for e, (nx, pv) in links.items():
            if pgdat_va <= e < pgdat_va + pg['size']:
                struct.pack_into(E + 'QQ', buf, e - pgdat_va, nx, pv)
            else:
                self.write_va(e, struct.pack(E + 'QQ', nx, pv))
        self.mem.write(base << PAGE_SHIFT, bytes(buf[:pg['size']]))

    def hole_paddr(self):
        """A physical address in no RAM range (no PT_LOAD) but inside a
        1 GiB page of the direct map: the middle of the widest gap."""
        gaps, prev = [], 0
        for a, b in self.mem.ranges:
            if a > prev:
                gaps.append((a - prev, prev))
            prev = b
        if not gaps:
            if prev % (1 << 30):
                return prev
            raise SpecError('no memory hole for a bad free-list pointer')
        size, start = max(gaps)
        return start + size // 2 // PAGE * PAGE

    def fl_corrupt(self, links, lists, heads):
        lru = self.L['lru']
        for c in self.s.corrupt:
            if c[0] != 'freelist':
                continue
            o, mt, how = int(c[1], 0), int(c[2], 0), c[3]
            opts = dict(x.split('=', 1) for x in c[4:] if '=' in x)
            args = [x for x in c[4:] if '=' not in x]
            cand = [k for k in sorted(lists) if k[1] == o and k[2] == mt]
            if 'zone' in opts:
                cand = [k for k in cand if k[0] == int(opts['zone'])]
            if not cand:
                raise SpecError('corrupt freelist %d %d: no such non-empty '
                                'list' % (o, mt))
            key = cand[0]
            ents = [self.spage_va(p) + lru for p in lists[key]]
            at = int(opts.get('at', len(ents) // 2))
            if not 0 <= at < len(ents):
                raise SpecError('corrupt freelist: at=%d, list has %d'
                                % (at, len(ents)))
            if how == 'loop':
                if len(ents) < 3:
                    raise SpecError('corrupt freelist loop: needs 3 entries')
                # the last entry's next goes back into the middle
                links[ents[-1]][0] = ents[len(ents) // 2]
            elif how == 'badprev':
                links[ents[at]][1] = ents[at]
            else:
                what = args[0] if args else 'hole'
                if what == 'hole':
                    ptr = self.dva(self.hole_paddr())
                elif what == 'outside':
                    gbs = -(-self.max_mapnr // (1 << 18))   # GiBs with RAM
                    ptr = self.dva((gbs + 1) << 30)
                elif what.startswith('va:'):
                    ptr = num(what[3:])
                elif what.startswith('page:'):      # that pfn's page.lru
                    ptr = self.spage_va(num(what[5:])) + lru
                else:
                    ptr = self.dva(num(what))
                links[ents[at]][0] = ptr
            self.warnings.append('free list zone %d order %d mt %d: %s'
                                 % (key[0], o, mt, how))

    # -- corruptions ------------------------------------------------------
    def apply_corruptions(self):
        self.doubtful_pfns = []   # (start, end, why)
        for c in self.s.corrupt:
            what = c[0]
            if what == 'mem_section_root':
                r, addr = int(c[1], 0), num(c[2])
                if self.roots is None or r not in self.roots:
                    raise SpecError('corrupt mem_section_root: no root %d' % r)
                self.mem.write(self.root_base_pa + r * 8,
                               struct.pack(E + 'Q', self.dva(addr)))
                p0 = r * self.sections_per_root * self.pages_per_section
                p1 = p0 + self.sections_per_root * self.pages_per_section
                self.doubtful_pfns.append((p0, min(p1, self.max_mapnr),
                                           'mem_section root %d -> %#x'
                                           % (r, addr)))
            elif what == 'vmemmap':
                # ADDR, or |BITS: the leaf's own address with BITS set
                pfn = num(c[1])
                addr = 0 if c[2].startswith('|') else num(c[2])
                level = 'leaf'
                for o in c[3:]:
                    k, v = o.split('=', 1)
                    if k == 'level':
                        level = v
                va = self.spage_va(pfn)
                if va is None or self.vmemmap is None:
                    raise SpecError('corrupt vmemmap: pfn not in vmemmap')
                size = self.s.vmemmap_size
                if level == 'leaf' and self.vmemmap_blocks:
                    chunk = self.leaf_chunk(size)
                    c0 = va // chunk * chunk
                    self.vmemmap_blocks[c0] = addr
                    lo, hi = c0, c0 + chunk
                elif level == 'leaf':
                    chunk = self.leaf_chunk(size)
                    c0 = va // chunk * chunk
                    t, i = self.vmemmap_leaves[c0]
                    if c[2].startswith('|'):
                        addr = (self.vmap[c0 >> PAGE_SHIFT] << PAGE_SHIFT) \
                            | num(c[2][1:])
                    if self.A:
                        self.tables[t][i] = self.leaf_desc(
                            addr // chunk * chunk, size)
                    else:
                        self.tables[t][i] = (addr & ADDR_MASK) | (
                            self.tables[t][i] & ~ADDR_MASK)
                    lo, hi = c0, c0 + chunk
                elif level == 'pmd' and size == '4k':
                    # PMD entry pointing to the PTE table
                    t = self.map_table_path(va, 2)
                    if self.A:
                        i = self.A.idx(va, 2)
                        self.tables[t][i] = self.A.table_desc(
                            addr // PAGE * PAGE)
                        span = self.A.block_size(2)
                    else:
                        i = (va >> 21) & 511
                        self.tables[t][i] = (addr & ADDR_MASK) | PTE_TABLE
                        span = 2 << 20
                    lo = va // span * span
                    hi = lo + span
                else:
                    raise SpecError('corrupt vmemmap level=leaf|pmd(4k only)')
                # pfns with any byte of their struct page in [lo, hi)
                vb = self.vmemmap
                p0 = max(0, (lo - vb) // self.psize)
                p1 = -(-(hi - vb) // self.psize)
                self.doubtful_pfns.append((p0, min(p1, self.max_mapnr),
                                           'vmemmap [%#x,%#x) -> %#x'
                                           % (lo, hi, addr)))
            elif what in ('freelist', 'pgdat'):
                pass                     # done by build_freelists
            else:
                raise SpecError('unknown corruption %s' % what)

    # -- vmcoreinfo -------------------------------------------------------
    def vmcoreinfo(self):
        g, s, L, F, T = self.g, self.s, self.L, self.F, self.T
        kv = []

        def add(k, v):
            kv.append((k, v))
        add('OSRELEASE', g['osrelease'])
        add('PAGESIZE', str(PAGE))
        add('SYMBOL(init_uts_ns)', '%x' % self.sym_init_uts_ns)
        if not s.uts_kref:
            add('OFFSET(uts_namespace.name)', '0')
        if not self.A:
            add('SYMBOL(_stext)', '%x' % self.stext)
            add('SYMBOL(swapper_pg_dir)',
                '%x' % self.kva(self.top << PAGE_SHIFT))
        if s.model == 'flat':
            add('SYMBOL(mem_map)', '%x' % self.sym_mem_map)
        else:
            add('SYMBOL(mem_section)', '%x' % self.sym_mem_section)
            add('LENGTH(mem_section)', str(self.length_mem_section))
            add('SIZE(mem_section)', str(self.ms_size))
            add('OFFSET(mem_section.section_mem_map)', '0')
        if g['export_section_bits']:
            add('NUMBER(SECTION_SIZE_BITS)', str(s.section_bits))
            add('NUMBER(MAX_PHYSMEM_BITS)', str(self.max_physmem_bits))
        add('SIZE(page)', str(L['size']))
        add('SIZE(list_head)', '16')
        add('OFFSET(page.flags)', str(L['flags']))
        add('OFFSET(page.%s)' % g['refname'], str(L['count']))
        add('OFFSET(page.mapping)', str(L['mapping']))
        add('OFFSET(page.lru)', str(L['lru']))
        add('OFFSET(page._mapcount)', str(L['mapcount']))
        add('OFFSET(page.private)', str(L['private']))
        mode = g['compound_mode']
        if mode in ('u32', 'u8'):
            add('OFFSET(page.compound_dtor)', str(L['dtor']))
            add('OFFSET(page.compound_order)', str(L['order']))
        if mode == 'folio':
            add('OFFSET(folio._folio_dtor)', str(L['size'] + L['dtor']))
            add('OFFSET(folio._folio_order)', str(L['size'] + L['order']))
        if g['chead_name']:
            add('OFFSET(page.%s)' % g['chead_name'], str(L['chead']))
        if g['export_list_head']:
            add('OFFSET(list_head.next)', '0')
            add('OFFSET(list_head.prev)', '8')
        add('LENGTH(zone.free_area)', str(g['free_area_len']))
        add('NUMBER(NR_FREE_PAGES)', '0')
        if self.freel:
            self.freelist_vmcoreinfo(add)
        for f in g['export_flags']:
            add('NUMBER(PG_%s)' % f, str(F[f]))
        if g['export_head_mask']:
            add('NUMBER(PG_head_mask)', str(1 << F['head']))
        for t in g['export_types']:
            add('NUMBER(%s)' % G.TYPE_KEYS[t], str(T[t]))
        if g['export_hugetlb_dtor']:
            add('NUMBER(HUGETLB_PAGE_DTOR)', str(g['dtors']['hugetlb']))
        if g['export_free_huge_page']:
            add('SYMBOL(free_huge_page)', '%x' % self.sym_free_huge_page)
        if getattr(self.A, 'machine', None) == 'ppc64le':
            self.ppc64_vmcoreinfo(add)
        elif hasattr(self.A, 'vmcoreinfo'):      # riscv64, s390x
            self.A.vmcoreinfo(self, add)
        elif self.A:
            self.arm_vmcoreinfo(add)
        else:
            self.x86_vmcoreinfo(add)
        for k, v in self.dmesg_keys:
            add(k, v)
        add('CRASHTIME', str(s.crashtime))
        # overrides
        d = dict(kv)
        order = [k for k, _ in kv]
        for k, v in s.vi_set:
            if k not in d:
                order.insert(len(order) - 1, k)
            d[k] = v
        for k in s.vi_del:
            if k not in d:
                raise SpecError('vmcoreinfo del: %s not present' % k)
            del d[k]
            order.remove(k)
        self.vi = d
        return ''.join('%s=%s\n' % (k, d[k]) for k in order)

    def x86_vmcoreinfo(self, add):
        g = self.g
        if g['export_phys_base']:
            add('NUMBER(phys_base)', str(self.phys_base))
        add('SYMBOL(%s)' % g['pgd_symbol'],
            '%x' % self.kva(self.top << PAGE_SHIFT))
        if g['export_l5']:
            add('NUMBER(pgtable_l5_enabled)', '1' if self.l5 else '0')
        elif self.l5:
            raise SpecError('5-level paging needs a gen with pgtable_l5_enabled')
        add('KERNELOFFSET', '%x' % self.koffset)
        if g['export_image_size']:
            add('NUMBER(KERNEL_IMAGE_SIZE)', str(1 << 30))
            add('NUMBER(sme_mask)', '0')

    def arm_vmcoreinfo(self, add):
        """As arch/arm64/kernel/vmcore_info.c writes them: VA_BITS in
        decimal, the rest in 0x hex; TCR_EL1_T1SZ from 5.9, SYMBOL(_stext)
        (generic) from 5.13."""
        A, ver = self.A, self.g['version']
        add('SYMBOL(swapper_pg_dir)', '%x' % self.kva(self.top << PAGE_SHIFT))
        if ver >= (5, 13):
            add('SYMBOL(_stext)', '%x' % self.stext)
        add('NUMBER(VA_BITS)', str(A.va_bits))
        add('NUMBER(kimage_voffset)', '0x%x' % self.kimage_voffset)
        add('NUMBER(PHYS_OFFSET)', '0x%x' % A.phys_offset)
        if ver >= (5, 9):
            add('NUMBER(TCR_EL1_T1SZ)', '0x%x' % (64 - A.vabits))
        add('KERNELOFFSET', '%x' % self.koffset)

    # struct vmemmap_backing { list; phys; virt_addr; }, one per block, in
    # the image; mmu_psize_defs[MMU_PSIZE_VMEMMAP].shift; the list's head.
    MMU_PSIZE_VMEMMAP = 9
    MMU_PSIZE_DEF = 40

    def write_vmemmap_list(self):
        chunk = self.leaf_chunk(self.s.vmemmap_size)
        blocks = sorted(self.vmemmap_blocks.items(), reverse=True)
        per = PAGE // 24
        pages = [self.kimage_alloc('kdata')
                 for _ in range(-(-len(blocks) // per) + 1)]
        var = pages[-1] << PAGE_SHIFT          # head, psize, psize defs
        node_pa = [(pages[i // per] << PAGE_SHIFT) + (i % per) * 24
                   for i in range(len(blocks))]
        for i, (va, pa) in enumerate(blocks):
            nxt = self.dva(node_pa[i + 1]) if i + 1 < len(blocks) else 0
            self.mem.write(node_pa[i], struct.pack(E + 'QQQ', nxt, pa, va))
        head = self.dva(node_pa[0]) if blocks else 0
        self.mem.write(var, struct.pack(E + 'Q', head))
        self.mem.write(var + 8, struct.pack(E + 'i', self.MMU_PSIZE_VMEMMAP))
        defs = var + 16
        self.mem.write(defs + self.MMU_PSIZE_VMEMMAP * self.MMU_PSIZE_DEF,
                       struct.pack(E + 'I', chunk.bit_length() - 1))
        self.sym_vmemmap_list = self.dva(var)
        self.sym_mmu_vmemmap_psize = self.dva(var + 8)
        self.sym_mmu_psize_defs = self.dva(defs)

    # cur_cpu_spec -> struct cpu_spec { ...; u32 mmu_features at 24; }:
    # MMU_FTR_TYPE_RADIX (0x40) with the radix MMU.
    CPU_SPEC_MMU_FEATURES = 24

    def write_cpu_spec(self):
        pa = self.kimage_alloc('kdata') << PAGE_SHIFT
        self.mem.write(pa, struct.pack(E + 'Q', self.dva(pa + 64)))
        feat = 0x40 if self.A.mmu == 'radix' else 0
        self.mem.write(pa + 64 + self.CPU_SPEC_MMU_FEATURES,
                       struct.pack(E + 'I', feat | 0x01000000))
        self.sym_cur_cpu_spec = self.dva(pa)

    def ppc64_vmcoreinfo(self, add):
        """As arch/powerpc/kexec writes them (RADIX_MMU in decimal,
        KERNELOFFSET in hex), swapper_pg_dir and _stext (generic), and
        NUMBER(VMALLOC_START), which upstream makedumpfile needs to walk
        the tables (a real 6.1 kernel gives vmap_area_list instead)."""
        A = self.A
        add('SYMBOL(swapper_pg_dir)', '%x' % self.kva(self.top << PAGE_SHIFT))
        add('SYMBOL(_stext)', '%x' % self.stext)
        add('NUMBER(RADIX_MMU)', '1' if A.mmu == 'radix' else '0')
        if getattr(self, 'sym_cur_cpu_spec', None) is not None:
            add('SYMBOL(cur_cpu_spec)', '%x' % self.sym_cur_cpu_spec)
            add('OFFSET(cpu_spec.cpu_features)', '8')
            add('OFFSET(cpu_spec.mmu_features)',
                str(self.CPU_SPEC_MMU_FEATURES))
        if getattr(self, 'vmemmap_list', False):
            add('SYMBOL(vmemmap_list)', '%x' % self.sym_vmemmap_list)
            add('SYMBOL(mmu_vmemmap_psize)',
                '%x' % self.sym_mmu_vmemmap_psize)
            add('SYMBOL(mmu_psize_defs)', '%x' % self.sym_mmu_psize_defs)
            add('SIZE(mmu_psize_def)', str(self.MMU_PSIZE_DEF))
            add('SIZE(vmemmap_backing)', '24')
            add('OFFSET(mmu_psize_def.shift)', '0')
            add('OFFSET(vmemmap_backing.list)', '0')
            add('OFFSET(vmemmap_backing.phys)', '8')
            add('OFFSET(vmemmap_backing.virt_addr)', '16')
        add('NUMBER(VMALLOC_START)', '0x%x' % A.vmalloc_start)
        add('KERNELOFFSET', '0')

    def freelist_vmcoreinfo(self, add):
        X = self.freel
        fa, z, pg = X['fa'], X['zone'], X['pgdat']
        add('SYMBOL(node_online_map)', '%x' % self.sym_node_online_map)
        if X['mode'] == 'node_data':
            add('SYMBOL(node_data)', '%x' % self.sym_node_data)
            add('LENGTH(node_data)', str(X['nodes']))
        else:
            add('SYMBOL(contig_page_data)', '%x' % self.sym_contig_page_data)
        add('SIZE(pglist_data)', str(pg['size']))
        add('SIZE(zone)', str(z['size']))
        add('SIZE(free_area)', str(fa['size']))
        add('SIZE(nodemask_t)', str(X['nodemask']))
        add('OFFSET(pglist_data.node_zones)', str(pg['node_zones']))
        add('OFFSET(pglist_data.nr_zones)', str(pg['nr_zones']))
        if self.s.model == 'flat':
            add('OFFSET(pglist_data.node_mem_map)', str(pg['node_mem_map']))
        add('OFFSET(pglist_data.node_start_pfn)', str(pg['node_start_pfn']))
        add('OFFSET(pglist_data.node_spanned_pages)',
            str(pg['node_spanned_pages']))
        add('OFFSET(pglist_data.node_id)', str(pg['node_id']))
        add('OFFSET(zone.free_area)', str(z['free_area']))
        add('OFFSET(zone.vm_stat)', str(z['vm_stat']))
        add('OFFSET(zone.spanned_pages)', str(z['spanned_pages']))
        add('OFFSET(free_area.free_list)', str(fa['free_list']))
        add('LENGTH(free_area.free_list)', str(X['mt']))

    # -- ELF ----------------------------------------------------------------
    def elf_order(self):
        """struct's byte order of the ELF container (header, program
        headers, note headers, prstatus): --elf-order, else the arch's
        (big_endian), else little.  The memory image is the arch's own."""
        order = getattr(self, 'elf_order_override', None)
        if order is None:
            order = 'big' if getattr(self.A, 'big_endian', False) else 'little'
        return '>' if order == 'big' else '<'

    def note(self, name, ntype, desc):
        n = name.encode() + b'\0'
        h = struct.pack(self.elf_order() + 'III', len(n), len(desc), ntype)
        pad = lambda b: b + bytes(-len(b) % 4)  # noqa: E731
        return h + pad(n) + pad(desc)

    def write_elf(self, path):
        notes = b''
        for cpu in range(self.s.cpus):
            pr = bytearray(self.prstatus_size())
            struct.pack_into(self.elf_order() + 'I', pr, 32, 1000 + cpu)  # pr_pid
            notes += self.note('CORE', 1, bytes(pr))
        notes += self.note('VMCOREINFO', 0, self.vi_text.encode())
        loads = []
        if self.s.kernel['ptload']:
            loads.append((self.kva(self.kload), self.kload, self.ksize))
        for a, b in self.mem.ranges:
            loads.append((self.dva(a), a, b - a))
        phnum = 1 + len(loads)
        note_off = PAGE
        off = note_off + len(notes)
        off = (off + PAGE - 1) // PAGE * PAGE
        o = self.elf_order()
        phdrs = [struct.pack(o + 'IIQQQQQQ', 4, 0, note_off, 0, 0, len(notes),
                             len(notes), 0)]
        place = []
        for va, pa, sz in loads:
            phdrs.append(struct.pack(o + 'IIQQQQQQ', 1, 7, off, va, pa, sz, sz, 0))
            place.append((off, pa, sz))
            off += sz
        ehdr = struct.pack(o + '4sBBBBB7sHHIQQQIHHHHHH', b'\x7fELF', 2,
                           2 if o == '>' else 1, 1, 0,
                           0, bytes(7), 4, self.elf_machine(), 1, 0, 64,
                           0, 0, 64, 56, phnum,
                           0, 0, 0)
        zero = bytes(65536)
        with open(path, 'wb') as f:
            f.write(ehdr + b''.join(phdrs))
            f.seek(note_off)
            f.write(notes)
            for foff, pa, sz in place:
                i = self.mem.find(pa)
                o = pa - self.mem.ranges[i][0]
                buf = self.mem.bufs[i]
                for c in range(0, sz, 65536):
                    chunk = buf[o + c:o + min(sz, c + 65536)]
                    if chunk != zero[:len(chunk)]:
                        f.seek(foff + c)
                        f.write(chunk)
            f.truncate(off)

    def is_riscv64(self):
        return getattr(self.A, 'arch', None) == 'riscv64'

    def uts_machine(self):
        if getattr(self.A, 'machine', None):       # ppc64le
            return self.A.machine
        return 'riscv64' if self.is_riscv64() else \
            'aarch64' if self.A else 'x86_64'

    def elf_machine(self):
        if getattr(self, 'elf_machine_override', None) is not None:
            return self.elf_machine_override
        if getattr(self.A, 'elf_machine', None):   # ppc64le
            return self.A.elf_machine
        return 243 if self.is_riscv64() else 183 if self.A else 62

    def prstatus_size(self):
        # elf_prstatus: 112 bytes, then 33/34/27/48 registers, pr_fpvalid
        if getattr(self.A, 'prstatus_size', None):  # ppc64le
            return self.A.prstatus_size
        return 376 if self.is_riscv64() else 392 if self.A else 336

    # -- main -------------------------------------------------------------
    def build(self):
        self.sym_free_huge_page = self.stext + 0x2a3b40
        self.sym_free_compound_page = self.stext + 0x2a1f80
        self.place_units()
        self.check_kinds()
        self.write_uts()
        if hasattr(self.A, 'write_kernel_data'):   # s390x
            self.A.write_kernel_data(self, E)
        self.dmesg_keys = []
        if self.s.dmesg:
            self.write_dmesg()
        self.build_tables()
        self.build_memmap()
        if getattr(self.A, 'napot', False):
            self.A.napot_vmemmap(self)
        self.build_mem_section()
        self.write_page_data()
        self.write_struct_pages()
        self.build_freelists()
        self.apply_corruptions()
        self.write_tables()
        if getattr(self, 'vmemmap_list', False):
            self.write_vmemmap_list()
        if self.s.arm and self.s.arm.get('cpu_spec'):
            self.write_cpu_spec()
        self.vi_text = self.vmcoreinfo()


# ---------------------------------------------------------------------------
# Expectation: makedumpfile's cascade (notes 3.3) over what each unit is.

class Effective:
    """What a makedumpfile-compatible filter knows from this VMCOREINFO,
    including makedumpfile's defaults for old kernels."""

    def __init__(self, b):
        vi, g = b.vi, b.g
        self.vi = vi

        def number(k):
            v = vi.get('NUMBER(%s)' % k)
            return int(v) if v is not None else None
        self.number = number
        ver = g['version']
        self.PG = {}
        for f in ('lru', 'private', 'swapcache', 'swapbacked', 'slab',
                  'hwpoison', 'buddy', 'hugetlb'):
            self.PG[f] = number('PG_' + f)
        # makedumpfile get_value_for_old_linux() defaults
        if self.PG['lru'] is None:
            self.PG['lru'] = 5
        if self.PG['private'] is None:
            self.PG['private'] = 11
        if self.PG['swapcache'] is None:
            self.PG['swapcache'] = 15
        if self.PG['swapbacked'] is None and \
                self.PG['swapcache'] < self.PG['private']:
            self.PG['swapbacked'] = self.PG['private'] + 6
        if self.PG['slab'] is None and ver < (6, 10):
            self.PG['slab'] = 7
        hm = number('PG_head_mask')
        self.head_mask = hm if hm is not None else 1 << 14
        self.types = {}
        for t, key in G.TYPE_KEYS.items():
            self.types[t] = number(key)
        if self.types['buddy'] is None:
            if ver[:3] == (2, 6, 38):
                self.types['buddy'] = -2
            elif ver >= (2, 6, 39):
                self.types['buddy'] = -128
        have_private = 'OFFSET(page.private)' in vi
        have_mapcount = 'OFFSET(page._mapcount)' in vi
        if not have_private:
            self.buddy_mode = None
        elif self.PG['buddy'] is not None:
            self.buddy_mode = 'flag'
        elif self.types['buddy'] is not None and have_mapcount:
            self.buddy_mode = 'mapcount'
        else:
            self.buddy_mode = None
        # free lists walkable (makedumpfile exclude_free_page's keys)
        self.freelists = b.freel is not None and all(
            k in vi for k in ('SIZE(zone)', 'OFFSET(zone.free_area)',
                              'OFFSET(zone.spanned_pages)',
                              'OFFSET(pglist_data.node_zones)',
                              'OFFSET(pglist_data.nr_zones)',
                              'SIZE(free_area)', 'OFFSET(free_area.free_list)',
                              'OFFSET(page.lru)', 'LENGTH(zone.free_area)'))
        fal = vi.get('LENGTH(zone.free_area)')
        self.free_area_len = int(fal) if fal else None
        self.chead_known = ('OFFSET(page.compound_head)' in vi or
                            'OFFSET(page.compound_info)' in vi)
        self.hugetlb_dtor = number('HUGETLB_PAGE_DTOR')
        self.free_huge_page = vi.get('SYMBOL(free_huge_page)')


def flag_set(b, u):
    """Semantic flags of a unit's head page (names)."""
    k, g = u.kind, b.g
    s = set()
    if k in ('anon', 'thp', 'ksm'):
        s |= {'lru', 'swapbacked'}
    elif k in ('cache',):
        s |= {'lru'}
    elif k == 'pcache':
        s |= {'lru', 'private'}
    elif k == 'swapcache':
        s |= {'swapcache', 'swapbacked'}
    elif k == 'ownerpriv':
        s |= {'owner_priv'}
    elif k == 'slab' and not (g['version'] >= (6, 10)):
        s |= {'slab'}
    elif k == 'hwpoison':
        s |= {'hwpoison'}
    elif k == 'free' and g['buddy_mode'] == 'flag':
        s |= {'buddy'}
    if k in COMPOUND_KINDS and u.order > 0:
        s |= {'head'}
    # aliases: the bit numbers decide (e.g. swapcache == owner_priv_1)
    bits = set(b.F[x] for x in s if x in b.F)
    return bits


def page_type(b, u):
    k, g = u.kind, b.g
    if k == 'free' and g['buddy_mode'] == 'mapcount':
        return 'buddy'
    if k == 'slab':
        if g['version'] >= (6, 10):
            return 'slab'
        # pre-6.10 slab: _mapcount holds SLUB counters (see unit_pages)
        if g['buddy_mode'] == 'mapcount':
            if 'offline' in b.T and u.pfn & 1:
                return 'offline'
            return 'buddy'
        return None
    if k == 'hugetlb' and g['hugetlb_mode'] == 'type':
        return 'hugetlb'
    if k in ('unaccepted', 'offline', 'zsmalloc'):
        return k
    if k == 'pgtable' and 'table' in b.T:
        return 'table'
    return None


def classify(b, e, u, level):
    """-> (counter or None, npages) per makedumpfile's cascade."""
    g = b.g
    bits = flag_set(b, u)
    ptype = page_type(b, u)

    def bit(n):
        return n is not None and n in bits

    is_slab = (ptype == 'slab' and e.types['slab'] is not None) \
        if g['version'] >= (6, 10) else bit(e.PG['slab'])
    mapping_anon = u.kind in ('anon', 'thp', 'ksm') or (
        u.kind == 'slab' and g['slab_mapping_odd'])
    is_anon = mapping_anon and not is_slab
    # compound head: order and hugetlb-ness (first tail page)
    order, hugetlb = 0, False
    head = b.F['head'] in bits and (e.head_mask >> b.F['head']) & 1 \
        and (u.pfn % 512) != 511
    if head:
        if u.kind == 'hugetlb':
            hm = g['hugetlb_mode']
            if hm == 'pg_hugetlb':
                hugetlb = e.PG['hugetlb'] is not None
            elif hm == 'dtor':
                if g['compound_mode'] == 'lru_ptr':
                    hugetlb = e.free_huge_page is not None
                else:
                    hugetlb = e.hugetlb_dtor == g['dtors']['hugetlb']
        of = u.order_field
        if of >= 64 or u.pfn & ((1 << of) - 1):
            of = 0          # invalid order: treated as a single page
        order = of
    if g['hugetlb_mode'] == 'type' and u.kind == 'hugetlb':
        hugetlb = e.types['hugetlb'] is not None
    npages = 1 << order

    # 2: buddy
    if level & 16 and e.buddy_mode:
        if e.buddy_mode == 'flag':
            buddy = bit(e.PG['buddy'])
        else:
            buddy = (not is_slab) and ptype == 'buddy'
        if buddy:
            if u.kind == 'free' and e.free_area_len is not None and \
                    u.order_field >= e.free_area_len:
                return None, 0
            return 'free', 1 << (u.order_field if u.kind == 'free' else 0)
    # 2b: no buddy marks: the free lists (walked before the mem_map scan)
    if level & 16 and not e.buddy_mode and e.freelists and u.flo is not None:
        return 'free', 1 << u.flo
    # 3: unaccepted
    if level & 16 and ptype == 'unaccepted' and \
            e.types['unaccepted'] is not None:
        return 'free', 1 << (e.free_area_len - 1)
    is_lru = bit(e.PG['lru'])
    is_cache = is_lru or (bit(e.PG['swapcache']) and (
        e.PG['swapbacked'] is None or bit(e.PG['swapbacked'])))
    is_private = bit(e.PG['private'])
    if level & 2 and is_cache and not is_private and not is_anon:
        return 'cache', npages
    if level & 4 and is_cache and not is_anon:
        return ('private_cache' if is_private else 'cache'), npages
    if level & 8 and (is_anon or hugetlb):
        return 'user', npages
    if e.PG['hwpoison'] is not None and bit(e.PG['hwpoison']):
        return 'hwpoison', npages
    if not is_slab and ptype == 'offline' and e.types['offline'] is not None:
        return 'offline', npages
    return None, 0


def expectation(b, levels):
    e = Effective(b)
    doubt = sorted(getattr(b, 'doubtful_pfns', []))

    def is_doubtful(pfn):
        return any(s <= pfn < t for s, t, _ in doubt) or pfn in b.unwritable
    out = dict(spec=b.s.name, gen=b.g['name'], osrelease=b.g['osrelease'],
               page_size=PAGE, max_mapnr=b.max_mapnr,
               strict=not (b.s.corrupt or any(u.either for u in b.units)),
               makedumpfile=b.s.makedumpfile,
               ram=[[a, c] for a, c in b.ram_pfns], levels={},
               doubtful=[[s, t, w] for s, t, w in doubt],
               either=[], kinds=[], notes=b.s.notes)
    for u in b.units:
        u.doubtful = is_doubtful(u.pfn)
        out['kinds'].append([u.pfn, u.pfn + u.n, u.kind +
                             ('/order%d' % u.order if u.order else '')])
        if u.either and not u.doubtful:
            out['either'].append([u.pfn, u.pfn + u.n, u.kind])
    meta = sorted(b.meta_kind.items())
    run = None
    for p, k in meta:
        if run and run[1] == p and run[2] == k:
            run[1] = p + 1
        else:
            if run:
                out['kinds'].append(run)
            run = [p, p + 1, k]
    if run:
        out['kinds'].append(run)
    out['kinds'].sort()
    for level in levels:
        exc = []
        cnt = dict((c, 0) for c in COUNTERS)
        excluded = set()
        for u in b.units:
            if u.doubtful or u.either:
                continue
            c, n = classify(b, e, u, level)
            if c is None:
                continue
            exc.append([u.pfn, u.pfn + n, c])
            cnt[c] += n
        # zero pages: kept RAM pages whose contents are all zero (-d bit 1)
        exc.sort()
        if level & 1:
            excl = [(s, t) for s, t, _ in exc]
            j = 0
            for a, c in b.ram_pfns:
                for p in range(a, c):
                    while j < len(excl) and excl[j][1] <= p:
                        j += 1
                    if j < len(excl) and excl[j][0] <= p:
                        continue
                    if b.mem.is_zero_page(p):
                        cnt['zero'] += 1
        out['levels'][str(level)] = dict(excluded=exc, counters=cnt)
        del excluded
    return out


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('spec')
    ap.add_argument('out')
    ap.add_argument('--expect', help='expectation JSON (default OUT.json)')
    ap.add_argument('--levels', default='2,4,8,16,31')
    ap.add_argument('--elf-order', choices=('little', 'big'),
                    help="the ELF container's byte order (default the "
                    "arch's); the memory image is left as the arch writes it")
    ap.add_argument('--elf-machine', type=int,
                    help="e_machine (default the arch's), e.g. 22 (EM_S390)")
    a = ap.parse_args(argv)
    try:
        spec = Spec(a.spec)
        b = Builder(spec)
        b.elf_order_override = a.elf_order
        b.elf_machine_override = a.elf_machine
        b.build()
        b.write_elf(a.out)
        exp = expectation(b, [int(x) for x in a.levels.split(',')])
    except SpecError as ex:
        print('mkvmcore: %s' % ex, file=sys.stderr)
        return 2
    with open(a.expect or a.out + '.json', 'w') as f:
        json.dump(exp, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
