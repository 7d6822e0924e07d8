package allowrule

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/golden"
)

// argRow is one attempt to get more through an allow rule than it names:
// the rule, the command line the model sends, and whether it runs unasked.
type argRow struct {
	attempt string
	rule    string
	command string
	allowed bool
}

// tablePaths is the PathCheck of the table: the workspace as LexicalPaths
// sees it, where `outlink` is a symlink to a folder outside.
func tablePaths(p string) bool {
	return LexicalPaths(p) && p != "outlink" && !strings.HasPrefix(p, "outlink/") && !strings.HasPrefix(p, "./outlink")
}

// argTable is docs/guard.md's "Allow rules: argument table" (TestArgTableDoc
// keeps the two identical). Every "asks" row is an attack that got through,
// or one of its class.
var argTable = []argRow{
	// what each grammar allows
	{"exact rule", "git status", "git status", true},
	{"exact rule, one more option", "git status", "git status --short", false},
	{"prefix rule, operands", "go test *", "go test ./... ./cmd/...", true},
	{"prefix rule, an option", "go test *", "go test -v ./...", false},
	{"prefix rule, an option glued to its value", "go test *", "go test -run=TestX", false},
	{"prefix rule, end of options", "git log *", "git log -- file.go", false},
	{"option the rule spells", "go test -v *", "go test -v ./...", true},
	{"options rule", "go test --*", "go test -v -run TestX -count=1 ./...", true},
	{"options rule, end of options", "git log --*", "git log --oneline -- file.go", true},
	{"quoted glob is a word", "go test *", "go test '*'", true},
	{"unquoted glob", "go test *", "go test *", false},
	{"unquoted glob, backup of everything", "tar *", "tar cf backup.tar *", false},
	{"unquoted glob in a word", "ls *", "ls src/*.go", false},
	{"brace (bash as /bin/sh expands it)", "git diff *", "git diff {--output=/etc/x,HEAD}", false},
	{"brace in a word", "ls *", "ls a{b,c}", false},
	// --output and other writes
	{"git diff --output outside", "git diff --*", "git diff --output=/home/u/.config/agentls/config.yaml", false},
	{"git diff --output inside", "git diff --*", "git diff --output=out.txt", false},
	{"git diff --output, separate value", "git diff --*", "git diff --output out.txt", false},
	{"git diff --output, abbreviated", "git diff --*", "git diff --out=x", false},
	{"git diff --output, one letter abbreviation", "git diff --*", "git diff --o=x", false},
	{"git diff under a prefix rule", "git diff *", "git diff --output=x", false},
	{"git log -o, glued", "git log --*", "git log -ox", false},
	{"git log -o, in a group", "git log --*", "git log -po x", false},
	{"git format-patch -o outside", "git format-patch --*", "git format-patch -o /tmp/x HEAD~1", false},
	{"git format-patch --output-directory", "git format-patch --*", "git format-patch --output-directory=p HEAD~1", false},
	{"git clone -u (upload-pack)", "git clone --*", "git clone -u ./x src dst", false},
	{"git ls-remote -u in a group", "git ls-remote --*", "git ls-remote -qu./x origin", false},
	{"git add -u is not upload-pack", "git add --*", "git add -u", true},
	{"git apply --unsafe-paths", "git apply --*", "git apply --unsafe-paths p.diff", false},
	{"a path after a second =", "go mod edit --*", "go mod edit -replace=x=/tmp/x", false},
	{"git --text is not --textconv", "git diff --*", "git diff --text", true},
	{"git --textconv", "git diff --*", "git diff --textconv", false},
	{"git --ext-diff", "git diff --*", "git diff --ext-diff", false},
	// reads outside
	{"git diff --no-index outside file", "git diff --*", "git diff --no-index /etc/shadow x", false},
	{"git diff --no-index, abbreviated", "git diff --*", "git diff --no-i a b", false},
	{"git diff of an absolute path", "git diff *", "git diff /etc/passwd", false},
	{"a path climbing out", "cat *", "cat ../secret", false},
	{"a path climbing out after inside", "cat *", "cat src/../../secret", false},
	{"a path through a symlink out", "cat *", "cat outlink/id_rsa", false},
	{"home folder", "cat *", "cat ~/.ssh/id_rsa", false},
	{"home folder after =", "make *", "make DIR=~/x", false},
	{"quoted tilde is a file name", "cat *", "cat '~x'", true},
	{"file URI", "git clone *", "git clone file:///home/u/other", false},
	{"a path after =", "make *", "make OUT=/etc/x", false},
	{"a path glued to a short option", "tar --*", "tar -cf/tmp/x.tar src", false},
	{"git HEAD~3 is no tilde expansion", "git log *", "git log HEAD~3", true},
	{"git range is no ..", "git log *", "git log main..feature", true},
	// git: repository and config
	{"git -C into a bare repo", "git --*", "git -C sub status", false},
	{"git -c sets config", "git --*", "git -c core.fsmonitor=./x status", false},
	{"git -c in a group", "git status --*", "git status -sc", false},
	{"git --git-dir", "git --*", "git --git-dir=sub status", false},
	{"git --work-tree", "git --*", "git --work-tree=/ status", false},
	{"git --bare at the root", "git --*", "git --bare log", false},
	{"git --exec-path", "git --*", "git --exec-path=./bin status", false},
	{"git --upload-pack", "git fetch --*", "git fetch --upload-pack=./x origin", false},
	{"git push --exec", "git push --*", "git push --exec=./x origin", false},
	{"git grep -O", "git grep --*", "git grep -O./x foo", false},
	{"git grep --open-files-in-pager", "git grep --*", "git grep --open-files-in-pager=./x foo", false},
	{"git rebase --exec", "git rebase --*", "git rebase --exec ./x main", false},
	{"git rebase -x", "git rebase --*", "git rebase -x ./x main", false},
	{"git clone --template (hooks)", "git clone --*", "git clone --template=t src dst", false},
	{"git clone --config", "git clone --*", "git clone --config core.fsmonitor=x src dst", false},
	{"git config by a wildcard", "git *", "git config core.fsmonitor ./x", false},
	{"git difftool by a wildcard", "git *", "git difftool HEAD", false},
	{"git submodule foreach", "git submodule *", "git submodule foreach ./x", false},
	{"git bisect run", "git bisect *", "git bisect run ./x", false},
	{"git hook run", "git *", "git hook run pre-commit", false},
	{"git log by a wildcard", "git *", "git log", true},
	// go
	{"go test -exec", "go test --*", "go test -exec=./x ./...", false},
	{"go test --exec", "go test --*", "go test --exec ./x ./...", false},
	{"go test -exec after the packages", "go test --*", "go test ./... -exec=./x", false},
	{"go test -toolexec", "go test --*", "go test -toolexec=./x ./...", false},
	{"go build -o outside", "go build --*", "go build -o /usr/local/bin/go ./cmd/x", false},
	{"go vet -vettool", "go vet --*", "go vet -vettool=./x ./...", false},
	{"go test -coverprofile", "go test --*", "go test -coverprofile=c.out ./...", false},
	{"go test -cpuprofile", "go test --*", "go test -cpuprofile c.out ./...", false},
	{"go test -test.* flags", "go test --*", "go test ./... -args -test.testlogfile=/tmp/x", false},
	{"go build -ldflags (external linker)", "go build --*", "go build -ldflags=-extld=./x ./...", false},
	{"go build -modfile", "go build --*", "go build -modfile=../go.mod ./...", false},
	{"go build -overlay", "go build --*", "go build -overlay=o.json ./...", false},
	{"go -C", "go --*", "go -C /tmp build", false},
	{"go env -w", "go env --*", "go env -w GOFLAGS=-exec=./x", false},
	{"go test -pgo reads a profile (inside)", "go test --*", "go test -pgo=default.pgo ./...", true},
	// find, sed, tar
	{"find -exec", "find --*", "find . -exec ./x {} \\;", false},
	{"find -execdir", "find --*", "find . -execdir ./x \\;", false},
	{"find -delete", "find --*", "find . -delete", false},
	{"find -fprintf", "find --*", "find . -fprintf out %p", false},
	{"find -exec after --", "find --*", "find -- . -exec ./x \\;", false},
	{"find with operands only", "find *", "find src", true},
	{"sed -i", "sed --*", "sed -i s/a/b/ f", false},
	{"sed -i in a group", "sed --*", "sed -ni p f", false},
	{"sed --in-place, abbreviated", "sed --*", "sed --in=.bak s/a/b/ f", false},
	{"sed script runs a command", "sed *", "sed 'e ./x' f", false},
	{"sed script: s///e", "sed *", "sed s/x/./x/e f", false},
	{"sed script: s///w", "sed *", "sed 's/x/y/w /tmp/out' f", false},
	{"sed script writes", "sed *", "sed 'w out' f", false},
	{"sed script reads", "sed *", "sed 'r /etc/shadow' f", false},
	{"sed script after an address", "sed *", "sed '1,3!e ./x' f", false},
	{"sed -e script runs", "sed --*", "sed -n -e p -e 'e ./x' f", false},
	{"sed harmless script", "sed *", "sed s/a/b/g f", true},
	{"sed harmless script with addresses", "sed *", "sed '/^#/d;1,5{s|a|b|2p}' f", true},
	{"sed script the rule spells", "sed 1e *", "sed 1e f", true},
	{"sed script it cannot read", "sed *", "sed 'k' f", false},
	{"tar --checkpoint-action", "tar --*", "tar --checkpoint=1 --checkpoint-action=exec=./x -cf b.tar src", false},
	{"tar --to-command", "tar --*", "tar -xf b.tar --to-command=./x", false},
	{"tar -I", "tar --*", "tar -I ./x -cf b.tar src", false},
	{"tar -I in an old-style bundle", "tar *", "tar cfI b.tar ./x src", false},
	{"tar --use-compress-program, abbreviated", "tar --*", "tar --use-c=./x -cf b.tar src", false},
	{"tar -P (absolute names)", "tar --*", "tar -xPf b.tar", false},
	{"tar -C outside", "tar --*", "tar -xf b.tar -C /", false},
	{"tar of workspace files", "tar *", "tar cf b.tar src", true},
	// wrappers and npm
	{"env runs anything", "*", "env ./x", false},
	{"xargs runs anything", "*", "xargs ./x", false},
	{"sh by a wildcard", "*", "sh build.sh", false},
	{"timeout by a wildcard", "*", "timeout 5 ./x", false},
	{"exact wrapper line", "nohup make", "nohup make", true},
	{"wrapper under a path", "*", "/usr/bin/env ./x", false},
	{"wrapper in capitals", "*", "ENV ./x", false},
	{"npm exec", "npm *", "npm exec ./x", false},
	{"npm x", "npm *", "npm x cowsay", false},
	{"npm --prefix", "npm --*", "npm --prefix=/tmp test", false},
	{"npm --userconfig", "npm --*", "npm test --userconfig x", false},
	{"npm --script-shell", "npm run --*", "npm run build --script-shell=./x", false},
	{"npm -g", "npm install --*", "npm install -g x", false},
	{"npm run a script", "npm run *", "npm run build", true},
	{"cargo --config", "cargo --*", "cargo --config build.rustc-wrapper=./x build", false},
}

