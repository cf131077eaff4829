/*
 * A stand-in for Windows 10's bcryptprimitives.dll, for running the Windows
 * build of retrochess under Wine 8.0 only (scripts/test-dist builds it with
 * x86_64-w64-mingw32-gcc and puts it beside the exe in its Wine test folder;
 * it is never in a release archive: real Windows 10 and 11 have the DLL).
 *
 * Rust's standard library imports one function from it, ProcessPrng, to
 * fill buffers with random bytes (HashMap seeds); Wine 8.0 lacks the DLL,
 * so without this the exe does not start. ProcessPrng is documented to
 * always succeed; here it asks the system's preferred generator through
 * BCryptGenRandom, which Wine has, in pieces that fit its ULONG length.
 */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG piece = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (BCryptGenRandom(NULL, data, piece, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
            return FALSE;
        data += piece;
        len -= piece;
    }
    return TRUE;
}
