#!/usr/bin/env bash
# Installs the build into a fresh prefix and checks that the installed tree
# works on its own: a program built with pkg-config (shared and static
# libclassad) and the installed classad_eval.
# Usage: install_test.sh BUILD_DIR CC [FLAGS...]
# FLAGS are what programs linked with this build's library need (the
# sanitizers, in a sanitized build).
set -euo pipefail
build=$1
cc=$2
shift 2
flags=("$@")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix=$dir/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

for f in bin/classad_eval include/classad.h include/ks_err.h \
	 lib/libclassad.a lib/pkgconfig/classad.pc; do
	[ -e "$prefix/$f" ] || { echo "missing $f" >&2; exit 1; }
done
ls "$prefix"/lib/libclassad.so* >/dev/null

cat >"$dir/t.c" <<'C'
#include <classad.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	const char *t = "[a = 6; b = a * 7]";
	classad *ad = classad_parse(t, strlen(t), CLASSAD_FMT_NEW, NULL, NULL);
	int64_t b = 0;
	int ok = ad && classad_eval_int(ad, "b", NULL, &b);
	classad_free(ad);
	printf("%lld\n", (long long)b);
	return !ok;
}
C
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
"$cc" "${flags[@]}" -std=c11 -Wall -Werror "$dir/t.c" -o "$dir/shared" \
	$(pkg-config --cflags --libs classad) -Wl,-rpath,"$prefix/lib"
[ "$("$dir/shared")" = 42 ]
"$cc" "${flags[@]}" -std=c11 -Wall -Werror "$dir/t.c" -o "$dir/static" \
	$(pkg-config --cflags classad) "$prefix/lib/libclassad.a" \
	$(pkg-config --static --libs classad | sed 's/-lclassad//')
[ "$("$dir/static")" = 42 ]
# The installed command finds the installed library by itself.
[ "$("$prefix/bin/classad_eval" -quiet '6 * 7')" = 42 ]
echo "installed tree works"
