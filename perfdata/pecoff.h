/* Names of loaded PE/COFF images (PE32+ as UEFI loads them), read from the
 * image in memory: the debug directory's CodeView entry names the file the
 * image was built from (the PDB, or the ELF/.dll that EDK2's GenFw
 * converted), which is what a profiler should name the mapping after.
 * Portable and bounds-checked against the image size: a loaded image is
 * memory we do not own and may be malformed. Microsoft PE/COFF
 * specification, "The .debug Section" and "Optional Header Data
 * Directories". */
#ifndef BP_PECOFF_H
#define BP_PECOFF_H
#include "../lib/types.h"

#define PE_DOS_MAGIC            0x5A4D		/* "MZ" */
#define PE_DOS_LFANEW           0x3C		/* offset of the PE header's offset */
#define PE_SIGNATURE            0x00004550	/* "PE\0\0" */
#define PE_COFF_HEADER_SIZE     20
#define PE_OPT_MAGIC_PE32       0x10B
#define PE_OPT_MAGIC_PE32PLUS   0x20B
#define PE_DIR_DEBUG            6		/* data directory index */
#define PE_DEBUG_ENTRY_SIZE     28		/* IMAGE_DEBUG_DIRECTORY */
#define PE_DEBUG_TYPE_CODEVIEW  2
#define PE_CV_RSDS              0x53445352	/* "RSDS": PDB 7.0 */
#define PE_CV_NB10              0x3031424E	/* "NB10": PDB 2.0 */
#define PE_CV_RSDS_PATH         24		/* sig, GUID, age, path */
#define PE_CV_NB10_PATH         16		/* sig, offset, time, age, path */

/* Copies the CodeView path of the image loaded at base (size bytes, RVAs
 * are offsets from base) into out as a '/'-separated path, and returns
 * true; false (out untouched) when the image has no readable CodeView
 * entry or the headers are outside the image. */
bool pecoff_debug_name(const void *base, u64 size, char *out, size_t cap);

/* Normalises a path a mapping is named by: '\' becomes '/', and a relative
 * or drive-letter path gets a leading '/' (perf puts --symfs in front). */
void pecoff_path_for_perf(const char *in, char *out, size_t cap);

#endif
