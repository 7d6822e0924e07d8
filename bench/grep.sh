#!/usr/bin/env bash
# Compares workspace.Grep (through bench/grepbench) with ripgrep on a folder
# (default: $(go env GOROOT)/src): same patterns, same files, and the match
# counts of both printed side by side to show they did the same work.
#
#   bench/grep.sh [DIR]
#
# ripgrep is told to behave like Grep: search hidden files, honour .gitignore
# files even outside a git repository, but not .ignore/.rgignore files, the
# global gitignore or .gitignore files above DIR, and skip .git and .agentls.
# Both skip binary files and do not follow symlinks. Timing uses hyperfine
# when present (output piped, so neither tool can detect /dev/null), else a
# loop of runs timed with date (also with NO_HYPERFINE=1). RUNS sets the run count.
set -euo pipefail

cd "$(dirname "$0")/.."
dir=${1:-$(go env GOROOT)/src}
runs=${RUNS:-20}

command -v rg >/dev/null || { echo "ripgrep (rg) is not installed: apt-get install -y ripgrep" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/grepbench" ./bench/grepbench

rgflags=(--hidden --no-require-git --no-ignore-dot --no-ignore-global --no-ignore-parent -g '!.git/' -g '!.agentls/')

# name<TAB>pattern
patterns=$(printf '%s\t%s\n' \
	literal 'WaitGroup' \
	regex 'func \w+\(ctx context' \
	regex-many-matches 'err\s*!=\s*nil' \
	regex-weak-literal '[A-Z]{6,}_[0-9]+' \
	literal-ignore-case '-i context.context')

echo "folder: $dir ($(nproc) CPUs, GOMAXPROCS=${GOMAXPROCS:-default}, $(rg --version | head -1))"
while IFS=$'\t' read -r name pat; do
	iflag=()
	if [[ $pat == "-i "* ]]; then
		pat=${pat#-i }
		iflag=(-i)
	fi
	ours=$("$tmp/grepbench" -dir "$dir" "${iflag[@]}" -pattern "$pat")
	theirs=$(rg -c "${iflag[@]}" "${rgflags[@]}" -e "$pat" "$dir" | awk -F: '{s += $NF} END {printf "lines=%d files=%d", s, NR}')
	echo
	echo "== $name: /$pat/ ${iflag[*]}"
	echo "   agentls: $ours"
	echo "   ripgrep: $theirs"
	if [[ -z ${NO_HYPERFINE:-} ]] && command -v hyperfine >/dev/null; then
		hyperfine -N --warmup 3 --runs "$runs" --output=pipe --style=basic --export-json "$tmp/h.json" \
			-n agentls "'$tmp/grepbench' -dir '$dir' ${iflag[*]} -pattern '$pat'" \
			-n ripgrep "rg -n ${iflag[*]} ${rgflags[*]} -e '$pat' '$dir'" 2>&1 |
			grep -E 'Benchmark|Time|Range' | sed 's/^/   /'
		# Medians resist the noise of a busy machine better than means.
		grep -o '"median": *[0-9.e-]*' "$tmp/h.json" | awk -F': *' '
			{ m[NR] = $2 }
			END { printf "   median: agentls %.1f ms, ripgrep %.1f ms, agentls/ripgrep = %.2fx\n", m[1]*1000, m[2]*1000, m[1]/m[2] }'
	else
		for tool in agentls ripgrep; do
			total=0
			for _ in $(seq "$runs"); do
				t0=$(date +%s%N)
				if [[ $tool == agentls ]]; then
					"$tmp/grepbench" -dir "$dir" "${iflag[@]}" -pattern "$pat" | cat >/dev/null
				else
					rg -n "${iflag[@]}" "${rgflags[@]}" -e "$pat" "$dir" | cat >/dev/null
				fi
				total=$((total + $(date +%s%N) - t0))
			done
			echo "   $tool: mean $((total / runs / 1000000)) ms over $runs runs"
		done
	fi
done <<<"$patterns"
