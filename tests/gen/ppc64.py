# SPDX-License-Identifier: GPL-2.0-or-later
"""ppc64.py - the ppc64le geometry of a generated vmcore (used by mkvmcore.py).

One Ppc64 object answers, for a spec's `arch ppc64le ...` line, where the
kernel puts things and how its Linux page tables look.  It offers the
interface of arm64.Arm64 that mkvmcore.py uses, so the builder's table
code serves both:

  * page size 4K/64K; MMU radix (POWER9+, Debian's default) or hash; the
    index sizes (PTE, PMD, PUD, PGD bits) of Linux 4.17+:
        radix 64K 5 9 9 13, radix 4K 9 9 9 13,
        hash  64K 8 10 10 8, hash  4K 9 7 9 9;
    hash 64K before 4.17: 8 10 7 8 (4.12+), 8 5 5 12 (4.7+);
  * addresses: the kernel image and the linear map at 0xc000000000000000
    + paddr (the image is loaded at physical 0, _stext is the base), vmalloc
    from 0xc008000000000000, vmemmap at 0xc00c000000000000 (pfn 0's
    struct page); hash with 4K pages has a 46-bit space: vmalloc from
    0xc0003d0000000000, vmemmap at 0xc0003f0000000000;
  * entries, stored big-endian whatever the kernel's byte order: a table
    entry is _PAGE_PRESENT (bit 63) | the next table's physical address |
    (radix only) an index size in the low bits (the PTE level's at every
    level; a real radix kernel puts the next level's there, a hash kernel
    nothing); a leaf is _PAGE_PRESENT |
    _PAGE_PTE (bit 62) | the physical address | R, W, accessed, dirty,
    privileged.  Leaves above the last level (huge pages): radix PMD (2M
    with 64K pages) and PUD (1G); hash PMD (16M).
  * PTE tables smaller than a page sit at the second fragment's offset
    (radix 64K: 0x100; hash 64K: 0x1000), as Linux packs them;
  * the linear map: radix kernels map it in swapper_pg_dir with PUD
    leaves; hash kernels bolt it into the hash table, not the Linux tables.

Levels are numbered as in arm64.py: the top (PGD) is 0, the PTE level 3.
Standard library only.
"""

M64 = (1 << 64) - 1
KERNEL_BASE = 0xc000000000000000
VMALLOC_START = 0xc008000000000000
VMEMMAP_START = 0xc00c000000000000
# hash with 4K pages: a 46-bit space, 61 TB linear map, then 1 TB each of
# vmalloc, I/O and vmemmap
VMALLOC_START_H4K = 0xc0003d0000000000
VMEMMAP_START_H4K = 0xc0003f0000000000
# hash before 5.2: regions by the top nibble, 0xd vmalloc, 0xf vmemmap;
# the tables index the low bits of any of them
VMALLOC_START_HREGION = 0xd000000000000000
VMEMMAP_START_HREGION = 0xf000000000000000

BITS = {('radix', 16): (5, 9, 9, 13), ('radix', 12): (9, 9, 9, 13),
        ('hash', 16): (8, 10, 10, 8), ('hash', 12): (9, 7, 9, 9)}
# the hash MMU's 64K layout before 4.17 (PUD 7 bits) and before 4.12
HASH_64K_OLD = (((4, 12), (8, 10, 7, 8)), ((4, 7), (8, 5, 5, 12)))

PRESENT = 1 << 63
PTE = 1 << 62
LEAF_FLAGS = 0x100 | 0x80 | 0x8 | 0x4 | 0x2   # accessed dirty priv R W
EXEC = 0x1


class Ppc64:
    entry_fmt = '>Q'
    machine = 'ppc64le'
    elf_machine = 21
    prstatus_size = 504

    def __init__(self, page, mmu, version=(6, 1)):
        if mmu not in ('radix', 'hash'):
            raise ValueError('mmu=radix|hash')
        self.page = page
        self.shift = {4096: 12, 65536: 16}[page]
        self.mmu = mmu
        self.bits = BITS[(mmu, self.shift)]   # PTE, PMD, PUD, PGD
        if tuple(version[:2]) < (4, 7):
            raise ValueError('ppc64 generation before 4.7')
        if mmu == 'hash' and self.shift == 16 and \
                tuple(version[:2]) < (4, 17):
            for since, bits in HASH_64K_OLD:
                if tuple(version[:2]) >= since:
                    self.bits = bits
                    break
        self.levels = 4
        self.top = 0
        self.phys_offset = 0
        self.lin_start = KERNEL_BASE
        self.kimage_vaddr = KERNEL_BASE
        h4k = mmu == 'hash' and self.shift == 12
        self.vmalloc_start = VMALLOC_START_H4K if h4k else VMALLOC_START
        self.vmemmap_start = VMEMMAP_START_H4K if h4k else VMEMMAP_START
        if mmu == 'hash' and tuple(version[:2]) < (5, 2):
            # before 5.2 the hash MMU's regions were the top nibble
            self.vmalloc_start = VMALLOC_START_HREGION
            self.vmemmap_start = VMEMMAP_START_HREGION
        self.va_bits = self.level_shift(0) + self.bits[3]
        self.vabits = self.va_bits
        # radix: the linear map in PUD leaves; hash: not in these tables
        self.linear = 'l1' if mmu == 'radix' else None
        # the PGD's pages (radix 4K: 2^13 entries, 64 KiB)
        self.top_pages = max(1, (8 << self.bits[3]) // page)

    # -- addresses -----------------------------------------------------------
    def lva(self, pa):
        return KERNEL_BASE + pa

    def is_linear(self, va):
        return KERNEL_BASE <= va < self.vmalloc_start

    def vmemmap_base(self, psize):
        return self.vmemmap_start

    # -- tables --------------------------------------------------------------
    def level_shift(self, level):
        s = self.shift
        for i in range(3 - level):
            s += self.bits[i]
        return s

    def idx(self, va, level):
        return (va >> self.level_shift(level)) & \
            ((1 << self.bits[3 - level]) - 1)

    def frag_offset(self, level):
        """Where in its page a new table at LEVEL starts: Linux packs
        PTE tables smaller than a page several to a page (radix 64K: 256
        bytes each; hash 64K: 4 KiB with the slot half), so each PTE table
        here is the page's second fragment; other tables start pages."""
        size = 8 << self.bits[3 - level]
        if level != 3 or 2 * size > self.page:
            return 0
        return size if self.mmu == 'radix' else 2 * size

    def block_size(self, level):
        return 1 << self.level_shift(level)

    def block_allowed(self, level):
        if self.mmu == 'radix':
            return level in (1, 2)
        return level == 2

    def desc_pa(self, e):
        return e & ~0xc0000000000000ff & M64

    def table_desc(self, pa):
        # radix: an index size in the low bits, where Linux's
        # RADIX_*_VAL_BITS put the next level's (NLS; the PTE level's
        # here); hash: none (HASH_*_VAL_BITS is the present bit alone)
        return PRESENT | pa | (self.bits[0] if self.mmu == 'radix' else 0)

    def page_desc(self, pa, exec_=False):
        return PRESENT | PTE | pa | LEAF_FLAGS | (EXEC if exec_ else 0)

    def block_desc(self, pa, level):
        if not self.block_allowed(level):
            raise ValueError('no huge page at level %d here' % level)
        return self.page_desc(pa)
