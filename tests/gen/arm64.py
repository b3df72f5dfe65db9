# SPDX-License-Identifier: GPL-2.0-or-later
"""arm64.py - the arm64 geometry of a generated vmcore (used by mkvmcore.py).

One Arm64 object answers, for a spec's `arch arm64 ...` line, where the
kernel puts things and how its page tables look:

  * page size 4K/16K/64K, VA_BITS, vabits_actual (what TCR_EL1.T1SZ gives),
    and the levels they imply (4K 39/48/52 -> 3/4/5, 16K 36/47/48/52 ->
    2/3/4/4, 64K 42/48/52 -> 3 or 2 for 42);
  * the layout: "flipped" (5.4+: linear map at the bottom of the kernel's
    space, modules/image/vmalloc above the middle) or "old" (linear map in
    the upper half, image at the bottom);
  * PHYS_OFFSET (the lowest RAM, 1 GiB aligned), kimage_voffset, the image,
    linear-map and vmemmap bases;
  * descriptors: table/page = 0b11, block = 0b01, AF, SH (not with LPA2),
    PXN|UXN; output addresses above 48 bits in bits 15:12 (LPA, 64K pages)
    or 9:8 (LPA2, 4K/16K pages with 52-bit VA).

Levels are numbered as the architecture does: the last level is 3, the top
is 4 - levels (-1 for 5 levels).  Standard library only.
"""

M64 = (1 << 64) - 1

LEVELS = {(12, 39): 3, (12, 48): 4, (12, 52): 5,
          (14, 36): 2, (14, 47): 3, (14, 48): 4, (14, 52): 4,
          (16, 42): 2, (16, 48): 3, (16, 52): 3}

DESC_VALID_TABLE = 0x3
DESC_BLOCK = 0x1
AF = 1 << 10
SH_INNER = 3 << 8
PXN_UXN = (1 << 53) | (1 << 54)
ATTR_NORMAL = 4 << 2          # AttrIndx, as Linux uses for normal memory


def neg(x):
    return (-x) & M64


class Arm64:
    def __init__(self, page, va_bits, vabits, layout, pa_bits, ram_start):
        self.page = page
        self.shift = {4096: 12, 16384: 14, 65536: 16}[page]
        self.va_bits = va_bits
        self.vabits = vabits or va_bits
        key = (self.shift, self.vabits)
        if key not in LEVELS:
            raise ValueError('no arm64 configuration with %d KiB pages and '
                             '%d-bit VA' % (page >> 10, self.vabits))
        self.levels = LEVELS[key]
        self.top = 4 - self.levels
        self.flipped = layout == 'flipped'
        self.pa_bits = pa_bits
        if pa_bits == 52 and self.shift == 16:
            self.oa = 'lpa'
        elif pa_bits == 52 and self.vabits == 52:
            self.oa = 'lpa2'
        else:
            self.oa = '48'
        self.phys_offset = ram_start & ~((1 << 30) - 1)
        vmin = min(va_bits, 48)
        if self.flipped:
            self.lin_start = neg(1 << self.vabits)
            self.kimage_vaddr = neg(1 << (vmin - 1)) + (2 << 30)
            self.vmemmap_start = neg(1 << (va_bits - (self.shift - 6)))
        else:
            self.lin_start = neg(1 << (self.vabits - 1))
            self.kimage_vaddr = neg(1 << va_bits) + (128 << 20)
            self.vmemmap_start = self.lin_start - \
                (1 << (va_bits - 1 - self.shift)) * 64

    # -- addresses -----------------------------------------------------------
    def lva(self, pa):
        return self.lin_start + pa - self.phys_offset

    def is_linear(self, va):
        if self.flipped:
            return self.lin_start <= va < neg(1 << (self.vabits - 1))
        return va >= self.lin_start

    def vmemmap_base(self, psize):
        """Address of pfn 0's struct page (the kernel's `vmemmap`)."""
        return (self.vmemmap_start -
                (self.phys_offset >> self.shift) * psize) & M64

    # -- tables --------------------------------------------------------------
    def level_shift(self, level):
        return (self.shift - 3) * (3 - level) + self.shift

    def idx(self, va, level):
        bits = self.vabits - self.level_shift(level) if level == self.top \
            else self.shift - 3
        return (va >> self.level_shift(level)) & ((1 << bits) - 1)

    def block_size(self, level):
        return 1 << self.level_shift(level)

    def block_allowed(self, level):
        if level == 2:
            return True
        if self.shift == 12:
            return level == 1 or (level == 0 and self.oa == 'lpa2')
        if self.shift == 14:
            return level == 1 and self.oa == 'lpa2'
        return level == 1 and self.oa == 'lpa'

    def oa_field(self, pa):
        if self.oa == 'lpa':
            return (pa & ((1 << 48) - 1)) | (((pa >> 48) & 0xf) << 12)
        if self.oa == 'lpa2':
            return (pa & ((1 << 50) - 1)) | (((pa >> 50) & 0x3) << 8)
        return pa

    def desc_pa(self, e):
        low = e & ~((1 << self.shift) - 1)
        if self.oa == 'lpa':
            return (low & ((1 << 48) - 1)) | (((e >> 12) & 0xf) << 48)
        if self.oa == 'lpa2':
            return (low & ((1 << 50) - 1)) | (((e >> 8) & 0x3) << 50)
        return low & ((1 << 48) - 1)

    def attrs(self):
        return AF | ATTR_NORMAL | (0 if self.oa == 'lpa2' else SH_INNER)

    def table_desc(self, pa):
        return self.oa_field(pa) | DESC_VALID_TABLE

    def page_desc(self, pa, exec_=False):
        return self.oa_field(pa) | self.attrs() | DESC_VALID_TABLE | \
            (0 if exec_ else PXN_UXN)

    def block_desc(self, pa, level):
        if not self.block_allowed(level):
            raise ValueError('no block mapping at level %d here' % level)
        return self.oa_field(pa) | self.attrs() | PXN_UXN | DESC_BLOCK
