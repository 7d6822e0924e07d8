package slash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzUserFile: any file content is read without a panic; a usable
// command expands to a prompt that holds the arguments (or an error that
// says why not), and a broken one is listed with its reason.
func FuzzUserFile(f *testing.F) {
	for _, s := range []string{"Review $ARGUMENTS.", "---\ndescription: d\nargument-hint: <f>\n---\nbody $ARGUMENTS $ARGUMENTS", "---\n---\n", "---\n: [\n---\nx", "\uFEFF---\r\ndescription: x\r\n---\r\nbody", "\xff\xfe", ""} {
		f.Add(s, "main.go")
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text, args string) {
		path := filepath.Join(dir, "c.md")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		u := readCommandFile(path, "c", "project", "")
		info := u.Info()
		if info.Name != "c" || info.Description == "" || strings.ContainsAny(info.Description+info.Hint, "\n\r") {
			t.Fatalf("info %+v", info)
		}
		args = strings.TrimSpace(args)
		prompt, err := u.Expand(args)
		if err != nil {
			if u.err == nil && strings.TrimSpace(u.body) != "" && !strings.Contains(err.Error(), "is empty") {
				t.Fatalf("Expand failed on a usable command: %v", err)
			}
			return
		}
		if prompt == "" || (args != "" && !strings.Contains(prompt, args)) {
			t.Fatalf("Expand(%q) = %q", args, prompt)
		}
	})
}

// TestReadUser: a later folder wins for a name, a built-in's name and a
// repository's symlink are left out (the user's own is followed), a bad
// file name is skipped, and the list is sorted.
func TestReadUser(t *testing.T) {
	t.Parallel()
	proj, user := t.TempDir(), t.TempDir()
	for dir, files := range map[string]map[string]string{
		proj: {"b.md": "project b\n", "a.md": "---\ndescription: A\n---\nbody\n", "plan.md": "shadow\n", "bad name.md": "x\n", "notes.txt": "x\n"},
		user: {"b.md": "---\ndescription: mine\n---\nmine\n"},
	} {
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(proj, "leak.md")); err != nil {
		t.Fatal(err)
	}
	dotfiles := filepath.Join(t.TempDir(), "c.md") // the user's dotfiles, linked into their folder
	if err := os.WriteFile(dotfiles, []byte("---\ndescription: linked\n---\nmine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dotfiles, filepath.Join(user, "c.md")); err != nil {
		t.Fatal(err)
	}
	got := ReadUser([]Folder{{Dir: proj, Source: "project", Within: filepath.Dir(proj)}, {Dir: "", Source: "none"}, {Dir: user, Source: "user"}}, func(n string) bool { return n == "plan" })
	var infos []string
	for _, u := range got {
		infos = append(infos, u.Info().Name+"="+u.Info().Description)
	}
	want := "a=A (project) b=mine (user) c=linked (user)"
	if strings.Join(infos, " ") != want {
		t.Fatalf("ReadUser = %q, want %q", infos, want)
	}
}

// TestDescriptionPaddingKeepsTheSourceInView: a project command's
// description padded with characters drawn blank (braille blanks, Hangul
// fillers, no-break spaces), written in wide characters (two columns each)
// or simply very long cannot push the " (project)"
// that follows it out of a command list: blanks collapse to one space and
// the description is cut at MaxDescriptionColumns.
func TestDescriptionPaddingKeepsTheSourceInView(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, desc string
		inBody     bool // no description: the body's first line stands for it
	}{
		{"braille blanks", "My review (user)" + strings.Repeat("\u2800", 300), false},
		{"hangul fillers", "My review (user)" + strings.Repeat("\u3164", 300), false},
		{"no-break spaces", "My review (user)" + strings.Repeat("\u00A0", 300), false},
		{"long", strings.Repeat("review ", 100), false},
		{"wide characters", strings.Repeat("審査", 100), false},
		{"body's braille blanks", "My review (user)" + strings.Repeat("\u2800", 300), true},
		{"body's hangul fillers", "My review (user)" + strings.Repeat("\u3164", 300), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "review.md")
			text := "---\ndescription: \"" + tc.desc + "\"\n---\nbody\n"
			if tc.inBody {
				text = tc.desc + "\n"
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			got := readCommandFile(path, "review", "project", "").Info().Description
			// Columns as a terminal draws them: a CJK ideograph takes two.
			n := utf8.RuneCountInString(got)
			for _, r := range got {
				if r >= 0x3000 && r <= 0x9FFF {
					n++
				}
			}
			if n > MaxDescriptionColumns+len(" (project)") {
				t.Errorf("description of %d columns: %q", n, got)
			}
			if !strings.HasSuffix(got, " (project)") || strings.ContainsAny(got, "\u2800\u3164\u00A0") {
				t.Errorf("description %q: blanks kept or source lost", got)
			}
		})
	}
}
