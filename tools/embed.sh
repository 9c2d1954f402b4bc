#!/bin/sh
# Turns standard input into a C string constant named $1 (one literal per
# line), so the host backend carries its emulation header inside the library.
name=$1
echo "/* generated from src/mt_host.h by tools/embed.sh; do not edit */"
echo "static const char $name[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/'
echo "    ;"
