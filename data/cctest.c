/*
 * cctest.c - the source that unixbench's C compiler test compiles and
 * links over and over, to measure how fast the host's C compiler and
 * linker turn a small program into an executable.  Written for unixbench;
 * it stands in for the file of the original suite, with about its size and
 * its flavour: a little file-system exerciser that writes a file, reads it
 * back and checks it, using nothing but the standard I/O library.  It has
 * about as much code as the original (the rest is comment), so that one
 * compile and link costs about what the original's does.
 *
 * The file is meant to be compiled, never run.  Should someone run the
 * program anyway, main returns at once unless it is given the word "run"
 * as its first argument; it then writes a 20 KB file called cctest.0 in
 * the current directory, reads it back, removes it and prints a summary.
 *
 * The test runs "cc cctest.c" over and over for a minute and counts the
 * runs; each leaves its a.out in the test's private working directory,
 * which is removed, with everything in it, at the end of the run.
 *
 * It must compile without a single warning under any C compiler of the
 * last thirty years in its default mode and with -Wall: the C test of the
 * original suite fails on current compilers because its K&R source draws
 * warnings (which abort a run) or, with newer compilers, errors.
 */
#include <stdio.h>

#define KBYTES 20
#define BLOCK 512

static char block[BLOCK];

/*
 * Fills the buffer with a pattern of lower-case letters that depends on
 * the block number, so that a block read back from the wrong place, or a
 * block of zeros from a hole in the file, does not pass the check below.
 */
static void fill(char *buf, int size, int seed)
{
	int i;

	for (i = 0; i < size; i++)
		buf[i] = (char) ('a' + (seed + i) % 26);
}

/*
 * Returns how many bytes of the buffer differ from the pattern that fill
 * put there for the same block number: 0 for a good block.
 */
static int check(const char *buf, int size, int seed)
{
	int i, bad = 0;

	for (i = 0; i < size; i++)
		if (buf[i] != (char) ('a' + (seed + i) % 26))
			bad++;
	return bad;
}

/*
 * Writes nblocks blocks to the named file, creating or truncating it, and
 * returns the bytes written, or -1 when the file cannot be made or closed.
 */
static long write_file(const char *name, int nblocks)
{
	FILE *f;
	long done = 0;
	int i;

	if ((f = fopen(name, "wb")) == NULL)
		return -1;
	for (i = 0; i < nblocks; i++) {
		fill(block, BLOCK, i);
		if (fwrite(block, 1, BLOCK, f) != BLOCK)
			break;
		done += BLOCK;
	}
	if (fclose(f) != 0)
		return -1;
	return done;
}

/*
 * Reads the named file back a block at a time and checks every block;
 * returns the bytes read, or -1 when the file is missing or a block is bad.
 */
static long read_file(const char *name)
{
	FILE *f;
	long done = 0;
	size_t n;
	int i = 0, bad = 0;

	if ((f = fopen(name, "rb")) == NULL)
		return -1;
	while ((n = fread(block, 1, BLOCK, f)) > 0) {
		bad += check(block, (int) n, i++);
		done += (long) n;
	}
	fclose(f);
	return bad ? -1 : done;
}

/* Does the work only when asked to with "run" (see the top of the file). */
int main(int argc, char **argv)
{
	long written, read;

	if (argc < 2 || argv[1][0] != 'r' || argv[1][1] != 'u' || argv[1][2] != 'n')
		return 0;
	written = write_file("cctest.0", KBYTES * 1024 / BLOCK);
	read = read_file("cctest.0");
	remove("cctest.0");
	printf("wrote %ld bytes, read back %ld\n", written, read);
	return written < 0 || read != written;
}
