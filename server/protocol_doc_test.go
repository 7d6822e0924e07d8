package server

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// The documentation lists the commands and agent/* methods the server
// registers: these tests compare the lists with the code, so that neither
// can drift.

var (
	commandRe = regexp.MustCompile("`(agentls\\.[A-Za-z]+)`")
	quotedRe  = regexp.MustCompile(`"(agentls\.[A-Za-z]+)"`)
	methodRe  = regexp.MustCompile("`(agent/[A-Za-z]+)")
)

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// docPart is the text of doc from the first line starting with start up to
// (not including) the next line starting with one of the ends.
func docPart(t *testing.T, doc, start string, ends ...string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+start)
	if i < 0 {
		t.Fatalf("the document has no line starting with %q", start)
	}
	part := doc[i+1:]
	end := len(part)
	for _, e := range ends {
		if j := strings.Index(part[1:], "\n"+e); j >= 0 && j+2 < end {
			end = j + 2
		}
	}
	return part[:end]
}

// matches lists, sorted and without repeats, the first group of every match
// of re in text.
func matches(re *regexp.Regexp, text string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func methodNames() []string {
	var names []string
	for n := range agentHandlers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func checkList(t *testing.T, where string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s lists %v;\nthe server registers %v", where, got, want)
	}
}

// TestDocumentedCommands: docs/protocol.md (the initialize result and §5)
// and the README list exactly the workspace/executeCommand commands the
// server registers.
func TestDocumentedCommands(t *testing.T) {
	t.Parallel()
	want := commandNames()
	protocol := readDoc(t, "../docs/protocol.md")
	init := docPart(t, protocol, `     "executeCommandProvider"`, `     "codeLensProvider"`)
	var inOrder []string // in the order the server sends them
	for _, m := range quotedRe.FindAllStringSubmatch(init, -1) {
		inOrder = append(inOrder, m[1])
	}
	checkList(t, "docs/protocol.md's initialize result, in order,", inOrder, want)
	checkList(t, "docs/protocol.md §5", matches(commandRe, docPart(t, protocol, "## 5. Commands", "## ", "### ")), want)
	readme := readDoc(t, "../README.md")
	checkList(t, "README.md", matches(commandRe, docPart(t, readme, "Any editor can drive it with", "\n")), want)
}

// TestDocumentedMethods: the agent/* method table of docs/protocol.md §2 and
// docs/protocol.md §2 lists exactly the agent/* methods the server
// registers, and the README's brief names no method the table lacks (its
// whole list is §7, generated).
func TestDocumentedMethods(t *testing.T) {
	t.Parallel()
	want := methodNames()
	var rows []string
	for _, l := range strings.Split(docPart(t, readDoc(t, "../docs/protocol.md"), "## 2. ", "## "), "\n") {
		if strings.HasPrefix(l, "| `agent/") {
			rows = append(rows, strings.SplitN(l, "|", 3)[1])
		}
	}
	checkList(t, "docs/protocol.md §2's method table", matches(methodRe, strings.Join(rows, "\n")), want)
	brief := matches(methodRe, docPart(t, readDoc(t, "../README.md"), "## The protocol in brief", "## "))
	if len(brief) == 0 {
		t.Fatal("README.md's protocol in brief names no agent/* method")
	}
	for _, name := range brief {
		if _, ok := agentproto.Lookup(name); !ok {
			t.Errorf("README.md's protocol in brief names %s, which the method table does not have", name)
		}
	}
}
