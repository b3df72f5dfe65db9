# SPDX-License-Identifier: GPL-2.0-or-later
"""Kernel-generation presets for mkvmcore.py (x86_64, 4 KiB pages).

Each preset describes, for one kernel generation (one row of the table in
makedumpfile-notes.md section 3.4), how struct page is laid out, which page
flag numbers and page-type values the kernel uses, and which VMCOREINFO keys
that kernel exports.  Values are modelled on the real kernels but are not
byte-exact copies of any particular build; what matters is that the struct
pages we write agree with the VMCOREINFO we export, the way they do in a
real dump.

Standard library only.
"""

import copy

START_KERNEL_MAP = 0xffffffff80000000

# struct page layouts (offsets inside one struct page)
LAYOUT_2_6 = dict(size=56, flags=0, count=8, mapcount=12, private=16,
                  mapping=24, index=32, lru=40)
LAYOUT_3 = dict(size=64, flags=0, mapping=8, index=16, mapcount=24, count=28,
                lru=32, private=48)
LAYOUT_4_4 = dict(size=64, flags=0, mapping=8, index=16, mapcount=24,
                  count=28, lru=32, chead=32, dtor=40, order=44,
                  private=48)
LAYOUT_4_18 = dict(size=64, flags=0, lru=8, chead=8, dtor=16, order=17,
                   mapping=24, index=32, private=40, mapcount=48, count=52)

# page flag numbers
FLAGS_2_6_32 = dict(locked=0, error=1, referenced=2, uptodate=3, dirty=4,
                    lru=5, active=6, slab=7, owner_priv=8, arch_1=9,
                    reserved=10, private=11, private_2=12, writeback=13,
                    head=14, tail=15, swapcache=16, mappedtodisk=17,
                    reclaim=18, buddy=19, swapbacked=20, unevictable=21,
                    mlocked=22, uncached=23, hwpoison=24)
FLAGS_2_6_38 = dict(locked=0, error=1, referenced=2, uptodate=3, dirty=4,
                    lru=5, active=6, slab=7, owner_priv=8, arch_1=9,
                    reserved=10, private=11, private_2=12, writeback=13,
                    head=14, tail=15, swapcache=16, mappedtodisk=17,
                    reclaim=18, swapbacked=19, unevictable=20, mlocked=21,
                    uncached=22, hwpoison=23)
# 4.10 .. 4.17: PG_swapcache became an alias of PG_owner_priv_1
FLAGS_4_14 = dict(locked=0, error=1, referenced=2, uptodate=3, dirty=4,
                  lru=5, active=6, waiters=7, slab=8, owner_priv=9,
                  arch_1=10, reserved=11, private=12, private_2=13,
                  writeback=14, head=15, mappedtodisk=16, reclaim=17,
                  swapbacked=18, unevictable=19, mlocked=20, uncached=21,
                  hwpoison=22)
FLAGS_4_14['swapcache'] = FLAGS_4_14['owner_priv']
# 4.18 .. 6.5 (same numbering as the real 6.1 VMCOREINFO in /tmp/fx)
FLAGS_6_1 = dict(locked=0, referenced=1, uptodate=2, dirty=3, lru=4,
                 active=5, workingset=6, waiters=7, error=8, slab=9,
                 owner_priv=10, arch_1=11, reserved=12, private=13,
                 private_2=14, writeback=15, head=16, mappedtodisk=17,
                 reclaim=18, swapbacked=19, unevictable=20, mlocked=21,
                 uncached=22, hwpoison=23)
FLAGS_6_1['swapcache'] = FLAGS_6_1['owner_priv']
# 6.6+: PG_head moved into the first byte so that the low byte of the first
# tail's flags can hold the folio order; PG_hugetlb aliases PG_active there.
FLAGS_6_6 = dict(locked=0, writeback=1, referenced=2, uptodate=3, dirty=4,
                 lru=5, head=6, waiters=7, active=8, workingset=9, error=10,
                 slab=11, owner_priv=12, arch_1=13, reserved=14, private=15,
                 private_2=16, mappedtodisk=17, reclaim=18, swapbacked=19,
                 unevictable=20, mlocked=21, uncached=22, hwpoison=23)
FLAGS_6_6['swapcache'] = FLAGS_6_6['owner_priv']
FLAGS_6_6['hugetlb'] = FLAGS_6_6['active']        # on tail page 1 only
FLAGS_6_6['large_rmappable'] = FLAGS_6_6['workingset']  # tail page 1


def _neg(v):
    """~v as a signed 32-bit int (the kernel's PAGE_*_MAPCOUNT_VALUE)."""
    return ~v


def _top(b):
    """6.12+ page type: type byte in the top byte of page_type."""
    v = b << 24
    return v - (1 << 32) if v & 0x80000000 else v


