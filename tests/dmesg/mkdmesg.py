#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkdmesg.py - a minimal x86_64 ELF vmcore holding a kernel log buffer in
one of the pre-5.10 layouts, for comparing --dump-dmesg with makedumpfile.

    mkdmesg.py KIND OUT.vmcore

KIND:
  records        3.5+ variable-length records, SIZE(printk_log) (4.19)
  records-log    the same with the 3.5-3.10 names SIZE(log), OFFSET(log.*)
  records-wrap   a small ring that has wrapped: a zero-length end marker,
                 log_first_idx in the middle, clear_idx advanced with it
  plain          the plain character ring before 3.5 (3.0), not wrapped
  plain-wrap     the same after it wrapped (log_end > log_buf_len)
  plain-2.6.24   before 2.6.25: log_end is an unsigned long
  records-loop   corrupt: a record whose length sends the walk round
                 forever without reaching log_next_idx
  records-overrun  corrupt: a text_len running past the end of log_buf
  records-badidx   corrupt: log_first_idx outside log_buf

The memory is one PT_LOAD at physical 0 (direct-map p_vaddr); every symbol
is a kernel-text address 0xffffffff80000000 + paddr with phys_base 0:
  0x0000 init_top_pgt, 0x1000 its PUD, 0x2000 its PMD: one 2 MiB page
         mapping 0xffffffff80000000 to physical 0 (makedumpfile walks it)
  0x3000 the variables, 0x3100 system_utsname (makedumpfile checks
         OSRELEASE against it), 0x3200 mem_map (FLATMEM, for makedumpfile's
         memory model check), 0x4000 the log buffer
