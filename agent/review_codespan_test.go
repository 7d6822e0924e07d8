package agent

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/mdcode"
	"github.com/agentls/agentls/questions"
)

// TestEditQuestionNamesFilesInCodeSpans: the edit question (review mode,
// and a file the editor runs by itself) shows every file name as one
// Markdown code span holding the whole name, whatever backticks or markup
// it holds, so `**Approve**.md` never renders bold and a name cannot close
// its span early and show a link. Before, names stood bare in the text.
func TestEditQuestionNamesFilesInCodeSpans(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		files   map[string]string
		call    string
		spans   []string
		outside string
	}{
		{"bold", nil, `{id: c, name: write, args: {path: "**Approve**.md", content: x}}`,
			[]string{"**Approve**.md"}, "create "},
		{"a backtick", nil, "{id: c, name: write, args: {path: \"a`b.md\", content: x}}",
			[]string{"a`b.md"}, "create "},
		{"double backticks and a link", nil, "{id: c, name: write, args: {path: \"``[ok](<https:evil>)``.md\", content: x}}",
			[]string{"``[ok](<https:evil>)``.md"}, "create "},
		{"ends in a backtick", nil, "{id: c, name: write, args: {path: \"x`\", content: x}}",
			[]string{"x`"}, "create "},
		{"html", nil, `{id: c, name: write, args: {path: "<img src=x onerror=alert(1)>.md", content: x}}`,
			[]string{"<img src=x onerror=alert(1)>.md"}, "create "},
		{"a rename of two hostile names", map[string]string{"_a_.md": "x"}, "{id: c, name: mv, args: {from: _a_.md, to: \"`b` [c](d).md\"}}",
			[]string{"_a_.md", "`b` [c](d).md"}, "rename  → "},
		{"an auto-run file named by a folder", nil, "{id: c, name: write, args: {path: \"*x*/.envrc\", content: x}}",
			[]string{"*x*/.envrc"}, "create  — your editor or shell runs what it names by itself, outside agentls's sandbox"},
		{"a deep auto-run link", map[string]string{"**n**.txt": "a"}, "{id: c, name: edit, args: {path: \"**n**.txt\", old_string: a, new_string: b}}",
			[]string{"**n**.txt", "s`/.envrc"}, "edit  — your editor or shell runs what  names by itself, outside agentls's sandbox"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := autoRunCase{files: tc.files, call: tc.call}
			if tc.name == "a deep auto-run link" {
				c.dirs, c.links = []string{"s`"}, map[string]string{"s`/.envrc": "../**n**.txt"}
			}
			_, asked, _ := runAutoRunCase(t, c, ReviewEdits, &AskReply{Answers: map[string]any{"decision": "reject_once"}})
			if len(asked) != 1 {
				t.Fatalf("asked %+v, want one question", asked)
			}
			for field, text := range map[string]string{"What": asked[0].What, "Title": strings.TrimPrefix(asked[0].Title(), "Apply the edit: ")} {
				spans, outside := mdcode.Split(text)
				if outside != tc.outside || len(spans) != len(tc.spans) {
					t.Fatalf("%s %q: spans %q, outside %q; want spans %q, outside %q", field, text, spans, outside, tc.spans, tc.outside)
				}
				for i, want := range tc.spans {
					if spans[i] != questions.EscapeLine(want) {
						t.Errorf("%s %q: span %d = %q, want %q", field, text, i, spans[i], want)
					}
				}
			}
		})
	}
}