BASE = dict(
    name=None, osrelease=None, version=(0, 0, 0),
    layout=None, refname='_refcount',
    flags=None,
    # which NUMBER(PG_x) keys the kernel exports, name -> exported key
    export_flags=('lru', 'private', 'swapcache', 'swapbacked', 'slab',
                  'hwpoison'),
    export_head_mask=True,
    # buddy identification: 'flag' (PG_buddy, 2.6.17-2.6.37) or 'mapcount'
    buddy_mode='mapcount',
    types=dict(),            # page type values (as _mapcount int)
    export_types=(),         # which of them appear as NUMBER(...)
    # compound page encoding of the first tail page:
    #  'lru_ptr'   <4.4 : dtor = tail1.lru.next (function pointer),
    #                     order = tail1.lru.prev
    #  'u32'       4.4-4.15: unsigned int dtor/order (read as u16)
    #  'u8'        4.16-6.2: u8 compound_dtor / compound_order
    #  'folio'     6.3-6.5: folio._folio_dtor/_folio_order (u8)
    #  'flags1'    6.6+: order in low byte of tail1.flags
    compound_mode='u8',
    chead_name='compound_head',
    dtors=dict(compound=1, hugetlb=2, thp=3),
    export_hugetlb_dtor=True,
    hugetlb_mode='dtor',     # 'dtor' | 'pg_hugetlb' (6.6-6.8) | 'type'
    pgd_symbol='init_top_pgt',
    export_phys_base=True,
    export_l5=True,
    export_image_size=True,
    export_section_bits=True,
    mem_section_size=32,
    root_in_image=False,     # <4.15: mem_section root array is static
    section_flags=0x1 | 0x2 | 0x4 | 0x8,
    slab_mapping_odd=False,  # 6.2+: slab.slabs overlaps page.mapping
    tail1_odd=False,         # 6.3+: a counter at tail1+24 can be odd
    page_offset4=0xffff888000000000,
    free_area_len=11,
    migrate_types=5,         # LENGTH(free_area.free_list): MIGRATE_TYPES
    export_list_head=True,
    export_free_huge_page=False,
)

GENS = {}


def _gen(name, parent=None, **kw):
    g = copy.deepcopy(GENS[parent] if parent else BASE)
    g.update(copy.deepcopy(kw))
    g['name'] = name
    GENS[name] = g
    return g


# ---- 2.6.x : _count, PG_buddy flag, dtor function pointer -----------------
_gen('2.6.32', osrelease='2.6.32-754.el6.x86_64', version=(2, 6, 32),
     layout=LAYOUT_2_6, refname='_count', flags=FLAGS_2_6_32,
     # PG_buddy is not in the kernel's own VMCOREINFO; it is here as if the
     # VMCOREINFO had been generated from vmlinux (makedumpfile -g).
     export_flags=('lru', 'private', 'swapcache', 'buddy'),
     export_head_mask=False, buddy_mode='flag', types={},
     compound_mode='lru_ptr', chead_name=None, export_hugetlb_dtor=False,
     export_free_huge_page=True, hugetlb_mode='dtor',
     pgd_symbol='init_level4_pgt', export_phys_base=False, export_l5=False,
     export_image_size=False, export_section_bits=False,
     mem_section_size=16, root_in_image=True, section_flags=0x3,
     page_offset4=0xffff880000000000)
# 2.6.38: PG_buddy gone, buddy = _mapcount == -2 (makedumpfile default)
_gen('2.6.38', '2.6.32', osrelease='2.6.38.8', version=(2, 6, 38),
     flags=FLAGS_2_6_38, export_flags=('lru', 'private', 'swapcache'),
     buddy_mode='mapcount', types=dict(buddy=-2), export_types=('buddy',))
# (2.6.38's own VMCOREINFO lacks PAGE_BUDDY_MAPCOUNT_VALUE; it is exported
# here as a vmlinux-generated VMCOREINFO would have it.  specs/
# defaults-2.6.38.spec deletes it to exercise the version default.)
# 3.x: 64-byte struct page, buddy -128 (exported), still function pointer
_gen('3.10', '2.6.38', osrelease='3.10.0-1160.el7.x86_64',
     version=(3, 10, 0), layout=LAYOUT_3,
     flags=FLAGS_2_6_38,
     export_flags=('lru', 'private', 'swapcache', 'slab', 'hwpoison'),
     types=dict(buddy=-128), export_types=('buddy',))
# 4.4: compound_head, dtor id (unsigned int on 64-bit, read as u16), _count
_gen('4.4', '3.10', osrelease='4.4.0-210-generic', version=(4, 4, 0),
     layout=LAYOUT_4_4, compound_mode='u32', chead_name='compound_head',
     export_hugetlb_dtor=True, export_free_huge_page=False,
     dtors=dict(compound=1, hugetlb=2, thp=1), export_head_mask=True)