The log's records exercise makedumpfile's formatting: a multi-line record,
tabs and carriage returns, control bytes, bytes above 0x7f, an empty
record and timestamps past 99999 seconds.  Standard library only.
"""
import struct
import sys

KTEXT = 0xffffffff80000000
DIRECT = 0xffff888000000000
MEM = 1 << 20
PGD, PUD, PMD = 0x0000, 0x1000, 0x2000
VARS = 0x3000
LOGBUF = 0x4000
HDR = 16                       # struct printk_log

SYM = {'log_buf': VARS, 'log_buf_len': VARS + 8, 'log_first_idx': VARS + 16,
       'log_next_idx': VARS + 20, 'clear_idx': VARS + 24, 'log_end': VARS + 32,
       'system_utsname': VARS + 0x100, 'mem_map': VARS + 0x200}

MESSAGES = [
    (0, b'Linux version 4.19.0 (synthetic) #1 SMP'),
    (1500, b'Command line: console=ttyS0 crashkernel=128M'),
    (2000001, b'multi\nline\nrecord'),
    (3000000, b'tab\there, cr\rthere, vt\x0b ff\x0c end'),
    (4567890, b'control \x01\x02\x1b[0m del \x7f nul \x00 after'),
    (5000000, b'utf-8 caf\xc3\xa9 and \xff\x80'),
    (6000000, b''),
    (123456789012345, b'late: past 99999 seconds'),
    (123456789999999, b'trailing newline\n'),
]


def note(name, ntype, desc):
    n = name + b'\0'
    return (struct.pack('<III', len(n), len(desc), ntype) +
            n + b'\0' * (-len(n) % 4) + desc + b'\0' * (-len(desc) % 4))


def vmcoreinfo(osrelease, extra):
    lines = ['OSRELEASE=%s' % osrelease, 'PAGESIZE=4096',
             'SYMBOL(init_top_pgt)=%x' % KTEXT]
    syms = extra['syms'] + [(k, SYM[k]) for k in ('system_utsname', 'mem_map')]
    lines += ['SYMBOL(%s)=%x' % (k, KTEXT + v) for k, v in syms]
    lines += extra.get('keys', [])
    # struct page's layout: makedumpfile's memory-model check wants it
    lines += ['SIZE(page)=64', 'OFFSET(page.flags)=0', 'OFFSET(page._count)=28',
              'OFFSET(page._refcount)=52', 'OFFSET(page.mapping)=24',
              'OFFSET(page.lru)=8', 'OFFSET(page._mapcount)=48',
              'OFFSET(page.private)=40']
    lines += ['NUMBER(phys_base)=0', 'KERNELOFFSET=0', 'CRASHTIME=1700000000']
    return ('\n'.join(lines) + '\n').encode()


def write_elf(path, mem, vmci):
    notes = note(b'CORE', 1, b'\0' * 336) + note(b'VMCOREINFO', 0, vmci)
    phoff, phnum = 64, 2
    noff = phoff + 56 * phnum
    loff = (noff + len(notes) + 4095) & ~4095
    eh = (b'\x7fELF\x02\x01\x01' + b'\0' * 9 +
          struct.pack('<HHIQQQIHHHHHH', 4, 62, 1, 0, phoff, 0, 0, 64, 56,
                      phnum, 0, 0, 0))
    ph = struct.pack('<IIQQQQQQ', 4, 0, noff, 0, 0, len(notes), len(notes), 0)
    ph += struct.pack('<IIQQQQQQ', 1, 7, loff, DIRECT, 0, len(mem), len(mem), 0)
    with open(path, 'wb') as f:
        f.write(eh + ph + notes)
        f.write(b'\0' * (loff - f.tell()))
        f.write(mem)


class Records:
    """The 3.5+ log_store(): records, wrap marker, first/clear advance."""

    def __init__(self, mem, size):
        self.mem, self.size = mem, size
        self.first = self.next = self.clear = 0
        self.first_seq = self.next_seq = self.clear_seq = 0

    def u16(self, idx):
        return struct.unpack_from('<H', self.mem, LOGBUF + idx)[0]

    def log_next(self, idx):
        n = self.u16(idx + 8)
        return self.u16(8) if n == 0 else idx + n

    def has_space(self, need, empty):
        if self.next > self.first or empty:
            free = max(self.size - self.next, self.first)
        else:
            free = self.first - self.next
        return free >= need + HDR

    def store(self, ts, text):
        size = (HDR + len(text) + 7) & ~7
        while (self.first_seq < self.next_seq and
               not self.has_space(size, False)):
            self.first = self.log_next(self.first)
            self.first_seq += 1
        if self.clear_seq < self.first_seq:
            self.clear_seq, self.clear = self.first_seq, self.first
        if self.next + size + HDR > self.size:
            self.mem[LOGBUF + self.next:LOGBUF + self.next + HDR] = bytes(HDR)
            self.next = 0
        at = LOGBUF + self.next
        struct.pack_into('<QHHHBB', self.mem, at, ts, size, len(text), 0, 0, 6)
        self.mem[at + HDR:at + HDR + len(text)] = text
        self.next += size
        self.next_seq += 1

    def mark_clear(self):
        self.clear, self.clear_seq = self.next, self.next_seq


def build_records(kind, mem):
    size = 512 if kind == 'records-wrap' else 8192
    r = Records(mem, size)
    rounds = 4 if kind == 'records-wrap' else 1
    for i in range(rounds):
        for j, (ts, text) in enumerate(MESSAGES):
            if i == rounds - 1 and j == 2:
                r.mark_clear()          # "dmesg --clear" before the third
            r.store(ts + i, text)
    first = r.first
    if kind == 'records-loop':          # record 1's length is 0: a wrap
        # marker that sends the walk back to record 0, round and round
        struct.pack_into('<H', mem, LOGBUF + r.log_next(0) + 8, 0)
    if kind == 'records-overrun':
        struct.pack_into('<H', mem, LOGBUF + r.log_next(0) + 10, 0xfff0)
    if kind == 'records-badidx':
        first = 0x7ffff0
    struct.pack_into('<Q', mem, SYM['log_buf'], KTEXT + LOGBUF)
    for name, v in (('log_buf_len', size), ('log_first_idx', first),
                    ('log_next_idx', r.next), ('clear_idx', r.clear)):
        struct.pack_into('<I', mem, SYM[name], v)
    prefix = 'log' if kind == 'records-log' else 'printk_log'
    keys = ['SIZE(%s)=16' % prefix, 'OFFSET(%s.ts_nsec)=0' % prefix,
            'OFFSET(%s.len)=8' % prefix, 'OFFSET(%s.text_len)=10' % prefix,
            'OFFSET(%s.dict_len)=12' % prefix]
    syms = [(k, SYM[k]) for k in ('log_buf', 'log_buf_len', 'log_first_idx',
                                  'clear_idx', 'log_next_idx')]
    release = '3.10.0' if kind == 'records-log' else '4.19.0'
    return release, {'syms': syms, 'keys': keys}


def build_plain(kind, mem):
    size = 1024
    text = b''.join(b'<6>[%5d.%06d] %s\n' % (ts // 10**9, ts // 1000 % 10**6,
                                             t.replace(b'\0', b'.'))
                    for ts, t in MESSAGES)
    if kind == 'plain-wrap':
        text = text * 3
    for i, c in enumerate(text):
        mem[LOGBUF + (i & (size - 1))] = c
    old = kind == 'plain-2.6.24'
    struct.pack_into('<Q', mem, SYM['log_buf'], KTEXT + LOGBUF)
    struct.pack_into('<I', mem, SYM['log_buf_len'], size)
    struct.pack_into('<Q' if old else '<I', mem, SYM['log_end'], len(text))
    syms = [(k, SYM[k]) for k in ('log_buf', 'log_buf_len', 'log_end')]
    syms[0:0] = [('init_level4_pgt', 0)]
    return '2.6.24' if old else '3.0.0', {'syms': syms}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kind, out = sys.argv[1:]
    mem = bytearray(MEM)
    if kind.startswith('records'):
        release, extra = build_records(kind, mem)
    elif kind.startswith('plain'):
        release, extra = build_plain(kind, mem)
    else:
        sys.exit('unknown kind %r' % kind)
    struct.pack_into('<Q', mem, PGD + 511 * 8, PUD | 0x63)
    struct.pack_into('<Q', mem, PUD + 510 * 8, PMD | 0x63)
    struct.pack_into('<Q', mem, PMD, 0xe3)
    # FLATMEM: makedumpfile wants a memory model; nothing reads the array
    struct.pack_into('<Q', mem, VARS + 0x200, KTEXT + 0x80000)
    uts = VARS + 0x100          # struct new_utsname: sysname, nodename, release
    for i, field in enumerate((b'Linux', b'synthetic', release.encode())):
        mem[uts + 65 * i:uts + 65 * i + len(field)] = field
    write_elf(out, bytes(mem), vmcoreinfo(release, extra))


if __name__ == '__main__':
    main()
