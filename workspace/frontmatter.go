package workspace

import (
	"strings"
)

// textLine is one line of a text with its byte span.
type textLine struct {
	start, end int // content [start, end), without the line break
	next       int // start of the following line (len(text) at the end)
}

// splitLines splits text at "\n" ("\r\n" lines keep no "\r" in their content).
// A text ending with "\n" has no empty last line.
func splitLines(text string) []textLine {
	var out []textLine
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		next := len(text)
		if end < 0 {
			end = len(text)
		} else {
			end += start
			next = end + 1
		}
		content := end
		if content > start && text[content-1] == '\r' {
			content--
		}
		out = append(out, textLine{start: start, end: content, next: next})
		start = next
	}
	return out
}

// frontmatter locates a YAML frontmatter: a first line "---" and a closing
// line "---" (or "...").
type frontmatter struct {
	found     bool
	closed    bool
	yaml      string // the text between the fences
	yamlStart int    // byte offset of yaml in the text
	close     int    // index of the closing line
	body      int    // byte offset where the body starts
}

const bom = "\ufeff"

// findFrontmatter looks for a frontmatter at the start of text (after an
// optional byte order mark). It reads only as far as the closing line.
func findFrontmatter(text string) frontmatter {
	first, next := lineAt(text, 0)
	if strings.TrimRight(strings.TrimPrefix(first, bom), " \t") != "---" {
		return frontmatter{}
	}
	yamlStart := next
	for i := 1; next >= 0; i++ {
		start := next
		var l string
		l, next = lineAt(text, start)
		if t := strings.TrimRight(l, " \t"); t == "---" || t == "..." {
			body := len(text)
			if next >= 0 {
				body = next
			}
			return frontmatter{found: true, closed: true, yaml: text[yamlStart:start], yamlStart: yamlStart, close: i, body: body}
		}
	}
	return frontmatter{found: true}
}

// SplitFrontmatter finds a complete YAML frontmatter at the start of text
// (as findFrontmatter): the YAML between its fences and the byte offset
// where the body starts; ok is false when text has none, or no closing
// fence.
func SplitFrontmatter(text string) (yaml string, body int, ok bool) {
	fm := findFrontmatter(text)
	if !fm.found || !fm.closed {
		return "", 0, false
	}
	return fm.yaml, fm.body, true
}

// lineAt returns the line starting at start (without "\n" or a trailing
// "\r") and the start of the next one (-1 when none follows).
func lineAt(text string, start int) (string, int) {
	end := strings.IndexByte(text[start:], '\n')
	if end < 0 {
		return strings.TrimSuffix(text[start:], "\r"), -1
	}
	return strings.TrimSuffix(text[start:start+end], "\r"), start + end + 1
}

// lineBreakOf returns the line break text uses ("\r\n" if its first line
// break is one, else "\n").
func lineBreakOf(text string) string {
	if usesCRLF(text) {
		return "\r\n"
	}
	return "\n"
}
