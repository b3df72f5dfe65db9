#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""vmemmap_check.py RAW PLAIN EXCLUDED

Check a dump written with -e (EXCLUDED) against the same dump written
without it (PLAIN), both kdump-compressed at the same dump level from the
vmcore RAW, with code that shares nothing with vmsift's: the struct page
array is found from VMCOREINFO's mem_section in Python and every page of
it is read through drgn's or libkdumpfile's own page-table walk (ppc64:
the kernel's vmemmap_list); a page left out is known by its content.

  - EXCLUDED's header has DUMP_DH_EXCLUDED_VMEMMAP (0x10), PLAIN's not;
  - EXCLUDED keeps a subset of PLAIN's pages, and leaves out at least one;
  - every page PLAIN keeps and EXCLUDED leaves out has the content of a
    page of the struct page array every struct page of which (even partly
    on it) describes a pfn PLAIN does not keep.

Prints one summary line; exits 0 when all hold, 1 otherwise."""
import struct
import sys

import kdumpfile

sys.path.insert(0, __file__.rsplit('/', 3)[0] + '/tests/harness')
from elfcore import KdumpHeader, pt_loads, set_bits  # noqa: E402

EXCLUDED_VMEMMAP = 0x10
MAP_MASK = ~0x3f      # section_mem_map's flag bits (6 of them since 6.x)


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def status_of(path):
    with open(path, 'rb') as f:
        head = f.read(432)
    bo = '<' if struct.unpack_from('<I', head, 8)[0] < 0x10000 else '>'
    return struct.unpack_from(bo + 'i', head, 424)[0]


class Kernel:
    """VMCOREINFO and the dead kernel's virtual memory, read by drgn or,
    where drgn cannot, libkdumpfile; on ppc64 through the kernel's own
    vmemmap_list (virtual to physical, read in the linear map)."""

    def __init__(self, raw):
        with open(raw, 'rb') as f:
            self.bo = 'big' if f.read(6)[5] == 2 else 'little'   # EI_DATA
        self.loads = pt_loads(raw)
        self.raw = open(raw, 'rb')
        self.k = kdumpfile.kdumpfile(raw)
        self.k.attr['addrxlat.ostype'] = 'linux'
        self.ps = self.k.attr['arch.page_size']
        self.vi = {}
        for line in bytes(self.k.attr['linux.vmcoreinfo.raw']).decode().splitlines():
            key, _, val = line.partition('=')
            self.vi[key] = val
        self.readers = []
        self.used = set()
        try:
            import drgn
            self.prog = drgn.Program()
            self.prog.set_core_dump(raw)
            self.readers.append(('drgn', lambda va, n: self.prog.read(va, n)))
        except Exception:
            pass
        self.readers.append(('libkdumpfile', lambda va, n: bytes(
            self.k.read(kdumpfile.KDUMP_KVADDR, va, n))))
        if 'NUMBER(va_kernel_pa_offset)' in self.vi:
            self.readers.append(('a riscv64 walk', self.read_riscv64))
        self.vmemmap_list = self.read_vmemmap_list()
        if self.vmemmap_list:
            self.readers.insert(0, ('vmemmap_list', self.read_listed))

    def num(self, key, base=10):
        return int(self.vi[key], base)

    def phys(self, pa, n):
        for s in self.loads:
            if s.paddr <= pa and pa + n <= s.paddr + s.filesz:
                self.raw.seek(s.offset + pa - s.paddr)
                return self.raw.read(n)
        return None

    def pptr(self, pa):
        b = self.phys(pa, 8)
        return None if b is None else int.from_bytes(b, self.bo)

    def read_vmemmap_list(self):
        """ppc64: [(virt, phys)] of each block of the struct page array."""
        if 'SYMBOL(vmemmap_list)' not in self.vi:
            return []
        lin = 0xc000000000000000
        o_phys = self.num('OFFSET(vmemmap_backing.phys)')
        o_virt = self.num('OFFSET(vmemmap_backing.virt_addr)')
        o_list = self.num('OFFSET(vmemmap_backing.list)')
        out, node = [], self.pptr(self.num('SYMBOL(vmemmap_list)', 16) - lin)
        while node and len(out) < 1 << 20:
            out.append((self.pptr(node - lin + o_virt), self.pptr(node - lin + o_phys)))
            node = self.pptr(node - lin + o_list)
        return sorted(out)

    def read_listed(self, va, n):
        import bisect
        i = bisect.bisect_right(self.vmemmap_list, (va, 1 << 64)) - 1
        if i < 0:
            raise ValueError('not in vmemmap_list')
        virt, phys = self.vmemmap_list[i]
        return self.phys(phys + va - virt, n)

    def read_riscv64(self, va, n):
        """riscv64 (neither drgn nor libkdumpfile reads one here): the
        linear map, else Sv39/48/57 from swapper_pg_dir, whose kernel-image
        address is va_kernel_pa_offset above its physical one."""
        if va >= self.num('NUMBER(PAGE_OFFSET)', 16) and va < 0xff80000000000000:
            return self.phys(va - self.num('NUMBER(PAGE_OFFSET)', 16) +
                             self.num('NUMBER(phys_ram_base)'), n)
        table = (self.num('SYMBOL(swapper_pg_dir)', 16) -
                 self.num('NUMBER(va_kernel_pa_offset)', 16)) % (1 << 64)
        levels = {39: 3, 48: 4, 57: 5}[self.num('NUMBER(VA_BITS)')]
        for level in range(levels - 1, -1, -1):
            shift = 12 + 9 * level
            pte = self.pptr(table + 8 * ((va >> shift) & 511))
            if pte is None or not pte & 1:
                return None
            base = (pte >> 10 & ((1 << 44) - 1)) << 12
            if pte & 0xe:                       # R, W or X: a leaf
                return self.phys(base + (va & ((1 << shift) - 1)), n)
            table = base
        return None

    def read(self, va, n):
        for name, r in self.readers:
            try:
                b = r(va, n)
                if b is not None and len(b) == n:
                    self.used.add(name)
                    return bytes(b)
            except Exception:
                continue
        return None

    def ptr(self, va):
        b = self.read(va, 8)
        return 0 if b is None else int.from_bytes(b, self.bo)

    def sections(self, max_pfn):
        """(first pfn, pfns, section_mem_map decoded) of present sections."""
        shift = self.ps.bit_length() - 1
        pps = 1 << (self.num('NUMBER(SECTION_SIZE_BITS)') - shift)
        size = self.num('SIZE(mem_section)')
        off = self.num('OFFSET(mem_section.section_mem_map)')
        sym = self.num('SYMBOL(mem_section)', 16)
        per_root = self.ps // size
        for nr in range(-(-max_pfn // pps)):
            root = self.ptr(sym + 8 * (nr // per_root))
            if root == 0:
                continue
            word = self.ptr(root + size * (nr % per_root) + off)
            if word & 1:
                yield nr * pps, pps, word & MAP_MASK


def struct_page_pages(kern, max_pfn, pss):
    """content of each page of the struct page array -> list of the pfn
    ranges (inclusive) whose struct pages lie on a page of that content."""
    out = {}
    ps = kern.ps
    for first, n, mm in kern.sections(max_pfn):
        lo = (mm + first * pss) // ps * ps
        for vp in range(lo, mm + (first + n) * pss, ps):
            data = kern.read(vp, ps)
            if data is None:
                continue
            plo = max((vp - mm) // pss, 0)
            phi = (vp + ps - mm + pss - 1) // pss - 1
            out.setdefault(data, []).append((plo, phi))
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    raw, plain_path, excl_path = sys.argv[1:]
    if not status_of(excl_path) & EXCLUDED_VMEMMAP:
        fail('%s lacks DUMP_DH_EXCLUDED_VMEMMAP' % excl_path)
    if status_of(plain_path) & EXCLUDED_VMEMMAP:
        fail('%s has DUMP_DH_EXCLUDED_VMEMMAP without -e' % plain_path)
    plain_bm = KdumpHeader(plain_path).bitmap2
    plain = set(set_bits(plain_bm))
    excl = set(set_bits(KdumpHeader(excl_path).bitmap2))
    if not excl <= plain:
        fail('-e keeps %d pages the plain dump leaves out (first %s)'
             % (len(excl - plain), [hex(p) for p in sorted(excl - plain)[:4]]))
    left = sorted(plain - excl)
    if not left:
        fail('-e left out no page')
    kern = Kernel(raw)
    max_pfn = max(s.paddr + s.memsz for s in pt_loads(raw)) // kern.ps
    pages = struct_page_pages(kern, max_pfn, kern.num('SIZE(page)'))

    def kept(p):
        return p // 8 < len(plain_bm) and plain_bm[p // 8] >> (p % 8) & 1

    if not pages:
        fail('no page of the struct page array could be read')
    for x in left:
        data = kern.phys(x * kern.ps, kern.ps)
        if data not in pages:
            fail('pfn 0x%x was left out but its content is no page of the '
                 'struct page array' % x)
        # Identical pages of struct pages may exist: one of them must
        # describe only pfns the plain dump leaves out.
        if not any(not any(kept(p) for p in range(plo, phi + 1))
                   for plo, phi in pages[data]):
            fail('pfn 0x%x was left out, but the struct pages it holds '
                 'describe kept pages (pfns 0x%x-0x%x)' % (x, *pages[data][0]))
    print('ok: %d pages of struct pages left out, each describing only '
          'excluded pfns (%d distinct pages of struct pages read through %s)'
          % (len(left), len(pages), ' and '.join(sorted(kern.used))))


if __name__ == '__main__':
    main()
