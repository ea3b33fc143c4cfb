/*
 * bcryptprimitives.dll for Wine 8 (Debian bookworm's), which lacks it: the
 * Go runtime (1.24 on) takes its random numbers from ProcessPrng there and
 * refuses to start without it ("bcryptprimitives.dll not found"). This one
 * answers from RtlGenRandom, which Wine has. Built with mingw-w64 into the
 * test Wine prefix's system32 by testenv.Wine; never shipped.
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
