"""riscv64.py - the riscv64 geometry of a generated vmcore (used by
mkvmcore.py).

One Riscv64 object answers, for a spec's `arch riscv64 va=39|48|57 ...`
line, where the kernel puts things and how its page tables look.  It has
the interface of arm64.py's Arm64, so mkvmcore.py builds both the same way:

  * 4 KiB pages; Sv39, Sv48 or Sv57 (3, 4 or 5 levels of 512 entries);
  * the layout of Documentation/arch/riscv/vm-layout.rst: PAGE_OFFSET
    (Sv39 0xffffffd600000000, Sv48 0xffffaf8000000000, Sv57
    0xff60000000000000) maps phys_ram_base, the lowest RAM; vmalloc is the
    2^(VA_BITS-3) bytes below it and vmemmap the 2^(VA_BITS-7) below that;
    the image at KERNEL_LINK_ADDR 0xffffffff80000000 (plus the KASLR
    offset), modules in the 2 GiB below the image's end;
  * entries: V = bit 0, R/W/X = bits 1-3 (any of them: a leaf), A and D,
    G for kernel mappings, the PPN in bits 10-53.  A leaf may sit at any
    level (mkvmcore's `linear=` and vmemmap sizes pick it).

Levels are numbered as arm64.py does, so mkvmcore.py's code works
unchanged: the last level is 3, the top is 4 - levels (-1 for Sv57); a leaf
at level L maps 2^(12 + 9 * (3 - L)) bytes.  Standard library only.
"""

M64 = (1 << 64) - 1

PAGE_OFFSETS = {39: 0xffffffd600000000, 48: 0xffffaf8000000000,
                57: 0xff60000000000000}
KERNEL_LINK_ADDR = 0xffffffff80000000

V, R, W, X, G, A, D = (1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 5, 1 << 6,
                       1 << 7)
PPN_MASK = (1 << 44) - 1
NAPOT = 1 << 63


class Riscv64:
    arch = 'riscv64'
    kernel_level = 2            # the image is mapped with 2 MiB leaves

    def __init__(self, va_bits, ram_start):
        if va_bits not in PAGE_OFFSETS:
            raise ValueError('riscv64 va=39|48|57 (Sv39, Sv48, Sv57)')
        self.page = 4096
        self.shift = 12
        self.va_bits = self.vabits = va_bits
        self.levels = {39: 3, 48: 4, 57: 5}[va_bits]
        self.top = 4 - self.levels
        self.phys_offset = ram_start          # phys_ram_base
        self.lin_start = PAGE_OFFSETS[va_bits]
        self.vmalloc_end = self.lin_start
        self.vmalloc_start = self.lin_start - (1 << (va_bits - 3))
        self.vmemmap_end = self.vmalloc_start
        self.vmemmap_start = self.vmalloc_start - (1 << (va_bits - 7))
        self.kimage_vaddr = KERNEL_LINK_ADDR

    # -- addresses -----------------------------------------------------------
    def lva(self, pa):
        return self.lin_start + pa - self.phys_offset

    def is_linear(self, va):
        return self.lin_start <= va < KERNEL_LINK_ADDR - (2 << 30)

    def vmemmap_base(self, psize):
        """Address of pfn 0's struct page (the kernel's `vmemmap`):
        VMEMMAP_START holds the struct page of the first pfn of the
        128 MiB section that phys_ram_base is in (vmemmap_start_pfn, the
        6.13 fix, in stable kernels since), so a section's struct pages
        never start below it."""
        start_pfn = (self.phys_offset & ~((1 << 27) - 1)) >> self.shift
        return (self.vmemmap_start - start_pfn * psize) & M64

    # -- tables --------------------------------------------------------------
    def level_shift(self, level):
        return 9 * (3 - level) + 12

    def idx(self, va, level):
        return (va >> self.level_shift(level)) & 511

    def block_size(self, level):
        return 1 << self.level_shift(level)

    def block_allowed(self, level):
        return self.top <= level <= 3

    def desc_pa(self, e):
        ppn = (e >> 10) & PPN_MASK
        return (ppn & ~0xf if e & NAPOT else ppn) << 12

    def table_desc(self, pa):
        return ((pa >> 12) << 10) | V

    def page_desc(self, pa, exec_=False):
        return ((pa >> 12) << 10) | V | R | W | G | A | D | (X if exec_ else 0)

    def block_desc(self, pa, level, exec_=False):
        if not self.block_allowed(level):
            raise ValueError('no level %d in Sv%d' % (level, self.va_bits))
        if pa % self.block_size(level):
            raise ValueError('leaf at level %d: %#x not aligned' % (level, pa))
        return self.page_desc(pa, exec_)

    def napot_vmemmap(self, b):
        """`napot=vmemmap`: every 64 KiB of vmemmap mapped with 4 KiB
        leaves is moved onto a fresh 64 KiB-aligned block and mapped with
        16 equal Svnapot entries (N = bit 63, PPN bits 3:0 = 1000), as
        the kernel maps vmalloc with NAPOT.  Runs after mkvmcore's
        build_memmap and before the struct pages are written; the old
        backing stays allocated (zero memmap pages)."""
        leaves = b.vmemmap_leaves
        for c in sorted(leaves):
            if c % (64 << 10) or not all(c + k * 4096 in leaves
                                          for k in range(16)):
                continue
            if b.tables[leaves[c][0]][leaves[c][1]] & (V | R) != V | R:
                continue
            p0 = b.alloc('memmap', 16, 16)
            e = (((p0 | 0x8) << 10) | V | R | W | G | A | D | NAPOT)
            for k in range(16):
                t, i = leaves[c + k * 4096]
                b.tables[t][i] = e
                b.vmap[(c >> 12) + k] = p0 + k

    # -- VMCOREINFO ------------------------------------------------------------
    def vmcoreinfo(self, b, add):
        """As arch/riscv/kernel/vmcore_info.c writes them (5.19+): VA_BITS
        in decimal, the rest in 0x hex; swapper_pg_dir from the generic
        code.  B is mkvmcore's Builder."""
        add('SYMBOL(swapper_pg_dir)', '%x' % b.kva(b.top << 12))
        add('SYMBOL(_stext)', '%x' % b.stext)
        add('NUMBER(VA_BITS)', str(self.va_bits))
        add('NUMBER(phys_ram_base)', '0x%x' % self.phys_offset)
        add('NUMBER(PAGE_OFFSET)', '0x%x' % self.lin_start)
        add('NUMBER(VMALLOC_START)', '0x%x' % self.vmalloc_start)
        add('NUMBER(VMALLOC_END)', '0x%x' % self.vmalloc_end)
        add('NUMBER(VMEMMAP_START)', '0x%x' % self.vmemmap_start)
        add('NUMBER(VMEMMAP_END)', '0x%x' % self.vmemmap_end)
        kend = (b.kvbase + b.ksize + 4095) & ~4095
        add('NUMBER(MODULES_VADDR)', '0x%x' % (kend - (2 << 30)))
        add('NUMBER(MODULES_END)', '0x%x' % b.kvbase)
        add('NUMBER(KERNEL_LINK_ADDR)', '0x%x' % KERNEL_LINK_ADDR)
        add('NUMBER(va_kernel_pa_offset)', '0x%x' % b.kimage_voffset)
        add('KERNELOFFSET', '%x' % b.koffset)