func TestArgTable(t *testing.T) { checkArgRows(t, argTable) }

// checkArgRows judges each row's command by its rule and fails the rows
// whose verdict is not the one they want, or that refuse without saying
// why.
func checkArgRows(t *testing.T, rows []argRow) {
	t.Helper()
	for _, row := range rows {
		r, err := ParseRule(row.rule)
		if err != nil {
			t.Errorf("%s: ParseRule(%q): %v", row.attempt, row.rule, err)
			continue
		}
		c, err := Parse(row.command)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", row.attempt, row.command, err)
			continue
		}
		ok, why := r.Allows(c, tablePaths)
		if ok != row.allowed {
			t.Errorf("%s: rule %q, command %q: allowed = %v (%s), want %v", row.attempt, row.rule, row.command, ok, why, row.allowed)
		}
		if !ok && why == "" && r.tail != TailNone {
			t.Errorf("%s: refused without saying why", row.attempt)
		}
	}
}

// TestWrapperRules: a rule for a command that runs another command is only
// an exact line without options.
func TestWrapperRules(t *testing.T) {
	for _, text := range []string{"sh *", "env --*", "xargs *", "sudo make *", "bash -c 'make'", "env FOO=1 make *", "timeout -s KILL 5 make", "npx *", "awk *", "/usr/bin/env *"} {
		if _, err := ParseRule(text); err == nil {
			t.Errorf("ParseRule(%q) accepted a wrapper rule with a wildcard or an option", text)
		}
	}
	for _, text := range []string{"nohup make", "timeout 60 make", "sh build.sh"} {
		if _, err := ParseRule(text); err != nil {
			t.Errorf("ParseRule(%q): %v", text, err)
		}
	}
}

