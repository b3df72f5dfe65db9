# SPDX-License-Identifier: GPL-2.0-or-later
"""s390x.py - the s390x geometry of a generated vmcore (used by
mkvmcore.py).

One S390x object answers, for a spec's `arch s390x levels=3|4|5
[layout=legacy|vr] [os_info=yes]` line, where the kernel puts things and
how its DAT tables look.  It has the interface of arm64.py's Arm64 (as
riscv64.py does), so mkvmcore.py builds it the same way:

  * big-endian (mkvmcore writes every value of the dump with '>'), 4 KiB
    pages, ELF machine 22 (EM_S390);
  * DAT: region-first, region-second, region-third and segment tables
    of 2048 eight-byte entries (16 KiB, four pages), page tables of 256
    (2 KiB; one to a page here).  The top is a region-third table with
    `levels=3` (4 TiB of address space), region-second with 4 (8 PiB),
    region-first with 5.  An entry carries its own table's type (TT,
    bits 0x0c: 3 R1, 2 R2, 1 R3, 0 segment), the invalid bit 0x20 and, in
    a region entry, the next table's length (TL 0x03 = whole); empty
    entries are TT|I, as the kernel's _REGIONn_ENTRY_EMPTY, and empty
    page-table entries have the invalid bit 0x400.  The format-control
    bit 0x400 makes a segment entry a 1 MiB leaf (EDAT1) and a
    region-third entry a 2 GiB leaf (EDAT2);
  * `layout=legacy` (before 6.10): the identity map at 0, the image
    where it was loaded (virtual = physical), vmemmap above the identity
    map; SYMBOL(high_memory) holds the identity map's end.  `layout=vr`
    (6.10+): the identity map at IDENTITYBASE, the image mapped apart at
    KERNELOFFSET from KERNELOFFPHYS (its load address), both exported in
    VMCOREINFO; `os_info=yes` also writes the kernel's os_info block
    (pointed at by lowcore 0xe18) with those values and vmemmap's start.

Levels are numbered as arm64.py does: the page table is 3, the segment
table 2, region-third 1, region-second 0, region-first -1; a leaf at
level L maps 2^(12 + 8) (L = 2), 2^31 (L = 1) or a page (L = 3).
Standard library only.
"""

M64 = (1 << 64) - 1

TT_SHIFT = 2
INVALID = 0x20
TL_WHOLE = 0x3
FC = 0x400
PTE_INVALID = 0x400
PTE_SW = 0x03d       # software bits: present, young, dirty, read, write
LEAF_SW = 0x3003     # large leaves: dirty, young, read, write

SHIFTS = {3: 12, 2: 20, 1: 31, 0: 42, -1: 53}

# The layouts' virtual addresses, by the top table: (identity base,
# vmemmap, image).  Legacy kernels: identity at 0, the image physical.
VMEMMAP = {3: 0x3d000000000, 4: 0x1fffc000000000, 5: 0x40000000000000}
IDENTITY_VR = {3: 0x8000000000, 4: 0x1000000000000, 5: 0x20000000000000}
IMAGE_VR = {3: 0x3ffe0000000, 4: 0x1ffffe00000000, 5: 0x7ffffe00000000}
OS_INFO_MAGIC = 0x4f53494e464f535a          # "OSINFOSZ"
AMODE31 = (0x10000, 0x30000)                # [__samode31, __eamode31)


