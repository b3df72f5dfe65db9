# SPDX-License-Identifier: GPL-2.0-or-later
# tests/suites/erase.sh - --config erase rules (doc/erase.md): the parser
# and the evaluator on a hand-made kernel (tests/unit/erase_test.c, a
# typeinfo double in tests/unit/ti_spec.h), then applied to real dumps.
# Sourced by tests/run.

erase_unit_dir=$top/tests/unit

t_erase_unit() {
	rm -f "$erase_unit_dir/erase_test"
	make -s -C "$erase_unit_dir" erase_test || return 1
	timeout 120 "$erase_unit_dir/erase_test"
}

run_test "erase: config parser and rule evaluator: every construct, line:column errors, cycles, missing names, SYMBOL:TYPE" \
	t_erase_unit