func TestOfferable(t *testing.T) {
	tests := []struct {
		command string
		want    bool
	}{
		{"make", true},
		{"go test -v ./...", true},
		{"git status --short", true},
		{"tar cf backup.tar *", false},
		{"tar cf backup.tar '*'", true},
		{"ls src/*.go", false},
		{"ls a{b,c}", false},
		{"cat ~/.netrc", false},
		{"cat /etc/passwd", false},
		{"cat ../x", false},
		{"cat outlink/x", false},
		{"git diff --output=x", false},
		{"go test -exec=./x ./...", false},
		{"find . -delete", false},
		{"sed -i s/a/b/ f", false},
		{"sed 'e ./x' f", false},
		{"sh -c ./x", false},
		{"env FOO=1 make", false},
		{"sh build.sh", true},
		{"git config core.fsmonitor x", false},
		{"npm exec x", false},
		{"tar --checkpoint-action=exec=./x -cf b.tar src", false},
	}
	for _, tc := range tests {
		c, err := Parse(tc.command)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.command, err)
		}
		ok, why := Offerable(c, tablePaths)
		if ok != tc.want || (!ok && why == "") {
			t.Errorf("Offerable(%q) = %v, %q; want %v", tc.command, ok, why, tc.want)
		}
	}
}

func TestLexicalPaths(t *testing.T) {
	for p, want := range map[string]bool{
		"src/a.go": true, "./...": true, "a..b": true, "HEAD~1": true, "": true,
		"/etc": false, "..": false, "a/../..": false, "../x": false, "file:///etc": false, `\\server\x`: false, `C:\x`: false,
	} {
		if got := LexicalPaths(p); got != want {
			t.Errorf("LexicalPaths(%q) = %v, want %v", p, got, want)
		}
	}
}

