/* glibc's _dl_find_object (2.35) for the unit tests of the DWARF-unwinding targets (riscv64,
   s390x, mips) linked against musl. Debian's cross gcc built its libgcc_eh against a glibc
   that has it, and its unwinder asks it for the unwind table of the code at an address; musl
   has no such function, so the tests' unwinder (arches.mk links libgcc_eh as their libunwind)
   gets this one, which answers from dl_iterate_phdr, as libgcc's older path does. Only the test
   builds link it: the release binaries carry no unwinder. No header: musl's and glibc's agree
   on every layout used here (ELF64 and LP64, ELF32 and ILP32). */
typedef unsigned long uptr;

/* The ELF program header: ELF64's on the 64-bit targets, ELF32's (another order) on mips. */
#if __SIZEOF_POINTER__ == 8
struct phdr {
	unsigned int p_type, p_flags;
	uptr p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};
#else
struct phdr {
	uptr p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align;
};
#endif

struct dl_phdr_info {
	uptr dlpi_addr;
	const char *dlpi_name;
	const struct phdr *dlpi_phdr;
	unsigned short dlpi_phnum;
};

/* glibc's layout on riscv64, s390x and mips (none has dlfo_eh_dbase nor dlfo_eh_count). */
struct dl_find_object {
	unsigned long long dlfo_flags;
	void *dlfo_map_start;
	void *dlfo_map_end;
	void *dlfo_link_map;
	void *dlfo_eh_frame;
	unsigned long long dlfo_reserved[7];
};

int dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, unsigned long, void *), void *data);

struct query {
	uptr pc;
	struct dl_find_object *out;
};

enum { PT_LOAD = 1, PT_GNU_EH_FRAME = 0x6474e550 };

static int find(struct dl_phdr_info *info, unsigned long size, void *data)
{
	struct query *q = data;
	uptr lo = (uptr)-1, hi = 0, eh = 0;
	int hit = 0;
	(void)size;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const struct phdr *p = &info->dlpi_phdr[i];
		uptr start = info->dlpi_addr + p->p_vaddr, end = start + p->p_memsz;
		if (p->p_type == PT_LOAD) {
			if (start < lo) lo = start;
			if (end > hi) hi = end;
			if (q->pc >= start && q->pc < end) hit = 1;
		} else if (p->p_type == PT_GNU_EH_FRAME) {
			eh = start;
		}
	}
	if (!hit || !eh) return 0;
	q->out->dlfo_flags = 0;
	q->out->dlfo_map_start = (void *)lo;
	q->out->dlfo_map_end = (void *)hi;
	q->out->dlfo_link_map = 0;
	q->out->dlfo_eh_frame = (void *)eh;
	return 1;
}

int _dl_find_object(void *pc, struct dl_find_object *result)
{
	struct query q = { (uptr)pc, result };
	return dl_iterate_phdr(find, &q) ? 0 : -1;
}
