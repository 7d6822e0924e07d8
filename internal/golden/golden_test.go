package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTB records failures instead of ending the test.
type fakeTB struct {
	testing.TB
	failures []string
	fatal    bool
}

func (f *fakeTB) Helper()      {}
func (f *fakeTB) Name() string { return "TestSomething/case" }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.failures = append(f.failures, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	f.fatal = true
}

// withUpdate runs fn with -update set to on.
func withUpdate(t *testing.T, on bool, fn func()) {
	t.Helper()
	old := *update
	*update = on
	defer func() { *update = old }()
	fn()
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.golden")
	if err := os.WriteFile(path, []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withUpdate(t, false, func() {
		same := &fakeTB{}
		Check(same, path, "a\nb\nc\n")
		if len(same.failures) != 0 {
			t.Errorf("equal output failed: %q", same.failures)
		}
		differs := &fakeTB{}
		Check(differs, path, []byte("a\nB\nc\n"))
		if len(differs.failures) != 1 {
			t.Fatalf("different output: %d failures, want 1", len(differs.failures))
		}
		msg := differs.failures[0]
		for _, want := range []string{path, "line 2", "- b\n+ B", "-run '^TestSomething$' -update"} {
			if !strings.Contains(msg, want) {
				t.Errorf("failure %q lacks %q", msg, want)
			}
		}
		missing := &fakeTB{}
		Check(missing, filepath.Join(dir, "none.golden"), "x")
		if !missing.fatal {
			t.Errorf("a missing golden file is not fatal: %q", missing.failures)
		}
	})
	withUpdate(t, true, func() {
		tb := &fakeTB{}
		Check(tb, path, "new\n")
		Check(tb, filepath.Join(dir, "created.golden"), "created\n")
		if len(tb.failures) != 0 {
			t.Errorf("-update failed: %q", tb.failures)
		}
	})
	for file, want := range map[string]string{"out.golden": "new\n", "created.golden": "created\n"} {
		if got, _ := os.ReadFile(filepath.Join(dir, file)); string(got) != want {
			t.Errorf("after -update %s = %q, want %q", file, got, want)
		}
	}
}

func TestCheckSection(t *testing.T) {
	const start, end = "<!-- t:start -->", "<!-- t:end -->"
	path := filepath.Join(t.TempDir(), "doc.md")
	doc := "# Doc\n\n" + start + "\n\nold table\n\n" + end + "\n\nafter\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	withUpdate(t, false, func() {
		same := &fakeTB{}
		CheckSection(same, path, start, end, "old table\n")
		if len(same.failures) != 0 {
			t.Errorf("equal section failed: %q", same.failures)
		}
		differs := &fakeTB{}
		CheckSection(differs, path, start, end, "new table\n")
		if len(differs.failures) != 1 || !strings.Contains(differs.failures[0], "- old table\n+ new table") {
			t.Errorf("different section: %q", differs.failures)
		}
		noMarkers := &fakeTB{}
		CheckSection(noMarkers, path, "<!-- other:start -->", end, "x")
		if !noMarkers.fatal {
			t.Errorf("missing markers are not fatal: %q", noMarkers.failures)
		}
	})
	withUpdate(t, true, func() {
		tb := &fakeTB{}
		CheckSection(tb, path, start, end, "new table\n")
		if len(tb.failures) != 0 {
			t.Errorf("-update failed: %q", tb.failures)
		}
	})
	want := "# Doc\n\n" + start + "\n\nnew table\n\n" + end + "\n\nafter\n"
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Errorf("after -update the document is %q, want %q", got, want)
	}
}