# 4.14: _refcount (4.6), init_top_pgt (4.13), PG_swapbacked (4.10),
#       NUMBER(phys_base) (4.10), still u16 era
_gen('4.14', '4.4', osrelease='4.14.336', version=(4, 14, 336),
     refname='_refcount', flags=FLAGS_4_14,
     export_flags=('lru', 'private', 'swapcache', 'swapbacked', 'slab',
                   'hwpoison'),
     pgd_symbol='init_top_pgt', export_phys_base=True,
     export_image_size=True, dtors=dict(compound=1, hugetlb=2, thp=3))
# 4.19: new struct page layout, u8 dtor/order, page types (~PG_buddy=-129),
#       dynamic mem_section root (4.15), MAX_PHYSMEM_BITS exported
_gen('4.19', '4.14', osrelease='4.19.0-27-amd64', version=(4, 19, 304),
     layout=LAYOUT_4_18, flags=FLAGS_6_1, compound_mode='u8',
     types=dict(buddy=_neg(0x80), table=_neg(0x200)),
     export_types=('buddy',), export_l5=True, export_section_bits=True,
     mem_section_size=32, root_in_image=False, section_flags=0x7,
     page_offset4=0xffff888000000000)
_gen('5.10', '4.19', osrelease='5.10.0-30-amd64', version=(5, 10, 218),
     types=dict(buddy=_neg(0x80), offline=_neg(0x100), table=_neg(0x200)),
     export_types=('buddy', 'offline'), section_flags=0xf)
_gen('6.1', '5.10', osrelease='6.1.0-57-amd64', version=(6, 1, 140))
# 6.2: struct slab's 'slabs' counter overlays page.mapping (can be odd)
_gen('6.2', '6.1', osrelease='6.2.16', version=(6, 2, 16),
     slab_mapping_odd=True)
# 6.3: order/dtor only as folio._folio_order/_folio_dtor
_gen('6.3', '6.2', osrelease='6.3.13', version=(6, 3, 13),
     compound_mode='folio', tail1_odd=True)
# 6.6: order in low byte of tail1 flags, PG_hugetlb in tail1 flags
_gen('6.6', '6.3', osrelease='6.6.30', version=(6, 6, 30),
     flags=FLAGS_6_6, compound_mode='flags1', hugetlb_mode='pg_hugetlb',
     export_hugetlb_dtor=False,
     export_flags=('lru', 'private', 'swapcache', 'swapbacked', 'slab',
                   'hwpoison', 'hugetlb'))
# 6.9: hugetlb is a page type
_gen('6.9', '6.6', osrelease='6.9.12', version=(6, 9, 12),
     hugetlb_mode='type',
     export_flags=('lru', 'private', 'swapcache', 'swapbacked', 'slab',
                   'hwpoison'),
     types=dict(buddy=_neg(0x80), offline=_neg(0x100), table=_neg(0x200),
                guard=_neg(0x400), hugetlb=_neg(0x800)),
     export_types=('buddy', 'offline', 'hugetlb'))
# 6.10: slab is a page type, PG_slab gone
_gen('6.10', '6.9', osrelease='6.10.14', version=(6, 10, 14),
     export_flags=('lru', 'private', 'swapcache', 'swapbacked', 'hwpoison'),
     types=dict(buddy=_neg(0x80), offline=_neg(0x100), table=_neg(0x200),
                guard=_neg(0x400), hugetlb=_neg(0x800), slab=_neg(0x1000)),
     export_types=('buddy', 'offline', 'hugetlb', 'slab'))
# 6.12: one page type in the top byte of page_type
_gen('6.12', '6.10', osrelease='6.12.48', version=(6, 12, 48),
     types=dict(buddy=_top(0xf0), offline=_top(0xf1), table=_top(0xf2),
                guard=_top(0xf3), hugetlb=_top(0xf4), slab=_top(0xf5),
                zsmalloc=_top(0xf6), unaccepted=_top(0xf7)))
# 6.16: unaccepted memory exported
_gen('6.16', '6.12', osrelease='6.16.9', version=(6, 16, 9),
     export_types=('buddy', 'offline', 'hugetlb', 'slab', 'unaccepted'))
# 7.1: page.compound_head renamed page.compound_info
_gen('7.1', '6.16', osrelease='7.1.0', version=(7, 1, 0),
     chead_name='compound_info')

TYPE_KEYS = dict(buddy='PAGE_BUDDY_MAPCOUNT_VALUE',
                 offline='PAGE_OFFLINE_MAPCOUNT_VALUE',
                 hugetlb='PAGE_HUGETLB_MAPCOUNT_VALUE',
                 slab='PAGE_SLAB_MAPCOUNT_VALUE',
                 unaccepted='PAGE_UNACCEPTED_MAPCOUNT_VALUE')
