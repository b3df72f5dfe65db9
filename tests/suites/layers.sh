# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/layers.sh - the library's layering (tests/tools/layers.py):
# no circle in lib/'s include graph or in its module graph (a.c -> b.c
# when a.c names what b.c defines through a header), and every lib/ file
# opens with a comment.  Sourced by tests/run.
# prebuild: none

run_test "layers: lib/ has no include or module circle, every file opens with a comment" \
	$PY "$top/tests/tools/layers.py" "$top/lib"
