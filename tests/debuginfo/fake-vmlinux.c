/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake-vmlinux.c - a small "vmlinux" with DWARF for tests/suites/
 * debuginfo.sh: built with gcc -g, it has what -g and -x read (a
 * utsname, struct page, the zones, printk's records, enumerators, array
 * variables), so that vmsift -g can be compared with makedumpfile -g
 * without the 860 MB -dbg package, and so that a vmlinux of another
 * kernel (build id, release) can be made in a second.
 *   REL      the release string (default "6.1.0-57-amd64")
 *   OLD      an old kernel's names: page._count, PG_compound, printk_log
 */
#ifndef REL
#define REL "6.1.0-57-amd64"
#endif

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65];
	char machine[65], domainname[65];
};
struct uts_namespace { int kref; struct new_utsname name; int ns; };
struct uts_namespace init_uts_ns = {
	1, { "Linux", "(none)", REL, "#1 SMP", "x86_64", "(none)" }, 0
};

struct list_head { struct list_head *next, *prev; };
typedef struct { unsigned long pud; } pud_t;
pud_t a_pud;
typedef struct { unsigned long bits[16]; } nodemask_t;
nodemask_t node_states[6];

struct page {
	unsigned long flags;
	union {
		struct {
			struct list_head lru;
			void *mapping;
		};
		struct {
			unsigned long compound_head;
			unsigned char compound_dtor, compound_order;
		};
	};
	unsigned long private;
	int _mapcount;
#ifdef OLD
	int _count;
#else
	int _refcount;
#endif
};

struct free_area { struct list_head free_list[5]; unsigned long nr_free; };
struct zone {
	unsigned long spanned_pages;
	struct free_area free_area[11];
	long vm_stat[12];
};
typedef struct pglist_data {
	struct zone node_zones[4];
	int nr_zones;
	struct page *node_mem_map;
	unsigned long node_start_pfn, node_spanned_pages;
} pg_data_t;
struct pglist_data *node_data[64];

struct mem_section { unsigned long section_mem_map; unsigned long *usage; };
struct mem_section **mem_section;

#ifdef OLD
struct printk_log {
	unsigned long long ts_nsec;
	unsigned short len, text_len;
};
struct printk_log *log_buf_rec;
char *log_buf;
unsigned log_buf_len, log_first_idx, log_next_idx;
#else
struct prb_desc { long state_var; struct { unsigned long begin, next; } lpos; };
struct printk_info { unsigned long long seq, ts_nsec; unsigned short text_len;
	unsigned char facility, flags; unsigned caller_id; };
struct printk_ringbuffer { long desc_ring[6]; long text_data_ring[4]; };
struct printk_ringbuffer *prb;
#endif

enum pageflags {
	PG_locked, PG_referenced, PG_uptodate, PG_dirty, PG_lru, PG_slab = 9,
	PG_swapcache = 10, PG_private = 13,
#ifdef OLD
	PG_compound = 14,
#else
	PG_head = 16,
#endif
	PG_swapbacked = 19, PG_hwpoison = 23,
};
enum pageflags pf;
enum zone_stat_item { NR_FREE_PAGES, NR_ZONE_LRU_BASE } zsi;
enum node_states_e { N_POSSIBLE, N_ONLINE } nse;
unsigned long max_pfn;
void *high_memory;

void _stext(void);
void _stext(void)
{
}
