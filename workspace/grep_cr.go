package workspace

import "bytes"

// Grep numbers lines as Read does: a line ends at "\n", "\r\n" or a lone
// "\r" (LSP's breaks, nextLine). The fast scan splits at "\n" only, which
// agrees for "\n" and "\r\n" files; a file with a lone "\r" (old Mac, or
// mixed breaks) is searched line by line here instead, so a match's line
// number, text and context are the ones read shows.

// hasLoneCR reports whether data holds a "\r" that no "\n" follows.
func hasLoneCR(data []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\r')
		if j < 0 {
			return false
		}
		i += j + 1
		if i >= len(data) || data[i] != '\n' {
			return true
		}
	}
}

// searchCRLines searches data, which has a lone "\r", one Read line at a
// time, adding its matches (up to limit) to out.
func (g *grepRun) searchCRLines(job grepJob, data []byte, limit int, out *fileResult) {
	text := string(data)
	type span struct{ start, end int }
	var lines []span
	for start := 0; start < len(text); {
		end, next := nextLine(text, start)
		lines = append(lines, span{start, end})
		if next < 0 {
			break
		}
		start = next
	}
	shown := func(from, to int) []string {
		var s []string
		for _, l := range lines[max(from, 0):min(to, len(lines))] {
			s = append(s, lineText(data[l.start:l.end]))
		}
		return s
	}
	for i, l := range lines {
		if !g.m.re.Match(data[l.start:l.end]) {
			continue
		}
		gm := GrepMatch{Path: job.rel, Line: i + 1, Text: lineText(data[l.start:l.end])}
		if n := g.opts.Context; n > 0 {
			gm.Before, gm.After = shown(i-n, i), shown(i+1, i+1+n)
		}
		out.matches = append(out.matches, gm)
		if len(out.matches) >= limit {
			return
		}
	}
}
