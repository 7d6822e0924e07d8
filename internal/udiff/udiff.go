// Package udiff renders line diffs in the unified format (`--- a/…`,
// `+++ b/…`, `@@` hunks) and counts added and removed lines, for the
// review of edits (docs/review.md) and the demo.
package udiff

import (
	"fmt"
	"strings"
)

// Unified renders the line diff of one file, with three lines of context,
// in the unified format (`--- a/…`, `+++ b/…`, `@@` hunks).
func Unified(name, before, after string) string {
	a, b := splitLines(before), splitLines(after)
	ops := diffLines(a, b)
	var out strings.Builder
	from, to := "a/"+name, "b/"+name
	if before == "" {
		from = "/dev/null"
	}
	if after == "" {
		to = "/dev/null"
	}
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	const context = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*context || run == len(ops) {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		hunk := ops[start:end]
		aStart, bStart, aLen, bLen := hunk[0].aLine, hunk[0].bLine, 0, 0
		for _, op := range hunk {
			if op.kind != '+' {
				aLen++
			}
			if op.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart+1, aLen, bStart+1, bLen)
		for _, op := range hunk {
			fmt.Fprintf(&out, "%c%s\n", op.kind, op.text)
		}
		i = end
	}
	return out.String()
}

type lineOp struct {
	kind         byte // ' ', '-', '+'
	text         string
	aLine, bLine int // 0-based positions before this op
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Stat counts the lines after adds and before removes ("+17 −2").
func Stat(before, after string) (added, removed int) {
	for _, op := range diffLines(splitLines(before), splitLines(after)) {
		switch op.kind {
		case '+':
			added++
		case '-':
			removed++
		}
	}
	return added, removed
}

// maxCells bounds the longest-common-subsequence table: past it, the middle
// that differs is shown as removed and added whole.
const maxCells = 4 << 20

// CommonEnds counts the lines a and b share at their start (head) and, of
// the rest, at their end (tail).
func CommonEnds(a, b []string) (head, tail int) {
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	return head, tail
}

// diffLines is a line diff: the common head and tail, then a
// longest-common-subsequence diff of the middle when it is small enough,
// else the middle removed and added whole.
func diffLines(a, b []string) []lineOp {
	head, tail := CommonEnds(a, b)
	var ops []lineOp
	for i := 0; i < head; i++ {
		ops = append(ops, lineOp{' ', a[i], i, i})
	}
	am, bm := a[head:len(a)-tail], b[head:len(b)-tail]
	var mid []lineOp
	if (len(am)+1)*(len(bm)+1) > maxCells {
		for i, l := range am {
			mid = append(mid, lineOp{'-', l, i, 0})
		}
		for j, l := range bm {
			mid = append(mid, lineOp{'+', l, len(am), j})
		}
	} else {
		mid = lcsLines(am, bm)
	}
	for _, op := range mid {
		op.aLine += head
		op.bLine += head
		ops = append(ops, op)
	}
	for k := 0; k < tail; k++ {
		i, j := len(a)-tail+k, len(b)-tail+k
		ops = append(ops, lineOp{' ', a[i], i, j})
	}
	return ops
}

// lcsLines is a longest-common-subsequence line diff.
func lcsLines(a, b []string) []lineOp {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []lineOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, lineOp{' ', a[i], i, j})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, lineOp{'-', a[i], i, j}) // removals first, as diff(1)
			i++
		default:
			ops = append(ops, lineOp{'+', b[j], i, j})
			j++
		}
	}
	return ops
}
