package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// notConfigMarker, on a line of a fenced ```yaml block, marks YAML that is
// not agentls configuration (a plan's front matter, a CI file): the docs
// test skips it.
const notConfigMarker = "# not agentls config"

// yamlFenceRE finds fenced yaml blocks: the fence's indentation, its
// backticks and the block's text.
var yamlFenceRE = regexp.MustCompile("(?ms)^([ \t]*)(```+)[ \t]*ya?ml[ \t]*\n(.*?)^[ \t]*```+[ \t]*$")

// yamlExample is one fenced yaml block of a document.
type yamlExample struct {
	file string
	line int // the fence's line, 1-based
	text string
}

// yamlExamples extracts the fenced yaml blocks of a Markdown text.
func yamlExamples(file, md string) []yamlExample {
	var out []yamlExample
	for _, m := range yamlFenceRE.FindAllStringSubmatchIndex(md, -1) {
		indent := md[m[2]:m[3]]
		var lines []string
		for _, l := range strings.Split(md[m[6]:m[7]], "\n") {
			lines = append(lines, strings.TrimPrefix(l, indent))
		}
		out = append(out, yamlExample{file: file, line: strings.Count(md[:m[0]], "\n") + 1, text: strings.Join(lines, "\n")})
	}
	return out
}

// TestDocumentedExamplesMatchTheSchema: every fenced yaml block of
// README.md and docs/*.md is agentls configuration that loads without an
// error (or carries notConfigMarker), so the docs and the schema agree.
func TestDocumentedExamplesMatchTheSchema(t *testing.T) {
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"../README.md"}, files...)
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range yamlExamples(f, string(b)) {
			if strings.Contains(ex.text, notConfigMarker) {
				continue
			}
			checked++
			_, diags := ParseLayer(ex.file, []byte(ex.text))
			for _, d := range diags {
				if d.Severity == SeverityError {
					t.Errorf("%s: the yaml example at line %d does not load: line %d of the block: %s (mark YAML that is not agentls config with %q)",
						ex.file, ex.line, d.Line, d.Message, notConfigMarker)
				}
			}
		}
	}
	if checked < 2 {
		t.Fatalf("%d yaml examples checked: the extraction finds nothing", checked)
	}
}

func TestYAMLExamplesExtraction(t *testing.T) {
	md := "text\n```yaml\na: 1\n```\n\n  ```yml\n  b: 2\n  c: [3]\n  ```\n```json\n{}\n```\n````yaml\nd: 4\n````\n"
	got := yamlExamples("x.md", md)
	want := []yamlExample{{"x.md", 2, "a: 1\n"}, {"x.md", 6, "b: 2\nc: [3]\n"}, {"x.md", 13, "d: 4\n"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("example %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