class S390x:
    arch = 's390x'
    machine = 's390x'
    elf_machine = 22
    prstatus_size = 336
    big_endian = True
    kernel_level = None          # the image is not walked: not mapped here
    top_pages = 4                # swapper_pg_dir: 16 KiB

    def __init__(self, levels, layout, ram_start, ram_end):
        if levels not in (3, 4, 5):
            raise ValueError('s390x levels=3|4|5 (region-third, -second, '
                             '-first top)')
        if layout not in ('legacy', 'vr'):
            raise ValueError('s390x layout=legacy|vr')
        if ram_start:
            raise ValueError('s390x RAM starts at 0 (the lowcore)')
        self.page = 4096
        self.shift = 12
        self.levels = levels
        self.top = 4 - levels
        self.vabits = self.va_bits = 31 + 11 * (levels - 2) \
            if levels < 5 else 64
        self.layout = layout
        self.phys_offset = 0
        self.ram_end = ram_end
        self.lin_start = IDENTITY_VR[levels] if layout == 'vr' else 0
        self.vmemmap_start = VMEMMAP[levels]
        self.image_vr = IMAGE_VR[levels]
        self.os_info = False

    # -- addresses -----------------------------------------------------------
    def lva(self, pa):
        return self.lin_start + pa

    def is_linear(self, va):
        return self.lin_start <= va < self.lin_start + self.ram_end

    def image_base(self, kload, koffset):
        """The image's virtual start: its load address (legacy), or the
        vr mapping (plus the KASLR offset)."""
        return kload if self.layout == 'legacy' else self.image_vr + koffset

    def vmemmap_base(self, psize):
        return self.vmemmap_start

    # -- tables --------------------------------------------------------------
    def level_shift(self, level):
        return SHIFTS[level]

    def idx(self, va, level):
        return (va >> SHIFTS[level]) & (0xff if level == 3 else 0x7ff)

    def block_size(self, level):
        return 1 << SHIFTS[level]

    def block_allowed(self, level):
        return level in (1, 2, 3)

    def desc_pa(self, e):
        return e & ~0xfff & M64

    def table_desc_at(self, pa, level):
        """An entry of a table of LEVEL pointing at the next table."""
        if level == 2:                      # segment -> page table
            return pa
        return pa | (self.tt(level) << TT_SHIFT) | TL_WHOLE

    def table_desc(self, pa):
        """A segment entry pointing at a page table (mkvmcore's
        `corrupt vmemmap ... level=pmd`)."""
        return self.table_desc_at(pa, 2)

    def page_desc(self, pa, exec_=False):
        return pa | PTE_SW

    def block_desc(self, pa, level, exec_=False):
        if level == 3:
            return self.page_desc(pa)
        if not self.block_allowed(level):
            raise ValueError('no s390x leaf at level %d' % level)
        if pa % self.block_size(level):
            raise ValueError('leaf at level %d: %#x not aligned' % (level, pa))
        return pa | FC | LEAF_SW | (self.tt(level) << TT_SHIFT)

    def tt(self, level):
        """The table type a table of LEVEL has (3 R1 .. 0 segment)."""
        return 2 - level

    def empty_entry(self, level):
        if level == 3:
            return PTE_INVALID
        return (self.tt(level) << TT_SHIFT) | INVALID

    def table_entries(self, level):
        return 256 if level == 3 else 2048

    def table_pages(self, level):
        return 1 if level == 3 else 4

    # -- memory and VMCOREINFO ------------------------------------------------
    def write_kernel_data(self, b, E):
        """high_memory, lowcore_ptr and (os_info=yes) os_info in the
        image; os_info's address at lowcore 0xe18.  B is mkvmcore's
        Builder, E its struct byte order."""
        import struct
        p = b.kimage_alloc('kdata') << 12
        self.sym_high_memory = b.kva(p)
        b.mem.write(p, struct.pack(E + 'Q', self.lva(self.ram_end)))
        self.sym_lowcore_ptr = b.kva(p + 64)
        if not self.os_info:
            return
        p = b.kimage_alloc('kdata') << 12
        vals = [0] * 10
        if self.layout == 'vr':
            vals[4:10] = [self.lin_start, b.kvbase, b.kload,
                          self.vmemmap_start, AMODE31[0], AMODE31[1]]
        body = b''.join(struct.pack(E + 'QQI', v, 0, 0) for v in vals)
        b.mem.write(p, struct.pack(E + 'QIHHQQ', OS_INFO_MAGIC, 0, 1, 1,
                                   0, 0) + body)
        b.mem.write(0xe18, struct.pack(E + 'Q', p))

    def vmcoreinfo(self, b, add):
        """As arch/s390/kernel/vmcore_info.c writes them (6.10+: with
        IDENTITYBASE and KERNELOFFPHYS), swapper_pg_dir and _stext from
        the generic code."""
        add('SYMBOL(swapper_pg_dir)', '%x' % b.kva(b.top << 12))
        add('SYMBOL(_stext)', '%x' % b.stext)
        add('SYMBOL(lowcore_ptr)', '%x' % self.sym_lowcore_ptr)
        add('SYMBOL(high_memory)', '%x' % self.sym_high_memory)
        add('LENGTH(lowcore_ptr)', '64')
        add('SAMODE31', '%x' % AMODE31[0])
        add('EAMODE31', '%x' % AMODE31[1])
        if self.layout == 'vr':
            add('IDENTITYBASE', '%x' % self.lin_start)
            add('KERNELOFFSET', '%x' % b.kvbase)
            add('KERNELOFFPHYS', '%x' % b.kload)
        else:
            add('KERNELOFFSET', '%x' % b.koffset)
