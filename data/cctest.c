/*
 * cctest.c - the source that unixbench's C compiler test compiles and
 * links over and over.  Written for unixbench; it stands in for the file
 * of the original suite, with the same size and the same flavour: a small
 * file-system exerciser that uses nothing but the standard I/O library.
 *
 * It is compiled, never run.  Should someone run it anyway, main returns
 * at once unless it is given the word "run" as its first argument.
 */
#include <stdio.h>

#define KBYTES 20
#define BLOCK 512

static char block[BLOCK];

struct tally {
	long written;
	long read;
	long copied;
	int errors;
};

/* Fills the buffer with a pattern that depends on the block number. */
static void fill(char *buf, int size, int seed)
{
	int i;

	for (i = 0; i < size; i++)
		buf[i] = (char) ('a' + (seed + i) % 26);
}

/* Returns how many bytes of the buffer differ from the pattern. */
static int check(const char *buf, int size, int seed)
{
	int i, bad = 0;

	for (i = 0; i < size; i++)
		if (buf[i] != (char) ('a' + (seed + i) % 26))
			bad++;
	return bad;
}

/* Writes nblocks blocks to the named file; returns the bytes written. */
static long write_file(const char *name, int nblocks, struct tally *t)
{
	FILE *f;
	long done = 0;
	int i;

	if ((f = fopen(name, "wb")) == NULL) {
		t->errors++;
		return 0;
	}
	for (i = 0; i < nblocks; i++) {
		fill(block, BLOCK, i);
		if (fwrite(block, 1, BLOCK, f) != BLOCK) {
			t->errors++;
			break;
		}
		done += BLOCK;
	}
	if (fclose(f) != 0)
		t->errors++;
	t->written += done;
	return done;
}

/* Reads the named file back and checks every block. */
static long read_file(const char *name, struct tally *t)
{
	FILE *f;
	long done = 0;
	size_t n;
	int i = 0;

	if ((f = fopen(name, "rb")) == NULL) {
		t->errors++;
		return 0;
	}
	while ((n = fread(block, 1, BLOCK, f)) > 0) {
		t->errors += check(block, (int) n, i++);
		done += (long) n;
	}
	fclose(f);
	t->read += done;
	return done;
}

/* Copies one file to another a block at a time. */
static long copy_file(const char *from, const char *to, struct tally *t)
{
	FILE *in, *out;
	long done = 0;
	size_t n;

	if ((in = fopen(from, "rb")) == NULL) {
		t->errors++;
		return 0;
	}
	if ((out = fopen(to, "wb")) == NULL) {
		fclose(in);
		t->errors++;
		return 0;
	}
	while ((n = fread(block, 1, BLOCK, in)) > 0) {
		if (fwrite(block, 1, n, out) != n) {
			t->errors++;
			break;
		}
		done += (long) n;
	}
	fclose(in);
	if (fclose(out) != 0)
		t->errors++;
	t->copied += done;
	return done;
}

/* Reads a number of kilobytes from a string, as atoi would. */
static int kbytes(const char *s)
{
	int n = 0;

	while (*s >= '0' && *s <= '9')
		n = n * 10 + (*s++ - '0');
	return n > 0 ? n : KBYTES;
}

/* Prints one line per kind of transfer, in kilobytes, and the errors. */
static void report(const struct tally *t)
{
	static const char *what[3] = { "written", "read", "copied" };
	long n[3];
	int i;

	n[0] = t->written;
	n[1] = t->read;
	n[2] = t->copied;
	for (i = 0; i < 3; i++)
		printf("%-8s %6ld KB\n", what[i], n[i] / 1024);
	printf("errors   %6d\n", t->errors);
}

int main(int argc, char **argv)
{
	struct tally t = { 0, 0, 0, 0 };
	int nblocks;

	if (argc < 2 || argv[1][0] != 'r' || argv[1][1] != 'u' || argv[1][2] != 'n')
		return 0;
	nblocks = kbytes(argc > 2 ? argv[2] : "") * 1024 / BLOCK;
	write_file("cctest.0", nblocks, &t);
	read_file("cctest.0", &t);
	copy_file("cctest.0", "cctest.1", &t);
	read_file("cctest.1", &t);
	remove("cctest.0");
	remove("cctest.1");
	report(&t);
	return t.errors != 0;
}