const (
	argTableStart = "<!-- allow-rule-table:start (generated by `go test ./internal/allowrule -run TestArgTableDoc -update`) -->"
	argTableEnd   = "<!-- allow-rule-table:end -->"
)

// TestArgTableDoc keeps docs/guard.md's argument table identical to argTable.
func TestArgTableDoc(t *testing.T) {
	var b strings.Builder
	cell := func(s string) string { return "`` " + strings.ReplaceAll(s, "|", `\|`) + " ``" }
	fmt.Fprintf(&b, "#### Allow rules: argument table, %d rows\n\n", len(argTable))
	b.WriteString("`outlink` is a symlink in the workspace to a folder outside it.\n\n")
	b.WriteString("| # | attempt | rule | command | expected |\n|---|---|---|---|---|\n")
	for i, r := range argTable {
		want := "asks"
		if r.allowed {
			want = "runs unasked"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", i+1, strings.ReplaceAll(r.attempt, "|", `\|`), cell(r.rule), cell(r.command), want)
	}
	golden.CheckSection(t, "../../docs/guard.md", argTableStart, argTableEnd, b.String())
}

// oracleDanger is an independent spelling of the danger tables for the
// fuzz property: the long names (any abbreviation of at least one letter)
// and the short letters of git, go, tar and sed, and find's actions.
var oracleDanger = map[string]struct {
	long  []string
	short string
}{
	"git":  {[]string{"output", "ext-diff", "textconv", "exec-path", "upload-pack", "receive-pack", "no-index", "git-dir", "work-tree", "config-env", "namespace", "super-prefix", "open-files-in-pager", "exec", "bare", "template"}, "oOcCx"},
	"go":   {[]string{"-exec", "-toolexec", "-o", "-vettool", "-modfile", "-overlay", "-C", "-coverprofile", "-cpuprofile", "-memprofile", "-ldflags", "-gcflags"}, ""},
	"tar":  {[]string{"checkpoint-action", "to-command", "use-compress-program", "info-script", "new-volume-script"}, "IF"},
	"sed":  {[]string{"in-place"}, "i"},
	"find": {[]string{"-exec", "-execdir", "-ok", "-okdir", "-delete"}, ""},
}

// FuzzAllows: whatever the rule (from a fixed set) and the line, when a
// rule lets a command run unasked: its first words are the rule's; a
// wildcard word that starts with `-` only under `--*`; no wildcard word
// holds an unquoted glob or brace, an expanding `~`, a path the PathCheck
// refuses (here: holding OUT, absolute, climbing), or a spelling of a
// danger option (oracleDanger); no wrapper runs through a wildcard.
func FuzzAllows(f *testing.F) {
	ruleTexts := []string{"*", "--*", "git *", "git --*", "git diff --*", "go test *", "go --*", "tar --*", "sed --*", "find --*", "cat *", "sed *", "git status"}
	var rules []Rule
	for _, t := range ruleTexts {
		r, err := ParseRule(t)
		if err != nil {
			f.Fatal(err)
		}
		rules = append(rules, r)
	}
	for i, row := range argTable {
		f.Add(uint8(i), row.command)
	}
	for _, b := range bypasses {
		f.Add(uint8(0), b)
	}
	inside := func(p string) bool { return !strings.Contains(p, "OUT") && LexicalPaths(p) }
	f.Fuzz(func(t *testing.T, ri uint8, line string) {
		r := rules[int(ri)%len(rules)]
		c, err := Parse(line)
		if err != nil {
			return
		}
		ok, _ := r.Allows(c, inside)
		if !ok {
			return
		}
		words := c.Words()
		fixed := len(r.words)
		name := commandName(words[0])
		if fixed < len(words) && wrappers[name] {
			t.Fatalf("rule %q let the wrapper %q run with words it does not name", r, line)
		}
		for i, cw := range c.words[fixed:] {
			w := words[fixed+i]
			if strings.HasPrefix(w, "-") && r.tail != TailOptions {
				t.Fatalf("rule %q let the option %q of %q through", r, w, line)
			}
			if hasUnquotedGlob(cw) || tildeAt(cw) {
				t.Fatalf("rule %q let the expanding word %q of %q through", r, w, line)
			}
			code := codeWords(words)[fixed+i]
			if !code && (strings.Contains(w, "OUT") || strings.HasPrefix(w, "/") || strings.Contains("/"+w+"/", "/../")) {
				t.Fatalf("rule %q let the outside path %q of %q through", r, w, line)
			}
			d, tabled := oracleDanger[name]
			if !tabled || !strings.HasPrefix(w, "-") {
				continue
			}
			opt, _, _ := strings.Cut(w, "=")
			for _, l := range d.long {
				if strings.HasPrefix(l, "-") { // single-dash names: exact
					if opt == l || opt == "-"+l {
						t.Fatalf("rule %q let %s's %s through in %q", r, name, l, line)
					}
				} else if len(opt) > 2 && strings.HasPrefix(opt, "--") && strings.HasPrefix(l, opt[2:]) && !(name == "git" && opt == "--text") {
					t.Fatalf("rule %q let %s's --%s through as %q in %q", r, name, l, opt, line)
				}
			}
			if !strings.HasPrefix(w, "--") && strings.ContainsAny(w[1:], d.short) && d.short != "" {
				t.Fatalf("rule %q let one of %s's letters %q through in %q", r, name, d.short, line)
			}
		}
	})
}
