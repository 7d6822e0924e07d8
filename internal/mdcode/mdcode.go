// Package mdcode reads Markdown code spans as CommonMark does, for the
// tests that check how a question's text renders.
package mdcode

import "strings"

// spanAt reads the run of backticks at text[i]: its length n and the index
// of the closing run of exactly n backticks (-1 when it is never closed).
func spanAt(text string, i int) (n, closing int) {
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	rest := text[i+n:]
	for j := 0; j < len(rest); {
		if rest[j] != '`' {
			j++
			continue
		}
		k := j
		for k < len(rest) && rest[k] == '`' {
			k++
		}
		if k-j == n {
			return n, i + n + j
		}
		j = k
	}
	return n, -1
}

// content is a span's text as shown: one space stripped from each end when
// both ends have one and it is not all spaces.
func content(c string) string {
	if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.Trim(c, " ") != "" {
		return c[1 : len(c)-1]
	}
	return c
}

// First reads the code span that starts at the first backtick of text: a
// run of n backticks up to the next run of exactly n. ok is false when
// there is no backtick or the span is never closed.
func First(text string) (span string, ok bool) {
	i := strings.IndexByte(text, '`')
	if i < 0 {
		return "", false
	}
	n, closing := spanAt(text, i)
	if closing < 0 {
		return "", false
	}
	return content(text[i+n : closing]), true
}

// Split reads every code span of text, in order, and the text outside them
// (a run of backticks never closed is literal text there).
func Split(text string) (spans []string, outside string) {
	var out strings.Builder
	for i := 0; i < len(text); {
		if text[i] != '`' {
			out.WriteByte(text[i])
			i++
			continue
		}
		n, closing := spanAt(text, i)
		if closing < 0 {
			out.WriteString(text[i : i+n])
			i += n
			continue
		}
		spans = append(spans, content(text[i+n:closing]))
		i = closing + n
	}
	return spans, out.String()
}

// FirstCode reads the first code of text as CommonMark renders it: when
// the first backtick begins a line of three or more (a fence), the fenced
// block's text, up to a line of at least as many backticks and nothing
// else (ok is false when none closes it; block is true); otherwise First's
// code span.
func FirstCode(text string) (code string, block, ok bool) {
	i := strings.IndexByte(text, '`')
	if i < 0 {
		return "", false, false
	}
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	lineStart := i == 0 || text[i-1] == '\n'
	if !lineStart || n < 3 {
		span, ok := First(text)
		return span, false, ok
	}
	info, rest, found := strings.Cut(text[i+n:], "\n")
	if !found || strings.Contains(info, "`") {
		span, ok := First(text)
		return span, false, ok
	}
	var body []string
	for _, line := range strings.Split(rest, "\n") {
		if closes := strings.TrimRight(line, " "); len(closes) >= n && strings.Trim(closes, "`") == "" {
			return strings.Join(body, "\n"), true, true
		}
		body = append(body, line)
	}
	return "", true, false
}
